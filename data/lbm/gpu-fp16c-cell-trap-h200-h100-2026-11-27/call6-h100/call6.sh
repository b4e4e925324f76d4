#!/bin/bash
# session 24, call 6 (one GPU): the final tree's GPU checks with MPI built: test_storage16_gpu,
# test_lbm_gpu (the NaN check at 96 and 97 cells, every collision), ctest -L gpu
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
nvidia-smi -L > $O/machine.txt 2>&1
cmake -S $R -B /tmp/bf -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/bf -j16 >> $O/bld.log 2>&1; say "build rc=$?"
grep -iE " error|warning:" $O/bld.log | head -5
/tmp/bf/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"
(cd /tmp/bf && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 ctest -L gpu --timeout 150 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
rm -f $O/bld.log; cp $R/.peers/s24/call6.sh $O/; say total; tar czf $OUT/r.tgz -C $OUT r; rm -rf $O
