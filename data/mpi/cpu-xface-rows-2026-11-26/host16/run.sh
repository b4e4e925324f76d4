#!/bin/bash
# session 10, call 4 (one GPU machine, its 16-core host): the CPU's rows reading and writing the
# x faces (working tree, "new") against 3f7bf9f ("old"), 2 ranks x 8 threads, 256^3, x / z splits,
# three alternated rounds; single-rank boxes of both rank shapes (the x split's update alone);
# the GPU's distributed ctests on the one GPU (ranks share it) for the side-based calls.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM -DLBMR_CUDA=OFF > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
M="mpiexec -np 2 --map-by slot:PE=8 --bind-to core"
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=8
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    g=2x1x1,1x1x2; [ $r = 2 ] && g=1x1x2,2x1x1
    left && { timeout 60 $M /tmp/$b/lbm-cpu --size 256 --procs $g --precision sp,dp --kernel pull,pull_nt --reps 5 -o $O/cpu-$b-$r.csv 2>>$O/err.txt; say "cpu $b $r rc=$?"; }
  done
done
export OMP_NUM_THREADS=16
for r in 1 2; do
  left && { timeout 60 /tmp/new/lbm-cpu --dims 128x256x256,256x256x128 --align 64 --precision sp,dp --kernel pull,pull_nt --reps 5 -o $O/shape-$r.csv 2>>$O/err.txt; say "shape $r rc=$?"; }
  left && { timeout 40 /tmp/new/lbm-cpu --dims 128x256x256 --pad 16 --align 64 --precision sp,dp --kernel pull,pull_nt --reps 5 -o $O/shape-pad-$r.csv 2>>$O/err.txt; say "shape pad $r rc=$?"; }
done
(cd /tmp/new && left && timeout 150 ctest -R "mpi_same_state|mpi_halo|default_align" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["nx"]"x"$h["ny"]"x"$h["nz"], $h["pad"], $h["kernel"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["verified"]}' $O/cpu-*.csv $O/shape-*.csv | sed "s|$O/||"
cp $R/.peers/s10-cpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
