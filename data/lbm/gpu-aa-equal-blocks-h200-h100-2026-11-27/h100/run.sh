#!/bin/bash
# session 15: aa's rows longer than 256 cells in equal blocks (working tree, "new") against 5b2a834
# ("old": blocks of 256 and a remainder), the 128..512 sweep of aa alternated size by size, pull's
# sweep once beside it, racecheck and memcheck of aa
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-gpu stream-gpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
/tmp/new/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do left && timeout 40 /tmp/$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt; done
  left && timeout 40 /tmp/new/lbm-gpu --size $n --kernel pull --precision sp,dp --reps 3 --append -o $O/sweep-pull.csv 2>>$O/err.txt
done; say sweep
SAN="--dims 96x20x18,70x9x7,33x7x5,300x6x5,2x6x5 --precision sp,dp,fp16s --geometry cavity,periodic --kernel aa,pull --steps 4 --warmup 2 --reps 1"
for t in racecheck memcheck; do left && { timeout 90 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
bw = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
rows = collections.defaultdict(dict)
for b in ('old', 'new', 'pull'):
    try:
        for r in csv.DictReader(open(f'{d}/sweep-{b}.csv')):
            B = 152 if r['precision'] == 'sp' else 304
            rows[(r['precision'], int(r['nx']))][b] = (float(r['mflups']) * B / 1e3 / bw[r['precision']] * 100, r['threads'], r['verified'])
    except FileNotFoundError: pass
under = collections.Counter()
for k in sorted(rows):
    v = rows[k]
    for b in v:
        if v[b][0] < 90: under[(k[0], b)] += 1
    print(*k, ' '.join(f'{b} {v[b][0]:.1f}% ({v[b][1]}, {v[b][2]})' for b in ('old', 'new', 'pull') if b in v))
print('under 90%:', dict(under))
PY
cat $O/summary.txt
tail -3 $O/err.txt; rm -f $O/bld-*.log
cp $R/.peers/s15-aa.sh $O/run.sh; rm -f $O/san-*.csv
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
