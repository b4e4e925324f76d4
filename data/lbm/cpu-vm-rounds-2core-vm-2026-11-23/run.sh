#!/bin/bash
# coordinator, session 4: the 16-core host of the GPU machine, five alternated rounds of
# stream-cpu, lbm-cpu (every kernel and precision, 256^3) and the peer's aa (sp, dp)
set -u
P=${P:-$PWD/.peers/cpu-spr}; O=$OUT/r; mkdir -p $O; T0=$SECONDS; ROUNDS=${ROUNDS:-5}; N=${N:-256}
finish() { tar czf $OUT/s4-cpu.tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
export LD_LIBRARY_PATH=$P OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores
lscpu > $O/cpu.txt
peer() { timeout 90 $P/lbmbenchk-linux-gcc-release-$1 -kernel aa-vec-sl-soa -dims ${N}x${N}x${N} -iterations ${PEER_IT:-40} -t 2 > $O/peer-$1-$2.txt 2>&1; grep "^P:" $O/peer-$1-$2.txt | sed "s/^/round $2 $1: /"; }
for r in $(seq $ROUNDS); do
  grep -E "^steal|^cpu " /proc/stat | head -1 > $O/stat-$r-a.txt
  case $((r % 3)) in
  0) peer sp $r; peer dp $r ;;
  esac
  $P/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt; echo "stream $r rc=$? $((SECONDS-T0)) s"
  [ $((r % 3)) = 1 ] && { peer sp $r; peer dp $r; }
  $P/lbm-cpu --size $N --kernel pull,pull_nt,aa --precision sp,dp,fp16s,fp16c --reps 3 --warmup 4 -o $O/lbm-$r.csv 2>>$O/err.txt; echo "lbm $r rc=$? $((SECONDS-T0)) s"
  [ $((r % 3)) = 2 ] && { peer sp $r; peer dp $r; }
  grep -E "^cpu " /proc/stat > $O/stat-$r-b.txt
  [ $((SECONDS-T0)) -gt ${LIMIT:-500} ] && { echo "stopped after round $r"; break; }
done
