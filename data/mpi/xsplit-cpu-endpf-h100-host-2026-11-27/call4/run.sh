#!/bin/bash
# session 19, call 4, CPU on the 16-core host of the H100 machine (GPU idle): pull and pull_nt with
# the end cells' sources prefetched at the row's start (new) against 28fe513 (.peers/old), five
# rounds, builds alternated, each round's own stream-cpu: one rank 256^3 (16 threads) and two
# ranks x 8 threads, x split against z split
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s" >> $O/log.txt; }
main() {
{ lscpu; nproc; free -g; uptime; mpiexec --version | head -1; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; say "build new rc=$?") &
(cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu >> $O/bld-old.log 2>&1; say "build old rc=$?") &
wait
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for b in old new; do timeout 60 mpiexec -np 2 --oversubscribe -x OMP_NUM_THREADS=2 /tmp/$b/lbm-cpu --dims 130x20x18,64x24x22 --procs 1x1x1,2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull,pull_nt --collision bgk,trt --geometry cavity,periodic --steps 9 --warmup 2 --reps 1 -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
orders=("old new" "new old" "old new" "new old" "old new")
for r in 1 2 3 4 5; do
  [ $((SECONDS-T0)) -gt 470 ] && break
  OMP_NUM_THREADS=16 /tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  for b in ${orders[$((r-1))]}; do
    OMP_NUM_THREADS=16 timeout 60 /tmp/$b/lbm-cpu --size 256 --kernel pull_nt,pull --precision sp,dp --reps 5 -o $O/one-$b-$r.csv 2>>$O/err.txt; say "one $b r$r rc=$?"
    timeout 60 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_PROC_BIND -x OMP_PLACES -x OMP_NUM_THREADS=8 -x LBMR_ENERGY \
      /tmp/$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull_nt,pull --reps 5 -o $O/two-$b-$r.csv 2>>$O/err.txt; say "two $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 560 bash -c main; say "main rc=$?"
python3 $R/.peers/s19-cpusum.py $O > $O/summary.txt 2>&1
cat $O/log.txt $O/summary.txt
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s19-cpu.sh $R/.peers/s19-cpusum.py $O/; git -C $R diff HEAD -- cpu > $O/change.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
