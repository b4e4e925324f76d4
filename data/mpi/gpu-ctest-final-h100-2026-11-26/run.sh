#!/bin/bash
# session 10, call 6: every GPU ctest of the final tree on one GPU (the distributed ones with
# their ranks sharing it), clean OpenMP environment
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nproc; git -C $R log -1 --oneline; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/b -j16 >> $O/bld.log 2>&1; say "build rc=$?"
(cd /tmp/b && timeout 400 ctest -L gpu --timeout 200 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped|Total Test" $O/ctest-gpu.log)
cp $R/.peers/s10-final.sh $O/run.sh; rm -f $O/bld.log
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
