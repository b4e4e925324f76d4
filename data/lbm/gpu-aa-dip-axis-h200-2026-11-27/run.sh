#!/bin/bash
# session 17, call 7: which axis carries aa's dip at odd multiples of 16 cells: 144 and 208 along
# x, y or z alone against 160 / 192 elsewhere (HEAD 9f48a4f), two rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld.log 2>&1 && cmake --build $R/build-new -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; echo "new $?" > $O/bld.rc)
say "build $(cat $O/bld.rc)"
B=$R/build-new
$B/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
D1=160x160x160,144x160x160,160x144x160,160x160x144,144x144x144
D2=192x192x192,208x192x192,192x208x192,192x192x208,208x208x208
for r in 1 2; do
  timeout 90 $B/lbm-gpu --dims $D1,$D2 --kernel aa --precision sp,dp --reps 3 --append -o $O/aa.csv 2>>$O/err.txt
  timeout 60 $B/lbm-gpu --dims $D1 --kernel pull --precision sp,dp --reps 3 --append -o $O/pull.csv 2>>$O/err.txt
  say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
agg = collections.defaultdict(list)
for f in ('aa', 'pull'):
    for r in rows(f'{f}.csv'):
        if r['verified'] != 'pass': print('NOT VERIFIED', f, r['precision'], r['nx'])
        agg[(f, r['precision'], f"{r['nx']}x{r['ny']}x{r['nz']}", r['pitch'])].append(float(r['mflups']))
for k in sorted(agg):
    B = 152 if k[1] == 'sp' else 304
    v = agg[k]
    print(*k, ' '.join(f'{x:.0f}' for x in v), f"{max(v)*B/1e3/bw[k[1]]*100:.1f}%")
PY
cat $O/summary.txt; tail -2 $O/err.txt
cp $R/.peers/s17-dims.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
