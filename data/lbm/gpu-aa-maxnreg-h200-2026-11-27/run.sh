#!/bin/bash
# session 18, call 4: aa's sp neighbour half held to 48 or 56 registers (__maxnreg__, study builds
# mr48 / mr56: five blocks of 256, or nine of 128 / six of 192) against HEAD 2c64c94 ("old"):
# states, ncu of the half, aa sp at eight sizes, two rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
for r in 48 56; do
(cmake -S $R -B $R/build-mr$r $CM -DCMAKE_CUDA_FLAGS=-DLBMR_STUDY_NB_REGS=$r > $O/bld-mr$r.log 2>&1 && cmake --build $R/build-mr$r -j5 --target lbm-gpu stream-gpu >> $O/bld-mr$r.log 2>&1; echo "mr$r $?" > $O/bld-mr$r.rc) &
done
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j5 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
ST="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,208x9x5,17x9x6,40x1x5,300x6x5,256x3x3,600x4x3 --kernel aa --precision sp --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old mr48 mr56; do timeout 100 $R/build-$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,lts__t_sectors_srcunit_tex_aperture_device_op_read.sum
for d in 144x160x160 160x160x160 256x256x256; do for bk in "old 256" "mr48 256" "mr56 128" "mr56 192"; do set -- $bk
  left && timeout 60 ncu --clock-control none --csv --kernel-name regex:aa_ --launch-skip 12 --launch-count 1 --metrics $M \
    $R/build-$1/lbm-gpu --dims $d --block $2 --kernel aa --precision sp --warmup 10 --reps 1 --steps 10 -o /tmp/x.csv --overwrite > $O/ncu-$1-$2-$d.csv 2>>$O/err-ncu.txt
done; done; say ncu
$R/build-mr48/stream-gpu --kernel copy --precision sp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2; do
  i=0
  for n in 128 144 160 176 208 256 336 512; do
    i=$((i+1)); case $(((i + r) % 4)) in 0) ord="old:256 mr48:256 mr56:128 mr56:192";; 1) ord="mr48:256 mr56:128 mr56:192 old:256";; 2) ord="mr56:128 mr56:192 old:256 mr48:256";; *) ord="mr56:192 old:256 mr48:256 mr56:128";; esac
    for bk in $ord; do
      left && timeout 60 $R/build-${bk%:*}/lbm-gpu --block ${bk#*:} --size $n --kernel aa --precision sp --reps 3 --append -o $O/t-${bk%:*}-${bk#*:}.csv 2>>$O/err.txt
    done
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','mr48','mr56')}
for b in ('mr48', 'mr56'):
    bad = [k for k in st['old'] if st[b].get(k) != st['old'][k]]
    print(f"states {b}: old {len(st['old'])} {b} {len(st[b])} verified, differing {len(bad)}", bad[:4])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
print('copy GB/s', bw)
best = collections.defaultdict(list)
tags = ('old-256', 'mr48-256', 'mr56-128', 'mr56-192')
for t in tags:
    for r in rows(f't-{t}.csv'):
        if r['verified'] != 'pass': print('NOT VERIFIED', t, r['precision'], r['nx'])
        best[(int(r['nx']), t)].append(float(r['mflups']))
for n in sorted({k[0] for k in best}):
    o = max(best.get((n, 'old-256'), [0]))
    line = []
    for t in tags:
        v = best.get((n, t), [])
        if v and o: line.append(f"{t} {' '.join(f'{x:.0f}' for x in v)} ({max(v)*152/1e3/bw['sp']*100:.1f}%, {max(v)/o-1:+.1%})")
    print('aa sp', n, ' | '.join(line))
for f in sorted(glob.glob(f'{d}/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        out.setdefault((r['ID'], r['Kernel Name'][:30]), []).append(f"{r['Metric Name'].split('.')[0].replace('__', ':')}={r['Metric Value']}")
    for k, v in out.items(): print(os.path.basename(f)[4:-4], *k, ' '.join(v))
PY
cat $O/summary.txt
tail -3 $O/err.txt $O/err-ncu.txt 2>/dev/null | grep -v energy; rm -f $O/bld-*.log
cp $R/.peers/s18-mr.sh $O/run.sh; git -C $R diff -- gpu > $O/study.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
