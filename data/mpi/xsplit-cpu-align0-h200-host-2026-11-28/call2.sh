#!/bin/bash
# session 33, call 2 (an H200 machine's 16-core host): issue 23's CPU x split. pull and pull_nt,
# 2 ranks x 8 cores, 256^3, --procs 2x1x1 against 1x1x2, rows aligned to 64 bytes (the default: an
# x-split rank's rows carry a 64-byte front unit for the ghost cell) against --align 0 (one ghost
# cell in front, rows of nx + 2 cells, unaligned); four rounds, the align order swapped each round.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread|L3"; mpiexec --version | head -1; git -C $R log -1 --format=%H 2>/dev/null; } > $O/machine.txt 2>&1
B=/tmp/bc
(cmake -S $R -B $B -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld.log 2>&1 &&
  cmake --build $B -j16 --target lbm-cpu stream-cpu >> $O/bld.log 2>&1); say "build rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores
for r in 1 2 3 4; do
  case $r in 2|4) al=0,64;; *) al=64,0;; esac
  left && timeout 120 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
      $B/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --align $al --precision sp,dp --kernel pull,pull_nt --reps 5 --append -o $O/two.csv 2>>$O/err.txt
  say "round $r align $al rc=$?"
done
left && OMP_NUM_THREADS=16 $B/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/stream.csv 2>>$O/err.txt; say "stream rc=$?"
cp $R/.peers/s33/call2.sh $R/.peers/s33/xsplit_summary.py $O/
python3 $R/.peers/s33/xsplit_summary.py $O/two.csv > $O/summary.txt 2>&1; cat $O/summary.txt
rm -f $O/bld.log
say total
cd $OUT && tar czf r.tgz r && rm -rf r
