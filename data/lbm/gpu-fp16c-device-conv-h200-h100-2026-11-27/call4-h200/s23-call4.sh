#!/bin/bash
# session 23, call 4 (one GPU): the final tree's GPU checks: test_storage16_gpu (the device
# conversions on every code and float, the paired store, the pair decode) and ctest -L gpu
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
{ nvidia-smi -L; git -C $R log -1 --format=%H 2>/dev/null; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/bf -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/bf -j16 >> $O/bld.log 2>&1; say "build rc=$?"
grep -iE " error|warning" $O/bld.log | head -5
/tmp/bf/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"; cat $O/storage16.txt
(cd /tmp/bf && timeout 300 ctest -L gpu --timeout 150 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
rm -f $O/bld.log; cp $R/.peers/s23-call4.sh $O/; tar czf $OUT/r.tgz -C $OUT r; rm -rf $O
