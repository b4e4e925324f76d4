#!/bin/bash
# session 29, call 1 (the 16-core host of an H200 machine; CPU only, the GPU idle):
# (a) thread counts under pinning (3a55f49): stream-cpu and lbm-cpu sweeps, threads_pinned.sh;
# (b) five rounds of data/scripts/cpu-host-rounds.sh with lbm-benchmark-kernels (no sweep slices).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
lscpu > $O/cpu.txt 2>&1; gcc --version | head -1 >> $O/cpu.txt
(cmake -S $R -B /tmp/bnew -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_MPI=OFF -DLBMR_LIKWID=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j14 --target lbm-cpu stream-cpu roofline >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(mkdir -p /tmp/pp && tar xzf $R/.peers/s29/peer.tgz -C /tmp/pp && cd /tmp/pp/peer/src && sed -i 's/default(none)//g' *.c *.h &&
  for p in sp dp; do make CONFIG=linux-gcc PRECISION=$p TARCH="-march=native" ISA=avx512 -j8 > $O/peer-bld-$p.log 2>&1 || echo "peer $p failed"; done) &
wait; ls /tmp/pp/peer/bin > $O/peer-bins.txt 2>&1; say "built: $(cat $O/bld-new.rc) peer: $(tr '\n' ' ' < $O/peer-bins.txt)"
B=/tmp/bnew
$B/stream-cpu --kernel copy,copy_nt,update --precision sp --threads 1,2,4,6,8,12,16 --reps 10 -o $O/threads-stream.csv 2>>$O/err.txt; say "stream threads rc=$?"
$B/lbm-cpu --size 256 --kernel aa,pull_nt --precision sp --threads 1,2,4,8,16 --reps 2 -o $O/threads-lbm.csv 2>>$O/err.txt; say "lbm threads rc=$?"
for b in stream lbm; do
  a="--size 64K --kernel copy --precision sp --reps 2"; [ $b = lbm ] && a="--size 16 --kernel aa --precision sp --steps 2 --reps 1 --warmup 0"
  bash $R/tests/threads_pinned.sh $B/$b-cpu -- $a > $O/pinned-$b.txt 2>&1; echo "rc=$?" >> $O/pinned-$b.txt
done
say "pinned: $(grep -h rc= $O/pinned-*.txt | tr '\n' ' ')"
left=$((575 - (SECONDS - T0)))
ROUNDS=5 SLICES="" LIMIT=$((left - 45)) timeout $left bash $R/data/scripts/cpu-host-rounds.sh $B $O/rounds \
  /tmp/pp/peer/bin/lbmbenchk-linux-gcc-release-sp /tmp/pp/peer/bin/lbmbenchk-linux-gcc-release-dp; say "rounds rc=$?"
bash $R/data/scripts/cpu-host-rounds-summary.sh $O/rounds > $O/summary.txt 2>&1
cp $R/.peers/s29/call1.sh $O/
cd $OUT && tar czf r.tgz r && rm -rf r
