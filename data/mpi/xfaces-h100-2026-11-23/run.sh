#!/bin/bash
# session 5, H100: x faces updated into halo buffers. Build, GPU tests, sanitizer, registers, then
# x/z timing rounds alternating LBMR_X_FACES=update|shells (both ranks on the one GPU).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
STAGE=${1:-all}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; mpiexec --version | head -1; nproc; git -C $R log --oneline -1 2>&1; } > $O/machine.txt 2>&1
if [ ! -x /tmp/new/lbm-gpu ]; then
  LBMR_VERSION=${VER:-dev} cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
  cmake --build /tmp/new -j16 >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
fi
B=/tmp/new
if [ "$STAGE" = all ] || [ "$STAGE" = tests ]; then
  cuobjdump --dump-resource-usage $B/lbm-gpu 2>/dev/null | grep -A1 -E "pull_kernelIfLi0ELi0EL15gpu_lbm_variant[0-4]E|pull_kernelIdLi0ELi0EL15gpu_lbm_variant[0-4]E" | grep -oE "variant[0-9]E|REG:[0-9]+" | paste - - > $O/regs.txt; cat $O/regs.txt
  (cd $B && env -u LBMR_ENERGY timeout 300 ctest -L gpu --output-on-failure > $O/ctest-gpu.log 2>&1; echo "ctest gpu rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|Not Run|\*\*\*|rows verified" $O/ctest-gpu.log)
  for tool in memcheck initcheck; do
    timeout 60 mpiexec -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $B/lbm-gpu --dims 70x12x10 --procs 2x1x1,1x2x1 --precision sp,fp16s --kernel pull --overlap on,off --steps 4 --warmup 1 --reps 1 -o $O/san-$tool.csv > $O/san-$tool.log 2>&1
    echo "sanitizer $tool rc=$? $((SECONDS-T0)) s"; grep -E "ERROR SUMMARY" $O/san-$tool.log | sort | uniq -c
  done
fi
if [ "$STAGE" = all ] || [ "$STAGE" = time ]; then
  G="--size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 5"
  for r in 1 2 3; do
    for m in update shells; do
      [ $((SECONDS-T0)) -gt ${LIMIT:-500} ] && break 2
      LBMR_X_FACES=$m timeout 60 mpiexec -np 2 $B/lbm-gpu $G -o $O/gpu2-$m-$r.csv 2>>$O/err.txt; echo "2 ranks $m round $r rc=$? $((SECONDS-T0)) s"
    done
  done
  for m in update shells; do
    [ $((SECONDS-T0)) -gt ${LIMIT:-500} ] && break
    LBMR_X_FACES=$m timeout 60 mpiexec -np 4 $B/lbm-gpu --size 512 --precision sp --kernel pull --procs 4x1x1,1x1x4,2x1x2 --reps 5 -o $O/gpu4-$m.csv 2>>$O/err.txt; echo "4 ranks $m rc=$? $((SECONDS-T0)) s"
  done
  awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/gpu*.csv | sed "s|$O/||"
fi
if [ "$STAGE" = extra ]; then
  for tool in memcheck initcheck; do
    timeout 90 mpiexec -np 2 compute-sanitizer --tool $tool --error-exitcode 9 $B/lbm-gpu --dims 70x12x10 --procs 2x1x1,1x2x1 --precision sp,fp16s --kernel pull --overlap on,off --steps 4 --warmup 1 --reps 1 -o $O/san-$tool.csv > $O/san-$tool.log 2>&1
    echo "sanitizer $tool rc=$? $((SECONDS-T0)) s"; grep -E "ERROR SUMMARY" $O/san-$tool.log | sort | uniq -c; wc -l < $O/san-$tool.csv
  done
  for r in 1 2; do
    $B/lbm-gpu --dims 256x512x512,512x512x256,512x512x512 --precision sp,dp --kernel pull --reps 5 -o $O/shape-$r.csv 2>>$O/err.txt; echo "shapes $r rc=$? $((SECONDS-T0)) s"
  done
  for m in update shells; do
    LBMR_X_FACES=$m timeout 60 mpiexec -np 2 $B/lbm-gpu --size 512 --precision sp --kernel pull --procs 2x1x1,1x1x2 --overlap on,off --reps 5 -o $O/ovl-$m.csv 2>>$O/err.txt; echo "overlap $m rc=$? $((SECONDS-T0)) s"
  done
  awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"] "x" $h["ny"] "x" $h["nz"], $h["procs"], $h["precision"], $h["overlap"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/shape-*.csv $O/ovl-*.csv | sed "s|$O/||"
fi
if [ "$STAGE" = align ]; then
  for r in 1 2; do
    for m in update shells; do
      LBMR_X_FACES=$m timeout 80 mpiexec -np 2 $B/lbm-gpu --size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --align 32,128 --reps 5 -o $O/al-$m-$r.csv 2>>$O/err.txt; echo "align $m $r rc=$? $((SECONDS-T0)) s"
    done
  done
  awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["align"], $h["pitch"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/al-*.csv | sed "s|$O/||"
fi
if [ "$STAGE" = final ]; then
  (cd $B && env -u LBMR_ENERGY timeout 200 ctest -R "mpi_same_state|lbm_gpu_run|default_align|lbm_model" --output-on-failure > $O/ctest-final.log 2>&1; echo "ctest rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|\*\*\*|rows verified" $O/ctest-final.log)
  $B/lbm-gpu --size 512 --precision sp,dp --kernel pull --reps 5 -o $O/fin-single.csv 2>>$O/err.txt; echo "single rc=$?"
  for r in 1 2; do
    for m in shells update; do
      LBMR_X_FACES=$m timeout 80 mpiexec -np 2 $B/lbm-gpu --size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 5 -o $O/fin2-$m-$r.csv 2>>$O/err.txt; echo "final2 $m $r rc=$? $((SECONDS-T0)) s"
    done
  done
  for m in shells update; do
    LBMR_X_FACES=$m timeout 80 mpiexec -np 4 $B/lbm-gpu --size 512 --precision sp --kernel pull --procs 4x1x1,1x1x4,2x1x2 --reps 5 -o $O/fin4-$m.csv 2>>$O/err.txt; echo "final4 $m rc=$? $((SECONDS-T0)) s"
  done
  awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["align"], $h["pitch"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/fin*.csv | sed "s|$O/||"
fi
tar czf $OUT/r-$STAGE.tgz -C $OUT r && rm -rf $O
echo "total $((SECONDS-T0)) s"
