#!/bin/bash
# session 34 call 5 (an H200 machine): (1) the GPU build of this tree, its GPU tests (one GPU);
# (2) the CPU x split on four ranks (4x1x1 against 1x1x4, 4 ranks x 4 cores, 256^3: 64-cell
# rows, whose ghost line was a fifth of each row's lines), this tree against 8022c61, three rounds.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nproc; lscpu | grep -E "Model name|L3"; nvidia-smi -L; git -C $R log -1 --format=%H; git -C $R status --short | grep -v "^??"; } > $O/machine.txt 2>&1
bld() { cmake -S $1 -B $2 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld-$3.log 2>&1 &&
  cmake --build $2 -j4 --target lbm-cpu >> $O/bld-$3.log 2>&1; }
(cmake -S $R -B /tmp/bg -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_MPI=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $O/bld-gpu.log 2>&1 &&
  cmake --build /tmp/bg -j8 >> $O/bld-gpu.log 2>&1; echo "gpu build rc=$?" >> $O/log.txt) &
bld $R /tmp/bn new & mkdir -p /tmp/old && tar xzf $R/.peers/s34/old.tgz -C /tmp/old && bld /tmp/old /tmp/bo old & wait; say "builds"
(cd /tmp/bg && timeout 240 ctest -L gpu > $O/ctest-gpu.txt 2>&1; echo "ctest gpu rc=$?" >> $O/log.txt) 
say "gpu tests"
export OMP_PROC_BIND=close OMP_PLACES=cores
four() { timeout 120 mpiexec -np 4 --map-by slot:PE=4 --bind-to core -x OMP_NUM_THREADS=4 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
  /tmp/b$1/lbm-cpu --size 256 --procs 4x1x1,1x1x4 --precision sp,dp --kernel pull,pull_nt --reps 5 --append -o $O/$1.csv 2>>$O/err-$1.txt; }
for r in 1 2 3; do
  case $r in 2) ord="n o";; *) ord="o n";; esac
  for b in $ord; do left && { four $b; say "round $r $b rc=$?"; }; done
done
cp $R/.peers/s34/rows/call5.sh $O/
gzip -f $O/bld-*.log
say total
cd $OUT && tar czf r.tgz r && rm -rf r
