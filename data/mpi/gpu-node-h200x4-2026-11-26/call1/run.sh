#!/bin/bash
# session 7, call 1: four GPUs of one host. Build; the distributed GPU ctests; the same state on
# every 4-rank grid (sp, dp, fp16s, fp16c); two alternated rounds of weak 256^3 a GPU and strong
# 512^3 on every grid, strong 1024^3 on the 4-rank grids (sp; dp where a card holds it) beside one
# GPU running one rank's share; then ncu on the halo and box kernels of 2x1x1 against 1x1x2.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-560}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; ompi_info --parsable --all 2>/dev/null | grep -i cuda_support; nproc; git -C $R log -1 --oneline 2>/dev/null; } > $O/machine.txt 2>&1
MEM=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
NG=$(nvidia-smi -L | grep -c '^GPU ')
LBMR_VERSION=${VER:-dev} cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build /tmp/new -j64 >> $O/bld.log 2>&1; say "build rc=$? gpus=$NG mem=$MEM MiB"
B=/tmp/new
export LBMR_ENERGY=off
G4=1x1x1,2x1x1,1x2x1,1x1x2,2x2x1,1x2x2,2x1x2,4x1x1,1x1x4
timeout 150 mpiexec -np 4 $B/lbm-gpu --dims 96x80x64 --procs $G4 --precision sp,dp,fp16s,fp16c --collision trt \
  --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2 -o $O/same-state.csv 2>>$O/err.txt
say "same-state rc=$?"
$B/tests/csv_check $O/same-state.csv --bench lbm --backend gpu --same-state 1 > $O/same-state-check.txt 2>&1; say "same-state check rc=$?"
$B/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/stream.csv 2>>$O/err.txt; say "stream rc=$?"
$B/lbm-gpu --dims 1024x1024x256 --precision sp,dp --kernel pull --reps 5 -o $O/share1024.csv 2>>$O/err.txt; say "one GPU, 1024x1024x256 rc=$?"
W1=1x1x1,1x1x2,2x1x1,1x2x2,2x2x1,2x1x2,1x1x4,4x1x1; W2=1x1x1,4x1x1,1x1x4,2x1x2,2x2x1,1x2x2,2x1x1,1x1x2
S1=1x2x2,2x2x1,2x1x2,1x1x4,4x1x1; S2=4x1x1,1x1x4,2x1x2,2x2x1,1x2x2
DP1024=; [ "$MEM" -gt 120000 ] && DP1024=,dp
for r in 1 2; do
  w=$W1; s=$S1; [ $r = 2 ] && { w=$W2; s=$S2; }
  left && { timeout 120 mpiexec -np 4 $B/lbm-gpu --local 256 --procs $w --precision sp,dp --kernel pull --reps 5 -o $O/weak-$r.csv 2>>$O/err.txt; say "weak $r rc=$?"; }
  left && { timeout 150 mpiexec -np 4 $B/lbm-gpu --size 1024 --procs $s --precision sp$DP1024 --kernel pull --reps 5 -o $O/strong1024-$r.csv 2>>$O/err.txt; say "strong1024 $r rc=$?"; }
  left && { timeout 120 mpiexec -np 4 $B/lbm-gpu --size 512 --procs $w --precision sp,dp --kernel pull --reps 5 -o $O/strong512-$r.csv 2>>$O/err.txt; say "strong512 $r rc=$?"; }
done
if left; then
  for g in 2x1x1 1x1x2; do
    timeout 90 mpiexec -np 2 ncu --target-processes all -k regex:"halo|pull" -c 12 --csv \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size \
      $B/lbm-gpu --size 512 --procs $g --precision sp --kernel pull --steps 2 --warmup 2 --reps 1 -o $O/ncu-$g.csv > $O/ncu-$g.txt 2>&1
    say "ncu $g rc=$?"
  done
fi
left && (cd $B && timeout 150 ctest -R "default_align|mpi_same_state|state_hash_grid_gpu|energy_gpu_mpi" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
tail -5 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"] "x" $h["ny"] "x" $h["nz"], $h["procs"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["efficiency"], $h["verified"]}' $O/weak-1.csv $O/strong1024-1.csv $O/strong512-1.csv $O/share1024.csv 2>/dev/null | sed "s|$O/||"
cp $R/.peers/s7-4gpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
