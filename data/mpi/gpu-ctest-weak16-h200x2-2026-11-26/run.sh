#!/bin/bash
# session 9: the final tree on two GPUs of one host: every gpu ctest (MPI same-state on 2 GPUs
# included), then fp16s/sp weak scaling at 256^3 a GPU, four alternated rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/b -j32 >> $O/bld.log 2>&1; say "build rc=$?"
grep -E "MPI|CUDA" /tmp/b/CMakeCache.txt | grep -E "^LBMR_|MPI_C_FOUND" > $O/config.txt
(cd /tmp/b && env -u LBMR_ENERGY timeout 300 ctest -L gpu --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped" $O/ctest-gpu.log)
for r in 1 2 3 4; do
  timeout 90 mpiexec -np 2 /tmp/b/lbm-gpu --local 256 --procs 1x1x1,1x1x2,1x2x1 --precision sp,fp16s --kernel pull --reps 5 --warmup 20 -o $O/weak-$r.csv 2>>$O/err.txt; say "weak $r rc=$?"
done
python3 - $O <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]
for f in sorted(glob.glob(f'{d}/weak-*.csv')):
    rows = list(csv.DictReader(open(f)))
    one = {r['precision']: float(r['mflups']) for r in rows if r['procs'] == '1x1x1'}
    print(f.split('/')[-1], ' '.join(f"{r['procs']} {r['precision']} {float(r['mflups']):.0f} ({float(r['mflups'])/2/one[r['precision']]:.3f})" for r in rows if r['procs'] != '1x1x1'))
PY
cp $R/.peers/s9-2gpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
