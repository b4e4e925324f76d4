#!/bin/bash
# session 32, call 5 (an H200 machine's 16-core host): issue 19's 64..512 sweep with the final CPU
# kernels: five rounds of cpu-host-rounds.sh with its default slices, no peer.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
{ nvidia-smi -L; lscpu; gcc --version | head -1; nproc; free -g; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/bc -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_MPI=OFF -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/bc -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; say "built $?"
left=$((585 - (SECONDS - T0)))
ROUNDS=5 LIMIT=$((left - 50)) timeout $left bash $R/data/scripts/cpu-host-rounds.sh /tmp/bc $O/rounds; say "rounds rc=$?"
bash $R/data/scripts/cpu-host-rounds-summary.sh $O/rounds > $O/summary.txt 2>&1; tail -40 $O/summary.txt
rm -f $O/bld.log; cp $R/.peers/s32/call5.sh $O/
cd $OUT && tar czf r.tgz r && rm -rf r
