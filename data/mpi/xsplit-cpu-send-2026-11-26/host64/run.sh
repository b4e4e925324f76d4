#!/bin/bash
# session 14, call 1, nvidia-h200-x4's 64-core host (GPUs idle): CPU x split against z split,
# 2 ranks x 16 threads, 256^3, pull and pull_nt, sp and dp: the x face's sends written by the
# row kernels (new: the working tree) against b0e792e (old: read back after the row), alternated.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; nvidia-smi -L; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF"
( cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j24 --target lbm-cpu csv_check >> $O/bld.log 2>&1; echo "new rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j24 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
wait; say builds
grep -E "MPI" $O/bld.log | head -3
# the same state on the x-split grids, new (pull_nt's line steps: 148-cell rows, 74 a rank)
mpiexec -np 4 --oversubscribe /tmp/new/lbm-cpu --dims 148x6x5,256x8x6 --procs 1x1x1,2x1x1,4x1x1,2x2x1 --precision sp,dp,fp16s \
  --kernel pull,pull_nt --geometry cavity,periodic --steps 6 --warmup 2 --reps 1 --quiet-wait off -o $O/same.csv 2>>$O/err.txt
/tmp/new/tests/csv_check $O/same.csv --same-state 1; say "same-state rc=$?"
export LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16
orders=("old new" "new old" "old new" "new old" "old new")
for r in 1 2 3 4 5; do
  [ $((SECONDS-T0)) -gt 450 ] && break
  g=2x1x1,1x1x2; [ $((r % 2)) = 0 ] && g=1x1x2,2x1x1
  for b in ${orders[$((r-1))]}; do
    timeout 45 mpiexec -np 2 --map-by slot:PE=16 --bind-to core -x OMP_PROC_BIND -x OMP_PLACES -x OMP_NUM_THREADS -x LBMR_ENERGY \
      /tmp/$b/lbm-cpu --size 256 --procs $g --precision sp,dp --kernel pull,pull_nt --reps 5 -o $O/cpu-$b-$r.csv 2>>$O/err.txt
    say "cpu $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 560 bash -c main; say "main rc=$?"
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["kernel"], $h["precision"], $h["mflups_med"], $h["comm_s"]}' $O/cpu-*.csv | sed "s|$O/||" | sort -k3,3 -k4,4 -k2,2 -k1,1
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s14-cpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
