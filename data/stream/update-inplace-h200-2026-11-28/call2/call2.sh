#!/bin/bash
# session 28, call 2 (the 16-core host of the H200 machine, warm from call 1): five rounds of
# data/scripts/cpu-host-rounds.sh (stream-cpu copy, copy_nt and now update; lbm-cpu every kernel
# and precision at 256^3; no peer, no sweep), then its summary with aa against copy_nt and update.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
if [ ! -x /tmp/bnew/lbm-cpu ]; then
  cmake -S $R -B /tmp/bnew -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/bnew -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "built $? $((SECONDS-T0)) s"
fi
# call 1's sanitizer runs stopped at a typo in their --blocks list (0 is no grid size); run here
for tool in memcheck initcheck; do
  for acc in wide scalar; do
    for bl in "--blocks 7" ""; do
      timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bnew/stream-gpu --kernel update --size 1M,3M --precision sp,dp --reps 2 --warmup 1 --ilp 1,4 $bl --read-offset 0,1 --access $acc --quiet-wait off >> $O/san-$tool.csv 2>> $O/san-$tool.txt
      echo "sanitizer $tool $acc '$bl' rc=$? $(grep -c ',pass,' $O/san-$tool.csv) pass rows; $(grep -E 'ERROR SUMMARY' $O/san-$tool.txt | tail -1)"
    done
  done
done | tee $O/san.txt
mkdir -p $O/rounds
ROUNDS=5 SLICES="" LIMIT=$((480 - (SECONDS-T0))) timeout $((550 - (SECONDS-T0))) bash data/scripts/cpu-host-rounds.sh /tmp/bnew $O/rounds 2>&1 | tail -30
bash data/scripts/cpu-host-rounds-summary.sh $O/rounds > $O/summary.txt 2>&1; cat $O/summary.txt
cp $R/.peers/s28/call2.sh $O/
echo "total $((SECONDS-T0)) s"
cd $OUT && tar czf r.tgz r && rm -rf r
