#!/bin/bash
# session 18, call 3: aa's neighbour half two planes a block (study build "zp", -DLBMR_STUDY_ZPAIR:
# both cells' loads before either collides) against HEAD 2c64c94 ("old"): states, racecheck, ncu,
# aa at eight sizes with blocks of 256 and 128, two rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B $R/build-zp $CM -DCMAKE_CUDA_FLAGS=-DLBMR_STUDY_ZPAIR > $O/bld-zp.log 2>&1 && cmake --build $R/build-zp -j8 --target lbm-gpu stream-gpu >> $O/bld-zp.log 2>&1; echo "zp $?" > $O/bld-zp.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j8 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
cuobjdump -sass $R/build-zp/lbm-gpu 2>/dev/null | awk '/Function : /{p=0} /Function : _Z9aa_kernelIfLi0ELi0EL15gpu_lbm_variant5E/{p=1} p' | grep -oE "(LDG|STG|FADD|FFMA|FMUL|BAR|LDS|STS)[.A-Z0-9]*" | uniq -c | head -40 > $O/sass-order.txt
ST="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,208x9x5,17x9x6,40x1x5,40x2x3,1x7x5,300x6x5,256x3x3,600x4x3,33x7x4,20x9x3 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old zp; do timeout 150 $R/build-$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
timeout 150 $R/build-zp/lbm-gpu $ST --block 32,96,128 -o $O/state-zp-narrow.csv 2>>$O/err-state.txt; say "state narrow rc=$?"
SAN="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,600x4x3,33x7x4 --precision sp,dp --geometry cavity,periodic --kernel aa --steps 4 --warmup 2 --reps 1"
left && { timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $R/build-zp/lbm-gpu $SAN -o /tmp/s.csv > $O/san-racecheck.log 2>&1; say "racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $O/san-racecheck.log | sort | uniq -c; }
left && { timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $R/build-zp/lbm-gpu $SAN -o /tmp/s.csv > $O/san-memcheck.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san-memcheck.log | sort | uniq -c; }
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum
for d in 144x160x160 160x160x160; do for bk in "zp 256" "zp 128" "old 256"; do set -- $bk
  left && timeout 60 ncu --clock-control none --csv --kernel-name regex:aa_ --launch-skip 12 --launch-count 3 --metrics $M \
    $R/build-$1/lbm-gpu --dims $d --block $2 --kernel aa --precision sp --warmup 10 --reps 1 --steps 10 -o /tmp/x.csv --overwrite > $O/ncu-$1-$2-$d.csv 2>>$O/err-ncu.txt
done; done; say ncu
$R/build-zp/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
run() { local b=$1 k=$2; shift 2; timeout 60 $R/build-$b/lbm-gpu --block $k "$@"; }
for r in 1 2; do
  i=0
  for n in 128 144 160 176 208 256 336 512; do
    i=$((i+1)); case $(((i + r) % 3)) in 0) ord="old:256 zp:256 zp:128";; 1) ord="zp:256 zp:128 old:256";; *) ord="zp:128 old:256 zp:256";; esac
    for bk in $ord; do
      left && run ${bk%:*} ${bk#*:} --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/t-${bk%:*}-${bk#*:}.csv 2>>$O/err.txt
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
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','zp')}
bad = [k for k in st['old'] if st['zp'].get(k) != st['old'][k]]
narrow = collections.defaultdict(set)
for r in rows('state-zp-narrow.csv'): narrow[key(r)].add(r['state_hash'])
nbad = [k for k in narrow if narrow[k] != {st['zp'].get(k)}]
print(f"states: old {len(st['old'])} zp {len(st['zp'])} verified, differing {len(bad)}; blocks 32/96/128 differing {len(nbad)} of {len(narrow)}", bad[:5], nbad[:5])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
print('copy GB/s', bw)
best = collections.defaultdict(list)
tags = ('old-256', 'zp-256', 'zp-128')
for t in tags:
    for r in rows(f't-{t}.csv'):
        if r['verified'] != 'pass': print('NOT VERIFIED', t, r['precision'], r['nx'])
        best[(r['precision'], int(r['nx']), t)].append(float(r['mflups']))
for p in ('sp', 'dp'):
    B = 152 if p == 'sp' else 304
    for n in sorted({k[1] for k in best if k[0] == p}):
        o = max(best.get((p, n, 'old-256'), [0]))
        line = []
        for t in tags:
            v = best.get((p, n, t), [])
            if v and o: line.append(f"{t} {' '.join(f'{x:.0f}' for x in v)} ({max(v)*B/1e3/bw[p]*100:.1f}%, {max(v)/o-1:+.1%})")
        print('aa', p, n, ' | '.join(line))
for f in sorted(glob.glob(f'{d}/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        out.setdefault((r['ID'], r['Kernel Name'][:30]), []).append(f"{r['Metric Name'].split('.')[0]}={r['Metric Value']}")
    print(os.path.basename(f))
    for k, v in out.items(): print('  ', *k, ' '.join(v))
PY
cat $O/summary.txt; cat $O/sass-order.txt | head -30
tail -3 $O/err.txt $O/err-ncu.txt 2>/dev/null | grep -v energy; rm -f $O/bld-*.log
cp $R/.peers/s18-zp.sh $O/run.sh; git -C $R diff -- gpu > $O/study.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
