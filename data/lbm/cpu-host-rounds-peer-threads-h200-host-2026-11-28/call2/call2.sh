#!/bin/bash
# session 29, call 2 (the same warm machine when it still is): five rounds of cpu-host-rounds.sh with
# its default sweep slices (64..512), no peer; builds /tmp/bnew again if the machine is fresh.
set -u
R=$PWD; O=$OUT/r2; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
if [ ! -x /tmp/bnew/lbm-cpu ]; then
  cmake -S $R -B /tmp/bnew -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_MPI=OFF -DLBMR_LIKWID=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j16 --target lbm-cpu stream-cpu roofline >> $O/bld-new.log 2>&1; say "built $?"
else say "warm: /tmp/bnew kept"; fi
left=$((580 - (SECONDS - T0)))
ROUNDS=5 LIMIT=$((left - 50)) timeout $left bash $R/data/scripts/cpu-host-rounds.sh /tmp/bnew $O/rounds; say "rounds rc=$?"
bash $R/data/scripts/cpu-host-rounds-summary.sh $O/rounds > $O/summary.txt 2>&1
cp $R/.peers/s29/call2.sh $O/
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
