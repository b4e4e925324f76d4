#!/bin/bash
# session 6: the x-split defaults on two GPUs of one host (each rank its own GPU).
# Build, the distributed GPU ctests, single-rank baseline, then alternated strong 512^3 rounds
# 2x1x1 / 1x1x2 / 1x2x1, sp and dp, pull; one weak round; LBMR_X_FACES=update once.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; ompi_info --parsable --all 2>/dev/null | grep -i cuda_support; nproc; } > $O/machine.txt 2>&1
LBMR_VERSION=${VER:-dev} cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build /tmp/new -j32 >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
B=/tmp/new
(cd $B && timeout 150 ctest -R "mpi_same_state|energy_gpu_mpi|lbm_gpu_run" --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
$B/lbm-gpu --size 512 --precision sp,dp --kernel pull --reps 5 -o $O/single.csv 2>>$O/err.txt; echo "single rc=$? $((SECONDS-T0)) s"
G="--size 512 --precision sp,dp --kernel pull --reps 5"
for r in 1 2 3; do
  [ $((SECONDS-T0)) -gt ${LIMIT:-330} ] && break
  o="2x1x1,1x1x2,1x2x1"; [ $r = 2 ] && o="1x1x2,1x2x1,2x1x1"
  timeout 90 mpiexec -np 2 $B/lbm-gpu $G --procs $o -o $O/strong-$r.csv 2>>$O/err.txt; echo "strong round $r rc=$? $((SECONDS-T0)) s"
done
[ $((SECONDS-T0)) -lt ${LIMIT:-330} ] && { LBMR_X_FACES=update timeout 90 mpiexec -np 2 $B/lbm-gpu $G --procs 2x1x1,1x1x2 -o $O/strong-update.csv 2>>$O/err.txt; echo "update rc=$? $((SECONDS-T0)) s"; }
[ $((SECONDS-T0)) -lt ${LIMIT:-330} ] && { timeout 90 mpiexec -np 2 $B/lbm-gpu --local 256 --precision sp,dp --kernel pull --reps 5 --procs 2x1x1,1x1x2 -o $O/weak.csv 2>>$O/err.txt; echo "weak rc=$? $((SECONDS-T0)) s"; }
[ $((SECONDS-T0)) -lt ${LIMIT:-330} ] && { $B/lbm-gpu --size 256 --precision sp,dp --kernel pull --reps 5 -o $O/single256.csv 2>>$O/err.txt; echo "single256 rc=$? $((SECONDS-T0)) s"; }
tail -5 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"] "x" $h["ny"] "x" $h["nz"], $h["procs"], $h["precision"], $h["pitch"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/*.csv | sed "s|$O/||"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo "total $((SECONDS-T0)) s"
