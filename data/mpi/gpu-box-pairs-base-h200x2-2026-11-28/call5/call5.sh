#!/bin/bash
# session 30, call 5 (two H200s): the tree at HEAD (the paired box kernel's base pointers, the
# CPU-side changes since): every GPU ctest, and compute-sanitizer memcheck and initcheck over
# two ranks on the paired box variants (z split whole rows, x split sp pieces and ghost rows).
set -u
R=$PWD; O=$OUT/r5; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
cmake -S $R -B /tmp/b5 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b5 -j32 >> $O/bld.log 2>&1; say "build rc=$?"
cd /tmp/b5
timeout 300 ctest -L gpu -j1 > $O/ctest-gpu.txt 2>&1; say "ctest -L gpu rc=$? $(grep 'tests passed' $O/ctest-gpu.txt)"
SAN="--dims 64x12x10,96x8x6 --precision sp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --procs 1x1x2,2x1x1,1x2x1 --steps 4 --warmup 1 --reps 1"
for t in memcheck initcheck; do
  timeout 150 mpiexec -np 2 compute-sanitizer --tool $t --error-exitcode 9 ./lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1
  say "$t rc=$? $(grep -E 'ERROR SUMMARY' $O/san-$t.log | sort | uniq -c | tr '\n' ' ')"
done
cp $R/.peers/s30/call5.sh $O/
cd $OUT && tar czf r5.tgz r5 && rm -rf r5
