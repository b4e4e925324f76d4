#!/bin/bash
# session 27, call 2 (the 16-core host of an H100 machine): five rounds of data/scripts/cpu-host-rounds.sh
# (stream-cpu, lbm-cpu every kernel and precision at 256^3, the peer's aa-vec-sl-soa sp and dp, a
# slice of the 64..512 sweep) with the tree's CPU build; builds it (and the peer) if call 1's are gone.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; S=$R/.peers/s27
lscpu > $O/cpu.txt
if [ ! -x /tmp/bnew/lbm-cpu ]; then
  cmake -S $R -B /tmp/bnew -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/bnew -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "built $? $((SECONDS-T0)) s"
fi
if [ ! -x /tmp/pp/peer/bin/lbmbenchk-linux-gcc-release-dp ]; then
  mkdir -p /tmp/pp && tar xzf $S/peer.tgz -C /tmp/pp && (cd /tmp/pp/peer/src && sed -i 's/default(none)//g' *.c *.h &&
  for p in sp dp; do make CONFIG=linux-gcc PRECISION=$p TARCH="-march=native" ISA=avx512 -j16 > $O/peer-bld-$p.log 2>&1; done); echo "peer built $((SECONDS-T0)) s"
fi
LIMIT=$((470 - (SECONDS-T0))) timeout $((540 - (SECONDS-T0))) bash data/scripts/cpu-host-rounds.sh /tmp/bnew $O/rounds /tmp/pp/peer/bin/lbmbenchk-linux-gcc-release-sp /tmp/pp/peer/bin/lbmbenchk-linux-gcc-release-dp 2>&1 | tail -40
bash data/scripts/cpu-host-rounds-summary.sh $O/rounds > $O/summary.txt 2>&1; cat $O/summary.txt | head -60
cp $S/call2.sh $O/
echo "total $((SECONDS-T0)) s"
cd $OUT && tar czf r.tgz r && rm -rf r
