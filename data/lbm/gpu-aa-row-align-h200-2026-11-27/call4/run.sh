#!/bin/bash
# session 17, call 4: aa sp over the sweep at row alignments of 32, 64 and 128 bytes (HEAD 326f741)
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
for r in 1 2; do
  for n in $(seq 128 16 512); do
    timeout 60 $B/lbm-gpu --size $n --kernel aa --precision sp --align 32,64,128 --reps 3 --append -o $O/aa.csv 2>>$O/err.txt
  done; say "aa round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
agg = collections.defaultdict(list)
for f in ('aa', 'aa-soa', 'pull'):
    for r in rows(f'{f}.csv'):
        if r['verified'] != 'pass': print('NOT VERIFIED', f, r['precision'], r['nx'])
        agg[(f, r['precision'], int(r['nx']), int(r['align']), int(r['pitch']))].append(float(r['mflups']))
for k in sorted(agg):
    B = 152 if k[1] == 'sp' else 304
    v = agg[k]
    print(*k, ' '.join(f'{x:.0f}' for x in v), f"{max(v)*B/1e3/bw[k[1]]*100:.1f}%")
PY
cat $O/summary.txt; tail -2 $O/err.txt
cp $R/.peers/s17-align2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
