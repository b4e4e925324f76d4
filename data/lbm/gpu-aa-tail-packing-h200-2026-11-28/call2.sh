#!/bin/bash
# session 32, call 2 (an H200): aa's neighbour half with its rows' tails packed (working tree,
# "new") against 9fd76b4 ("old", graphs, tails idle): registers, states, sanitizers, timing
# alternated at the sweep's weak sizes, the sweep with new, then every GPU ctest of new.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-550}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
mkdir -p /tmp/old && tar xzf $R/.peers/s32/old.tgz -C /tmp/old
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/bn $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/bn -j10 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S /tmp/old -B /tmp/bo $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/bo -j6 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
for b in bo bn; do cuobjdump --dump-resource-usage /tmp/$b/lbm-gpu 2>&1 | grep -A1 "aa_kernel" > $O/regs-$b.txt; done
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5,80x9x7,48x6x4 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 1 --reps 1"
for b in bo bn; do for st in 9 17; do timeout 120 /tmp/$b/lbm-gpu $ST --steps $st -o $O/state-$b-$st.csv 2>>$O/err-state.txt; say "state $b $st rc=$?"; done; done
SAN="--dims 144x20x9,33x7x5,300x6x5,40x2x3,80x9x7,48x6x4 --precision sp,dp --geometry cavity,periodic --kernel aa --steps 9 --warmup 1 --reps 1"
for t in racecheck memcheck; do left && { timeout 90 compute-sanitizer --tool $t --error-exitcode 9 /tmp/bn/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
/tmp/bn/stream-gpu --kernel copy --precision sp,dp --reps 20 -o $O/stream.csv 2>>$O/err.txt; say stream
S="128,144,160,176,208,256,272,336,512"
for r in 1 2 3; do
  case $r in 2) ord="bn bo";; *) ord="bo bn";; esac
  for b in $ord; do left && timeout 90 /tmp/$b/lbm-gpu --size $S --kernel aa --precision sp,dp --reps 3 --append -o $O/t-$b.csv 2>>$O/err.txt; say "round $r $b rc=$?"; done
done
left && { timeout 60 /tmp/bn/lbm-gpu --size 128:512:16 --kernel aa --precision sp,dp --reps 3 -o $O/sweep.csv 2>>$O/err.txt; say "sweep rc=$?"; }
/tmp/bn/stream-gpu --kernel copy --precision sp,dp --reps 20 --append -o $O/stream.csv 2>>$O/err.txt; say stream
/tmp/bn/roofline $O/stream.csv $O/sweep.csv -o $O/roofline.csv 2>>$O/err.txt
left && (cd /tmp/bn && timeout $((LIMIT + 40 - (SECONDS - T0))) ctest -L gpu --timeout 150 > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log | head)
cp $R/.peers/s32/call2.sh $R/.peers/s32/summary2.py $O/ 2>/dev/null
python3 $R/.peers/s32/summary2.py $O > $O/summary.txt 2>&1; cat $O/summary.txt; wc -l $O/regs-*.txt
say total
cd $OUT && tar czf r.tgz r && rm -rf r
