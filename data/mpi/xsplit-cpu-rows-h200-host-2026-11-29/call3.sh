#!/bin/bash
# session 34 call 3 (an H200 machine's 16-core host): what pull_nt's x-split rows cost for their
# ghost line alone. One rank, 16 threads, 128-cell rows at pitch 128 (--pad 0) against the pitch an
# x-split rank's rows have (144 sp, 136 dp: --pad 16 / 8), and 256-cell rows (256^3); beside them
# the 2-rank x / z run itself (2 x 8 cores, 256^3). Three rounds, the order rotated each round.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nproc; lscpu | grep -E "Model name|L3"; git -C $R log -1 --format=%H; git -C $R status --short; } > $O/machine.txt 2>&1
B=/tmp/bc
(cmake -S $R -B $B -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld.log 2>&1 &&
  cmake --build $B -j16 --target lbm-cpu stream-cpu >> $O/bld.log 2>&1); say "build rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores
one() { OMP_NUM_THREADS=16 timeout 100 $B/lbm-cpu --kernel pull_nt --reps 5 --append -o $O/one.csv "$@" 2>>$O/err.txt; }
run() {
  case $1 in
    A) timeout 150 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
         $B/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull_nt --reps 5 --append -o $O/two.csv 2>>$O/err.txt ;;
    B) one --dims 128x256x512 --pad 0 --precision sp,dp ;;
    C) one --dims 128x256x512 --pad 16 --precision sp && one --dims 128x256x512 --pad 8 --precision dp ;;
    D) one --dims 256x256x256 --precision sp,dp ;;
  esac
}
for r in 1 2 3; do
  case $r in 1) ord="A B C D";; 2) ord="C D A B";; 3) ord="B A D C";; esac
  for c in $ord; do left && { run $c; say "round $r $c rc=$?"; }; done
done
left && OMP_NUM_THREADS=16 $B/stream-cpu --kernel copy_nt --precision sp,dp --reps 10 -o $O/stream.csv 2>>$O/err.txt; say "stream rc=$?"
cp $R/.peers/s34/rows/call3.sh $O/
rm -f $O/bld.log
say total
cd $OUT && tar czf r.tgz r && rm -rf r
