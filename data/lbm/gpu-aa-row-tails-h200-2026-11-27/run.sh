#!/bin/bash
# session 17, call 2: aa's row tails (working tree "new") against 4021cd8 ("old"): states on
# tail dims, the GPU state grid (before and after --update), sanitizers, ncu at 144, the sweep
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-560}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j11 -- -k >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM -DLBMR_MPI=OFF > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j4 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
ST="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,208x9x5,17x9x6,40x1x5,40x2x3,1x7x5,300x6x5 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old new; do timeout 150 $R/build-$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
timeout 150 $R/build-new/lbm-gpu $ST --block 32,96 -o $O/state-new-narrow.csv 2>>$O/err-state.txt; say "state narrow rc=$?"
# the GPU state grid: first against the committed baseline (the new 80x5x4 rows are extra there)
timeout 200 bash tests/state_hash_grid.sh gpu $R/build-new/lbm-gpu > $O/grid-before.log 2>&1; say "grid rc=$?"
tail -5 $O/grid-before.log
timeout 200 bash tests/state_hash_grid.sh --update gpu $R/build-new/lbm-gpu > $O/grid-update.log 2>&1; say "grid update rc=$?"
cp tests/state_hashes_gpu.csv $O/
SAN="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6 --precision sp,dp --geometry cavity,periodic --kernel aa --steps 4 --warmup 2 --reps 1"
for t in racecheck memcheck; do left && { timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $R/build-new/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
(cd $R/build-new && left && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log)
for b in old new; do
  left && timeout 60 ncu --csv --kernel-name regex:aa_ --launch-skip 12 --launch-count 3 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__registers_per_thread \
    $R/build-$b/lbm-gpu --size 144 --kernel aa --precision sp --warmup 10 --reps 1 --steps 10 -o /tmp/ncu-$b.csv > $O/ncu-144-$b.csv 2>>$O/err-ncu.txt
done; say ncu
$R/build-new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt
  done
done; say sweep
for r in 1 2; do for b in old new; do
  left && timeout 60 $R/build-$b/lbm-gpu --size 144,208,256,336,512 --kernel aa --precision fp16s,fp16c --reps 3 --append -o $O/o16-$b.csv 2>>$O/err.txt
  left && timeout 60 $R/build-$b/lbm-gpu --size 144,336 --kernel aa --collision trt,mrt --precision sp --reps 3 --append -o $O/otrt-$b.csv 2>>$O/err.txt
done; done; say others
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','new')}
bad = [k for k in st['old'] if st['new'].get(k) != st['old'][k]]
narrow = collections.defaultdict(set)
for r in rows('state-new-narrow.csv'): narrow[key(r)].add(r['state_hash'])
nbad = [k for k in narrow if narrow[k] != {st['new'].get(k)}]
print(f"states: old {len(st['old'])} new {len(st['new'])} verified, differing {len(bad)}; narrow blocks differing {len(nbad)} of {len(narrow)}", bad[:5], nbad[:5])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
under = collections.Counter(); sw = collections.defaultdict(dict)
for b in ('old', 'new'):
    for r in rows(f'sweep-{b}.csv'):
        B = 152 if r['precision'] == 'sp' else 304
        p = float(r['mflups'])*B/1e3/bw[r['precision']]*100
        if r['verified'] != 'pass': print('NOT VERIFIED', b, r['precision'], r['nx'])
        sw[(r['precision'], int(r['nx']))][b] = (float(r['mflups']), p)
        if p < 90: under[(r['precision'], b)] += 1
for k in sorted(sw):
    o, n = sw[k].get('old'), sw[k].get('new')
    if o and n: print('sweep', *k, f"old {o[0]:.0f} {o[1]:.1f}% new {n[0]:.0f} {n[1]:.1f}% {n[0]/o[0]-1:+.1%}")
print('under 90%:', dict(under))
for f in ('o16', 'otrt'):
    agg = collections.defaultdict(list)
    for b in ('old', 'new'):
        for r in rows(f'{f}-{b}.csv'):
            agg[(r['precision'], r['collision'], int(r['nx']), b)].append(float(r['mflups']))
    for k in sorted(agg):
        if k[3] == 'new':
            o = max(agg.get(k[:3] + ('old',), [0])); n = max(agg[k])
            print(f, *k[:3], f"old {o:.0f} new {n:.0f} {n/o-1:+.1%}" if o else '')
PY
cat $O/summary.txt
tail -3 $O/err.txt; rm -f $O/bld-*.log $O/san-*.csv
cp $R/.peers/s17-tails.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
