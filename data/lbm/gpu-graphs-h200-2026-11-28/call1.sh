#!/bin/bash
# session 32, call 1 (an H200): lbm_step's updates in CUDA graphs of 8 (working tree) against the
# launches one by one (LBMR_STUDY_GRAPHS=off, the same binary): states, memcheck, then aa and pull
# at the sweep's weak sizes alternated, 16-bit at three sizes, and the sweep 128..512 with graphs.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-555}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
(cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b -j16 --target lbm-gpu stream-gpu roofline >> $O/bld.log 2>&1; echo "build $?" > $O/bld.rc)
say "$(cat $O/bld.rc)"
B=/tmp/b
on() { :; }
off() { :; }
# states: graphs off and on, odd and edge dims; --steps 9 and 17 (a graph and a single update,
# two graphs and one), every kernel, precision, collision and geometry
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5 --kernel pull,pull_aos,aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 1 --reps 1"
for g in off on; do for st in 9 17; do
  timeout 150 env LBMR_STUDY_GRAPHS=$g $B/lbm-gpu $ST --steps $st -o $O/state-$g-$st.csv 2>>$O/err-state.txt; say "state $g $st rc=$?"
done; done
left && { timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 env LBMR_STUDY_GRAPHS=on $B/lbm-gpu --dims 96x20x18,33x7x5,40x2x3 --kernel pull,aa --precision sp,fp16s --geometry cavity,periodic --steps 17 --warmup 1 --reps 1 -o $O/san.csv > $O/san.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san.log | sort | uniq -c; }
$B/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 20 -o $O/stream.csv 2>>$O/err.txt; say stream
S="128,144,160,176,208,256,272,336,512"
for r in 1 2 3; do
  case $r in 2) ord="on off";; *) ord="off on";; esac
  for g in $ord; do left && timeout 90 env LBMR_STUDY_GRAPHS=$g $B/lbm-gpu --size $S --kernel aa,pull --precision sp,dp --reps 3 --append -o $O/t-$g.csv 2>>$O/err.txt; say "round $r $g rc=$?"; done
done
for r in 1 2; do
  case $r in 2) ord="on off";; *) ord="off on";; esac
  for g in $ord; do left && timeout 60 env LBMR_STUDY_GRAPHS=$g $B/lbm-gpu --size 144,256,512 --kernel aa,pull --precision fp16s,fp16c --reps 3 --append -o $O/t16-$g.csv 2>>$O/err.txt; say "16-bit $r $g rc=$?"; done
done
left && { timeout 90 env LBMR_STUDY_GRAPHS=on $B/lbm-gpu --size 128:512:16 --kernel pull,aa --precision sp,dp --reps 3 -o $O/sweep.csv 2>>$O/err.txt; say "sweep rc=$?"; }
$B/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 20 --append -o $O/stream.csv 2>>$O/err.txt; say stream
$B/roofline $O/stream.csv $O/sweep.csv -o $O/roofline.csv 2>>$O/err.txt
cp $R/.peers/s32/call1.sh $R/.peers/s32/summary.py $O/ 2>/dev/null
python3 $R/.peers/s32/summary.py $O > $O/summary.txt 2>&1; cat $O/summary.txt
say total
cd $OUT && tar czf r.tgz r && rm -rf r
