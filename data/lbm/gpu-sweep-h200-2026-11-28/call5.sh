#!/bin/bash
# session 28, call 5 (an H200): the domain sweep of issue 22 with the current kernels, pull and aa,
# sp and dp, 128..512 step 16, with the same call's copy and update before and after; then the
# roofline report (aa's in-place ceiling from the GPU's update rows).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $O/machine.txt 2>&1
(cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/bnew -j16 --target lbm-gpu stream-gpu roofline >> $O/bld.log 2>&1; echo "build $?" > $O/bld.rc)
say "$(cat $O/bld.rc)"
/tmp/bnew/stream-gpu --kernel copy,update --precision sp,dp --reps 20 -o $O/stream.csv 2>>$O/err.txt; say stream
timeout $((LIMIT - (SECONDS - T0))) /tmp/bnew/lbm-gpu --size 128:512:16 --kernel pull,aa --precision sp,dp --reps 3 -o $O/sweep.csv 2>>$O/err.txt; say "sweep rc=$?"
/tmp/bnew/stream-gpu --kernel copy,update --precision sp,dp --reps 20 --append -o $O/stream.csv 2>>$O/err.txt; say stream
/tmp/bnew/roofline $O/stream.csv $O/sweep.csv -o $O/roofline.csv 2>>$O/err.txt
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{printf "%s %s %s %.1f %s %s\n",$c["kernel"],$c["precision"],$c["nx"],$c["pct_of_ceiling"],$c["pct_of_in_place"],$c["flags"]}' $O/roofline.csv > $O/pct.txt
awk '$4 < 90' $O/pct.txt | head -40; echo "rows $(wc -l < $O/pct.txt), below 90%: $(awk '$4 < 90' $O/pct.txt | wc -l)"
cp $R/.peers/s28/call5.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
