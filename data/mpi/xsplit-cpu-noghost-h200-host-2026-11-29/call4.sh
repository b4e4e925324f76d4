#!/bin/bash
# session 34 call 4 (an H200 machine's 16-core host): pull and pull_nt on a grid split along x alone
# with rows of nx cells (no x ghost layer; the end cells read the received face), against the
# tree before (8022c61, .peers/s34/old: a ghost cell in front of each row). 2 ranks x 8 cores,
# 256^3, --procs 2x1x1,1x1x2, sp and dp, four rounds alternating the builds.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nproc; lscpu | grep -E "Model name|L3"; git -C $R log -1 --format=%H; git -C $R status --short | grep -v "^??"; } > $O/machine.txt 2>&1
bld() { cmake -S $1 -B $2 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld-$3.log 2>&1 &&
  cmake --build $2 -j8 --target lbm-cpu >> $O/bld-$3.log 2>&1; }
bld $R /tmp/bn new & mkdir -p /tmp/old && tar xzf $R/.peers/s34/old.tgz -C /tmp/old && bld /tmp/old /tmp/bo old & wait; say "builds"
ls -la /tmp/bn/lbm-cpu /tmp/bo/lbm-cpu >> $O/log.txt 2>&1 || exit 1
export OMP_PROC_BIND=close OMP_PLACES=cores
two() { timeout 150 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
  /tmp/b$1/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull,pull_nt --reps 5 --append -o $O/$1.csv 2>>$O/err-$1.txt; }
for r in 1 2 3 4; do
  case $r in 1|3) ord="o n";; *) ord="n o";; esac
  for b in $ord; do left && { two $b; say "round $r $b rc=$?"; }; done
done
cp $R/.peers/s34/rows/call4.sh $O/
gzip -f $O/bld-*.log
say total
cd $OUT && tar czf r.tgz r && rm -rf r
