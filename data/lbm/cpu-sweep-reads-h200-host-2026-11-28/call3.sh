#!/bin/bash
# session 33, call 3 (an H200 machine's 16-core host): issue 19's DRAM-bound sweep sizes read three
# times each: three rounds, each stream-cpu (copy, copy_nt, update) then lbm-cpu over 320..512
# step 32 (sp; dp to 384), pull, pull_nt and aa, 16 threads; roofline per round against that
# round's own stream run; medians per size in summary.txt. Then, while time is left, the x split
# with the tree's defaults (pull --align 0 on 2x1x1 since 273af4d), 2 ranks x 8 cores.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-470}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread|L3"; gcc --version | head -1; git -C $R log -1 --format=%H 2>/dev/null; } > $O/machine.txt 2>&1
B=/tmp/bc
(cmake -S $R -B $B -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld.log 2>&1 &&
  cmake --build $B -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1); say "build rc=$?"
for r in 1 2 3; do
  left && OMP_NUM_THREADS=16 $B/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt
  left && OMP_NUM_THREADS=16 $B/stream-cpu --kernel update --precision sp,dp --reps 10 --append -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  left && OMP_NUM_THREADS=16 timeout 150 $B/lbm-cpu --size 320:512:32 --precision sp --kernel pull,pull_nt,aa --reps 3 --warmup 4 -o $O/sweep-$r.csv 2>>$O/err.txt; say "sweep sp $r rc=$?"
  left && OMP_NUM_THREADS=16 timeout 60 $B/lbm-cpu --size 320,352,384 --precision dp --kernel pull,pull_nt,aa --reps 3 --warmup 4 --append -o $O/sweep-$r.csv 2>>$O/err.txt; say "sweep dp $r rc=$?"
  [ -s $O/sweep-$r.csv ] && $B/roofline $O/stream-$r.csv $O/sweep-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt
done
for r in 1 2; do
  left && timeout 100 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
      $B/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull,pull_nt --reps 5 --append -o $O/two.csv 2>>$O/err.txt
  say "x split $r rc=$?"
done
cp $R/.peers/s33/call3.sh $R/.peers/s33/cpu_sweep_summary.py $R/.peers/s33/xsplit_summary.py $O/
python3 $R/.peers/s33/cpu_sweep_summary.py $O > $O/summary.txt 2>&1
[ -s $O/two.csv ] && python3 $R/.peers/s33/xsplit_summary.py $O/two.csv >> $O/summary.txt 2>&1
cat $O/summary.txt; rm -f $O/bld.log
say total
cd $OUT && tar czf r.tgz r && rm -rf r
