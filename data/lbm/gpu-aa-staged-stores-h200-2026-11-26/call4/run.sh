#!/bin/bash
# session 9, call 7: the aa same-state test (tests/gpu_aa_same_state.sh) on the working tree and on
# a broken copy (the staged values that leave a block or a row not stored): it must pass, then fail
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-gpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/broken -B /tmp/broken $CM > $O/bld-broken.log 2>&1 && cmake --build /tmp/broken -j8 --target lbm-gpu >> $O/bld-broken.log 2>&1; echo "broken $?" > $O/bld-broken.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
for b in new broken; do bash $R/tests/gpu_aa_same_state.sh /tmp/$b/lbm-gpu > $O/test-$b.log 2>&1; echo "test on $b: rc=$?"; tail -4 $O/test-$b.log; done
cp $R/.peers/s9-test.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
