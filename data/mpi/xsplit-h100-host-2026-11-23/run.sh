#!/bin/bash
# x split against z split, main (old) against the x-shell branch (new), one H100, 2 ranks on it
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
D=$(pwd)
{ nvidia-smi -L; nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv; mpiexec --version | head -1; nproc; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
for t in old new; do
  ( LBMR_VERSION=0.1.0-$t cmake -S $D/$t -B /tmp/b$t -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF >/tmp/c$t.log 2>&1 &&
    cmake --build /tmp/b$t -j8 --target lbm-gpu lbm-cpu csv_check >/tmp/m$t.log 2>&1; echo "$t build rc $? $(( $(date +%s) - t0 )) s" ) &
done
wait
tail -3 /tmp/mnew.log
G="--size 512 --precision sp,dp --kernel pull --procs 1x1x1,2x1x1,1x1x2 --reps 5"
for t in old new; do
  timeout 50 mpiexec -np 2 /tmp/b$t/lbm-gpu $G -o $OUT/gpu-$t.csv 2>>$OUT/gpu-stderr.txt; echo "gpu $t rc $? $(( $(date +%s) - t0 )) s"
done
# same state under x splits on the GPU: 4 ranks on the one GPU
timeout 30 mpiexec -np 4 /tmp/bnew/lbm-gpu --dims 200x14x10 --precision sp,dp --collision bgk,trt --geometry cavity,periodic \
  --procs 1x1x1,2x1x1,4x1x1,2x2x1,2x1x2,1x1x2 --overlap on,off --steps 6 --warmup 3 --reps 2 -o $OUT/gpu-same-state.csv 2>>$OUT/gpu-stderr.txt
echo "same-state rc $? $(( $(date +%s) - t0 )) s"
/tmp/bnew/csv_check $OUT/gpu-same-state.csv --bench lbm --backend gpu --same-state 1; echo "csv_check rc $?"
export OMP_PROC_BIND=close OMP_PLACES=cores
for t in old new; do
  OMP_NUM_THREADS=8 timeout 25 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES \
    /tmp/b$t/lbm-cpu --size 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 -o $OUT/cpu2-$t.csv 2>>$OUT/cpu-stderr.txt
  echo "cpu2 $t rc $? $(( $(date +%s) - t0 )) s"
done
for t in old new; do
  OMP_NUM_THREADS=4 timeout 25 mpiexec -np 4 --map-by slot:PE=4 --bind-to core -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES \
    /tmp/b$t/lbm-cpu --size 256 --precision sp --kernel pull --procs 4x1x1,1x1x4 --reps 3 -o $OUT/cpu4-$t.csv 2>>$OUT/cpu-stderr.txt
  echo "cpu4 $t rc $? $(( $(date +%s) - t0 )) s"
done
for f in $OUT/gpu-old.csv $OUT/gpu-new.csv $OUT/cpu2-*.csv $OUT/cpu4-*.csv; do
  awk -F, -v f=$(basename $f) 'NR==1{for(i=1;i<=NF;i++)h[$i]=i; next} {print f, $h["procs"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["efficiency"], $h["verified"]}' $f
done
