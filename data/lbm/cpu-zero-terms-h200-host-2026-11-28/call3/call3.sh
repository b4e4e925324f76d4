#!/bin/bash
# session 31, call 3 (one H200): the final tree, whose shared code changed this session (output
# files, option messages, stream's offsets and sizes): every GPU-labelled ctest, then the GPU
# executables' output-file behaviour by hand (an --overwrite interrupted before its first row, a
# --check that must refuse).
set -u
R=$PWD; O=$OUT/r3; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
nvidia-smi -L > $O/machine.txt 2>&1
cmake -S $R -B /tmp/b3 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b3 -j16 >> $O/bld.log 2>&1; say "build rc=$?"
grep -iE " error|warning:" $O/bld.log | head -5
cd /tmp/b3
timeout 330 ctest -L gpu -j1 > $O/ctest-gpu.txt 2>&1; say "ctest -L gpu rc=$? $(grep 'tests passed' $O/ctest-gpu.txt)"
grep -E "Failed|\*\*\*" $O/ctest-gpu.txt | head
# an --overwrite interrupted before its first row leaves the old file as it was
printf 'keep,me\n1,2\n' > $O/keep.csv
./lbm-gpu --size 256 --reps 50 --overwrite -o $O/keep.csv 2>$O/int.err & p=$!; sleep 1.5; kill -INT $p; wait $p; rc=$?
say "interrupted lbm-gpu rc=$rc, keep.csv: $(tr '\n' '|' < $O/keep.csv)"
./stream-gpu --check --append 2>$O/chk.err; say "stream-gpu --check --append rc=$? $(cat $O/chk.err)"
./stream-gpu --kernel store,load --read-offset 0,3 --write-offset 0,5 --size 64M --reps 3 2>/dev/null | awk -F, 'NR>1{n++} END{print "stream-gpu store,load offset rows:", n}' | tee -a $O/log.txt
./stream-gpu --help | grep -- --precision | tee -a $O/log.txt
say total
rm -f $O/bld.log
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
