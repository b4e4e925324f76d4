#!/bin/bash
# session 6, call 2: x shells in multi-row blocks (new = working tree) against old (.peers/old =
# HEAD e04c11f), two GPUs of one host. Both built in parallel; the new build's distributed ctests
# and a sanitizer pass; then alternated strong 512^3 rounds, 2x1x1 / 1x1x2, sp and dp, pull.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi -L; nvidia-smi topo -m; } > $O/machine.txt 2>&1
CF="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
( LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CF > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old build rc=$? $((SECONDS-T0)) s" ) &
( LBMR_VERSION=new cmake -S $R -B /tmp/new $CF > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld-new.log 2>&1; echo "new build rc=$? $((SECONDS-T0)) s" ) &
wait
(cd /tmp/new && timeout 150 ctest -R "mpi_same_state|energy_gpu_mpi|lbm_gpu_run|lbm_gpu_vs" --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
timeout 60 mpiexec -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 70x12x10 --procs 2x1x1,1x2x1 --precision sp,fp16s --kernel pull --steps 4 --warmup 1 --reps 1 -o $O/san.csv > $O/san.log 2>&1; echo "memcheck rc=$? $((SECONDS-T0)) s"; grep "ERROR SUMMARY" $O/san.log | sort | uniq -c
G="--size 512 --precision sp,dp --kernel pull --reps 5 --procs 2x1x1,1x1x2"
for r in 1 2 3; do
  for b in old new; do
    [ $r = 2 ] && b=$([ $b = old ] && echo new || echo old)
    [ $((SECONDS-T0)) -gt ${LIMIT:-300} ] && break 2
    timeout 60 mpiexec -np 2 /tmp/$b/lbm-gpu $G -o $O/$b-$r.csv 2>>$O/err.txt; echo "$b round $r rc=$? $((SECONDS-T0)) s"
  done
done
[ $((SECONDS-T0)) -lt ${LIMIT:-300} ] && { LBMR_X_FACES=update timeout 60 mpiexec -np 2 /tmp/new/lbm-gpu $G -o $O/new-update.csv 2>>$O/err.txt; echo "update rc=$?"; }
[ $((SECONDS-T0)) -lt ${LIMIT:-300} ] && { timeout 60 mpiexec -np 2 /tmp/new/lbm-gpu --size 512 --precision sp,dp --kernel pull --reps 5 --procs 2x1x1,1x1x2 --overlap off -o $O/new-ovloff.csv 2>>$O/err.txt; echo "overlap off rc=$?"; }
grep -v "energy not measured" $O/err.txt | tail -5
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["overlap"], $h["mflups_med"], $h["comm_s"], $h["state_hash"], $h["verified"]}' $O/*.csv | sed "s|$O/||"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo "total $((SECONDS-T0)) s"
