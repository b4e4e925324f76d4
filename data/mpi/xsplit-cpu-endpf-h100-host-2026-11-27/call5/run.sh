#!/bin/bash
# session 19, call 5, the 16-core host of the H100 machine: the x split's pull and pull_nt with the
# end cells' prefetch (new) against 28fe513 (old), two ranks x 8 threads, rounds alternated; then
# lbm-gpu's driver column on the H100 (the fix of 141b757)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s" >> $O/log.txt; }
main() {
{ lscpu | grep -E "Model name|^CPU\(s\)"; uptime; cat /proc/driver/nvidia/version; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j6 --target lbm-cpu >> $O/bld.log 2>&1; say "build new rc=$?") &
(cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-cpu >> $O/bld-old.log 2>&1; say "build old rc=$?") &
(cmake -S $R -B /tmp/gpu -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-gpu.log 2>&1 && cmake --build /tmp/gpu -j4 --target lbm-gpu >> $O/bld-gpu.log 2>&1; say "build gpu rc=$?") &
wait
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
CUDA_VISIBLE_DEVICES=0 /tmp/gpu/lbm-gpu --size 64 --precision sp --kernel pull --reps 2 -o $O/gpu-driver.csv 2>>$O/err.txt; say "gpu rc=$?"
orders=("old new" "new old" "old new" "new old" "old new" "new old")
for r in 1 2 3 4 5 6; do
  [ $((SECONDS-T0)) -gt 470 ] && break
  for b in ${orders[$((r-1))]}; do
    timeout 60 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_PROC_BIND -x OMP_PLACES -x OMP_NUM_THREADS=8 -x LBMR_ENERGY \
      /tmp/$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull_nt,pull --reps 5 -o $O/two-$b-$r.csv 2>>$O/err.txt; say "two $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 560 bash -c main; say "main rc=$?"
python3 $R/.peers/s19-cpusum.py $O > $O/summary.txt 2>&1
python3 -c "import csv; [print('gpu row: device', r['device'], 'driver', r['driver'], 'verified', r['verified']) for r in csv.DictReader(open('$O/gpu-driver.csv'))]" >> $O/summary.txt 2>&1
cat $O/log.txt $O/summary.txt; grep NVRM $O/machine.txt
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s19-cpu2.sh $R/.peers/s19-cpusum.py $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
