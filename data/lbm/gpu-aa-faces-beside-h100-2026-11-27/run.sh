#!/bin/bash
# session 17, call 8: the face rows beside the inner rows on an H100: HEAD ("new") against 0688ac3
# ("old"), the aa sweep 128..512 alternated size by size, three rounds at 256^3 and 512^3 with pull
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-400}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j8 --target lbm-gpu stream-gpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j8 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old new; do timeout 100 $R/build-$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; done; say states
$R/build-new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2 3; do
  case $r in 2) ord="new old";; *) ord="old new";; esac
  for b in $ord; do
    left && timeout 80 $R/build-$b/lbm-gpu --size 256,512 --kernel aa --precision sp,dp,fp16s --reps 5 --append -o $O/t-$b.csv 2>>$O/err.txt
  done
  left && timeout 80 $R/build-new/lbm-gpu --size 256,512 --kernel pull --precision sp,dp,fp16s --reps 5 --append -o $O/t-pull.csv 2>>$O/err.txt
  say "round $r"
done
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt
  done
done; say sweep
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','new')}
print(f"states: old {len(st['old'])} new {len(st['new'])} verified, differing {sum(1 for k in st['old'] if st['new'].get(k) != st['old'][k])}")
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
Bof = {'sp': 152, 'dp': 304, 'fp16s': 76}
agg = collections.defaultdict(list)
for f in ('t-old', 't-new', 't-pull'):
    for r in rows(f'{f}.csv'):
        if r['verified'] != 'pass': print('NOT VERIFIED', f, r['precision'], r['nx'])
        agg[(r['precision'], int(r['nx']), f)].append(float(r['mflups']))
for k in sorted(agg):
    v = agg[k]; print(*k, ' '.join(f'{x:.0f}' for x in v), f"{max(v)*Bof[k[0]]/1e3/bw[k[0]]*100:.1f}%")
for p in ('sp', 'dp', 'fp16s'):
    for n in (256, 512):
        a, pl = agg.get((p, n, 't-new')), agg.get((p, n, 't-pull'))
        if a and pl: print('aa/pull', p, n, f'{max(a)/max(pl):.3f}')
under = collections.Counter(); sw = collections.defaultdict(dict)
for b in ('old', 'new'):
    for r in rows(f'sweep-{b}.csv'):
        p = float(r['mflups'])*Bof[r['precision']]/1e3/bw[r['precision']]*100
        sw[(r['precision'], int(r['nx']))][b] = (float(r['mflups']), p)
        if p < 90: under[(r['precision'], b)] += 1
for k in sorted(sw):
    o, n = sw[k].get('old'), sw[k].get('new')
    if o and n: print('sweep', *k, f"old {o[0]:.0f} {o[1]:.1f}% new {n[0]:.0f} {n[1]:.1f}% {n[0]/o[0]-1:+.1%}")
print('under 90%:', dict(under))
PY
cat $O/summary.txt
tail -2 $O/err.txt; rm -f $O/bld-*.log $O/bld-*.rc
cp $R/.peers/s17-h100.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
