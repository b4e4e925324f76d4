#!/bin/bash
# session 32, call 4 (an H200): the final tree's GPU executables: every GPU ctest, and graphs on
# against off in one short round (the tree's states and timings after the lock and roofline changes)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/machine.txt 2>&1
(cmake -S $R -B /tmp/bf -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/bf -j16 >> $O/bld.log 2>&1; echo "build $?" > $O/bld.rc)
say "$(cat $O/bld.rc)"
(cd /tmp/bf && timeout 300 ctest -L gpu --timeout 150 > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log | head)
for g in off on; do LBMR_STUDY_GRAPHS=$g timeout 60 /tmp/bf/lbm-gpu --size 128,256 --kernel pull,aa --precision sp --reps 3 -o $O/t-$g.csv 2>>$O/err.txt; say "t $g rc=$?"; done
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{print FILENAME, $c["kernel"], $c["nx"], $c["mflups"], $c["verified"]}' $O/t-off.csv $O/t-on.csv
say total
cd $OUT && tar czf r.tgz r && rm -rf r
