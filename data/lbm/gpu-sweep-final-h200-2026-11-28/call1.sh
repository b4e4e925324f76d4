#!/bin/bash
# session 33, call 1 (an H200): the tree at HEAD (6fc4718: graphs without their study switch) built
# whole; every GPU ctest; compute-sanitizer memcheck on the graph path; then issue 22's sweep
# (128..512 step 16, pull and aa, sp and dp) in three rounds, each beside its own stream-gpu copy,
# so that each size has three readings against three ceilings (medians in summary.txt).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; git -C $R log -1 --format=%H 2>/dev/null; } > $O/machine.txt 2>&1
B=/tmp/bf
(cmake -S $R -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=ON > $O/bld.log 2>&1 || { rm -rf $B; cmake -S $R -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF >> $O/bld.log 2>&1; }) &&
  cmake --build $B -j16 >> $O/bld.log 2>&1; say "build rc=$?"; grep -E "LBMR_MPI|MPI_C_FOUND" $B/CMakeCache.txt | head -3 >> $O/machine.txt
(cd $B && timeout 200 ctest -L gpu --timeout 150 > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*|Skipped" $O/ctest-gpu.log | head -30)
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lbm-gpu --dims 96x20x18,33x7x5,40x2x3 --kernel pull,aa --precision sp,fp16s --geometry cavity,periodic --steps 17 --warmup 1 --reps 1 -o $O/san.csv > $O/san.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san.log | sort | uniq -c
for r in 1 2 3; do
  left && $B/stream-gpu --kernel copy --precision sp,dp --reps 20 -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  left && timeout 110 $B/lbm-gpu --size 128:512:16 --kernel pull,aa --precision sp,dp --reps 3 -o $O/sweep-$r.csv 2>>$O/err.txt; say "sweep $r rc=$?"
  [ -s $O/sweep-$r.csv ] && $B/roofline $O/stream-$r.csv $O/sweep-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt
done
cp $R/.peers/s33/call1.sh $R/.peers/s33/sweep_summary.py $O/ 2>/dev/null
python3 $R/.peers/s33/sweep_summary.py $O > $O/summary.txt 2>&1; cat $O/summary.txt
say total
