#!/bin/bash
# coordinator, session 4: the GPU sweep 32..512 step 16 (pull, aa, sp, dp) on the H100 with the
# merged tree, then the CPU sweep 64..512 step 32 on its 16-core host (builds in .peers/cpu-spr)
set -u
R=$PWD; P=$R/.peers/cpu-spr; O=$OUT/r; mkdir -p $O; T0=$SECONDS
finish() { tar czf $OUT/s4-sweeps.tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
export LBMR_ENERGY=off
LBMR_VERSION=$(cat .peers/version-new) cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/b -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
/tmp/b/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/gpu-stream.csv 2>/dev/null
for n in $(seq 32 16 512); do
  /tmp/b/lbm-gpu --size $n --kernel pull,aa --precision sp,dp --reps 3 $( [ $n = 32 ] || echo --append ) -o $O/gpu-sweep.csv 2>/dev/null || echo "gpu sweep $n rc=$?"
done; echo "gpu sweep done $((SECONDS-T0)) s"
export LD_LIBRARY_PATH=$P OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
$P/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/cpu-stream-a.csv 2>/dev/null; echo "cpu stream a rc=$?"
for n in $(seq 64 32 512); do
  [ $((SECONDS-T0)) -gt ${LIMIT:-540} ] && { echo "cpu sweep cut before $n"; break; }
  $P/lbm-cpu --size $n --kernel pull,pull_nt,aa --precision sp,dp --reps 2 --warmup 2 $( [ $n = 64 ] || echo --append ) -o $O/cpu-sweep.csv 2>>$O/cpu-err.txt || echo "cpu sweep $n rc=$?"
  echo "cpu $n $((SECONDS-T0)) s"
done
$P/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/cpu-stream-b.csv 2>/dev/null; echo "cpu stream b rc=$?"
