#!/bin/bash
# session 17, call 1: aa's face rows beside the inner rows (working tree "new") against HEAD
# ("old"); the same tree with the study's CUDA graph ("g", LBMR_STUDY_GRAPH=1); ncu per launch of
# old at 128, 144, 160, 256 cells; GPU ctests and states of new; aa at eight sizes alternated
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-550}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j10 -- -k >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM -DLBMR_MPI=OFF > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j3 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
(cmake -S $R/.peers/g -B $R/build-g $CM -DLBMR_MPI=OFF > $O/bld-g.log 2>&1 && cmake --build $R/build-g -j3 --target lbm-gpu >> $O/bld-g.log 2>&1; echo "g $?" > $O/bld-g.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
run() { # run <build> <limit s> <args...>: g runs with the study's graph
  local b=$1 t=$2; shift 2
  case $b in g) timeout $t env LBMR_STUDY_GRAPH=1 $R/build-g/lbm-gpu "$@";; *) timeout $t $R/build-$b/lbm-gpu "$@";; esac
}
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5,128x30x31 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,channel,periodic --warmup 2 --reps 2 --steps 9"
for b in old new g; do run $b 120 $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
# ncu: one pair of updates after the warm-up, per launch
for n in 128 144 160 256; do
  left && timeout 60 ncu --csv --kernel-name regex:aa_ --launch-skip 12 --launch-count 6 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum \
    $R/build-old/lbm-gpu --size $n --kernel aa --precision sp --warmup 10 --reps 1 --steps 10 -o /tmp/ncu-run-$n.csv > $O/ncu-$n.csv 2>>$O/err-ncu.txt
  say "ncu $n"
done
(cd $R/build-new && left && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log)
$R/build-new/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2; do
  i=0
  for n in 128 144 160 176 208 256 336 512; do
    i=$((i+1)); case $(((i + r) % 3)) in 0) ord="old new g";; 1) ord="new g old";; *) ord="g old new";; esac
    for b in $ord; do
      left && run $b 60 --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/t-$b.csv 2>>$O/err.txt
    done
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','new','g')}
for b in ('new', 'g'):
    bad = [k for k in st['old'] if st[b].get(k) != st['old'][k]]
    print(f"states {b}: old {len(st['old'])} {b} {len(st[b])} verified, differing {len(bad)}", bad[:4])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
best = collections.defaultdict(list)
for b in ('old', 'new', 'g'):
    for r in rows(f't-{b}.csv'):
        B = 152 if r['precision'] == 'sp' else 304
        best[(r['precision'], int(r['nx']), b)].append(float(r['mflups']))
        if r['verified'] != 'pass': print('NOT VERIFIED', b, r['precision'], r['nx'])
for p in ('sp', 'dp'):
    B = 152 if p == 'sp' else 304
    for n in sorted({k[1] for k in best if k[0] == p}):
        o = max(best.get((p, n, 'old'), [0]))
        line = []
        for b in ('old', 'new', 'g'):
            v = best.get((p, n, b), [])
            if not v: continue
            line.append(f"{b} {' '.join(f'{x:.0f}' for x in v)} ({max(v)*B/1e3/bw[p]*100:.1f}%, {max(v)/o-1:+.1%})" if o else b)
        print(p, n, ' | '.join(line))
PY
cat $O/summary.txt
tail -3 $O/err.txt; rm -f $O/bld-*.log
cp $R/.peers/s17-aa.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
