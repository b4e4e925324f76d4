#!/bin/bash
# session 6, call 3: x splits against z splits on the CPU host of the 2-GPU machine, main's code:
# 2 ranks (2x1x1 / 1x1x2) and 4 ranks (4x1x1 / 1x1x4), 256^3, sp and dp, three alternated rounds.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
{ lscpu; numactl -H 2>/dev/null; mpiexec --version | head -1; } > $O/machine.txt 2>&1
N=$(nproc)
cmake -S $R -B /tmp/cpu -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/cpu -j$N --target lbm-cpu >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
run() { # ranks grids out
  local p=$1 t=$((N / $1)); shift
  OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores timeout 100 mpiexec -np $p --map-by slot:PE=$t --bind-to core \
    -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY /tmp/cpu/lbm-cpu --size 256 --precision sp,dp --kernel pull,pull_nt --reps 5 --procs $1 -o $O/$2.csv 2>>$O/err.txt
  echo "$2 rc=$? $((SECONDS-T0)) s"
}
for r in 1 2 3; do
  [ $((SECONDS-T0)) -gt ${LIMIT:-270} ] && break
  if [ $r = 2 ]; then run 2 1x1x2,2x1x1 cpu2-$r; run 4 1x1x4,4x1x1 cpu4-$r
  else run 2 2x1x1,1x1x2 cpu2-$r; run 4 4x1x1,1x1x4 cpu4-$r; fi
done
grep -v "energy not measured" $O/err.txt | tail -5
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["threads"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/*.csv | sed "s|$O/||"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo "total $((SECONDS-T0)) s"
