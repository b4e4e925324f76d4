#!/bin/bash
# session 10, call 5 (four-GPU machine, its 64-core host): the distributed ctests of the working
# tree on its GPUs and cores (clean OpenMP environment), then the CPU's rows reading and writing
# the x faces (working tree, "new") against 3f7bf9f ("old"): 2 ranks x 16 threads, 256^3, x / z
# splits, pull and pull_nt, sp and dp, three alternated rounds (as gpu-node-xface-h200x4's cpu/)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j32 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM -DLBMR_CUDA=OFF > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
(cd /tmp/new && timeout 200 ctest -R "mpi|default_align" --timeout 120 --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped|Total Test" $O/ctest.log)
M="mpiexec -np 2 --map-by slot:PE=16 --bind-to core"
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    g=2x1x1,1x1x2; [ $r = 2 ] && g=1x1x2,2x1x1
    left && { timeout 60 $M /tmp/$b/lbm-cpu --size 256 --procs $g --precision sp,dp --kernel pull,pull_nt --reps 5 -o $O/cpu-$b-$r.csv 2>>$O/err.txt; say "cpu $b $r rc=$?"; }
  done
done
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["kernel"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/cpu-*.csv | sed "s|$O/||"
cp $R/.peers/s10-cpu64.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
