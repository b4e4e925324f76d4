#!/bin/bash
# session 16, call 6 (H100): aa's plane-wide runs (working tree, "new") against 7c98ebe ("old"):
# three rounds at 256^3 and 512^3 (every precision, pull beside), the 128..512 sweep alternated
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 --target lbm-gpu stream-gpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2 3; do
  case $r in 2) ord="new old";; *) ord="old new";; esac
  for b in $ord; do left && timeout 90 /tmp/$b/lbm-gpu --size 256,512 --kernel aa --precision sp,dp,fp16s,fp16c --reps 5 -o $O/t-$b-$r.csv 2>>$O/err.txt; done
  left && timeout 90 /tmp/new/lbm-gpu --size 256,512 --kernel pull --precision sp,dp --reps 5 -o $O/t-pull-$r.csv 2>>$O/err.txt
done; say rounds
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do left && timeout 60 /tmp/$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt; done
done; say sweep
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]
bw = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
B = {'sp': 152, 'dp': 304}
best = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/t-*.csv')):
    b = f.split('/')[-1].split('-')[1]
    for r in csv.DictReader(open(f)):
        best[(r['kernel'], r['precision'], int(r['nx']), b)].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for k in sorted(best):
    c = bw.get(k[1], bw['fp16s']); by = B.get(k[1], 76)
    print('round', *k, ' '.join(f'{v:.0f}' for v in best[k]), f'{100*max(best[k])*by/1e3/c:.1f}%')
sw = collections.defaultdict(dict); under = collections.Counter()
for b in ('old', 'new'):
    for r in csv.DictReader(open(f'{d}/sweep-{b}.csv')):
        p = float(r['mflups'])*B[r['precision']]/1e3/bw[r['precision']]*100
        sw[(r['precision'], int(r['nx']))][b] = (p, r['threads'], r['verified'])
        if p < 90: under[(r['precision'], b)] += 1
for k in sorted(sw):
    print('sweep', *k, ' '.join(f'{b} {v[0]:.1f} ({v[1]}, {v[2]})' for b, v in sorted(sw[k].items())))
print('under 90%:', dict(under))
PY
cat $O/summary.txt; tail -2 $O/err.txt; rm -f $O/bld-*.log
cp $R/.peers/s16-h100.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
