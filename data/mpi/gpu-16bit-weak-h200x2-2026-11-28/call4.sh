#!/bin/bash
# session 29, call 4 (two H200s of one host): the two-GPU ctests (same state under MPI), then three
# alternated rounds of fp16s and sp weak scaling at 256^3 a GPU, pull, default grid 1x1x2.
set -u
R=$PWD; O=$OUT/r4; mkdir -p $O; T0=$SECONDS
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $O/machine.txt 2>&1; nvidia-smi topo -m >> $O/machine.txt 2>&1
cmake -S $R -B /tmp/b4 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b4 -j32 >> $O/bld.log 2>&1; say "build rc=$? $(grep -c 'MPI' /tmp/b4/CMakeCache.txt) mpi lines"
grep -E "LBMR_MPI|MPI_C_FOUND" /tmp/b4/CMakeCache.txt >> $O/machine.txt
cd /tmp/b4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
timeout 150 ctest -L gpu -R "mpi|same_state" -j1 > $O/ctest-2gpu.txt 2>&1; say "ctest 2-gpu rc=$? $(grep 'tests passed' $O/ctest-2gpu.txt)"
for r in 1 2 3; do
  timeout 60 mpiexec -np 2 ./lbm-gpu --local 256 --procs 1x1x1,1x1x2 --precision fp16s,sp --kernel pull --reps 5 --warmup 20 -o $O/weak-$r.csv 2>> $O/err.txt
  say "weak round $r rc=$?"
  [ $((SECONDS-T0)) -gt 380 ] && break
done
cp $R/.peers/s29/call4.sh $O/
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
