#!/bin/bash
# session 13, call 2, CPU on the 16-core host of the H100 machine (GPU idle):
#  a. the add chains of the clock probe, immediate against register operands (clockprobe.c);
#  b. five rounds of data/scripts/cpu-host-rounds.sh with this tree (fp16c blocks in AVX-512F,
#     the register add chain) and lbm-benchmark-kernels aa-vec-sl-soa (built by hand on the VM);
#     no sweep slices;
#  c. then, to the limit, rounds of pull / pull_nt / aa 16-bit at 256^3, this tree against
#     dab1791 (.peers/old) alternated.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
( cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "new rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
gcc -O2 $R/.peers/clockprobe.c -o /tmp/clockprobe
wait; say builds
/tmp/clockprobe > $O/clockprobe.txt 2>&1; cat $O/clockprobe.txt
ROUNDS=5 SLICES="" LIMIT=330 bash $R/data/scripts/cpu-host-rounds.sh /tmp/new $O/rounds \
  $R/.peers/cpu-spr/lbmbenchk-linux-gcc-release-sp $R/.peers/cpu-spr/lbmbenchk-linux-gcc-release-dp > $O/rounds-log.txt 2>&1
say "rounds rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16
for r in 1 2 3 4 5; do
  [ $((SECONDS-T0)) -gt 480 ] && break
  /tmp/new/stream-cpu --kernel copy,copy_nt --precision fp16s --reps 10 -o $O/ab-stream-$r.csv 2>>$O/err.txt
  if [ $((r % 2)) = 0 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    timeout 60 /tmp/$b/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision fp16s,fp16c --reps 5 -o $O/ab-$b-$r.csv 2>>$O/err.txt; say "ab $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 550 bash -c main; say "main rc=$?"
for f in $O/ab-new-*.csv; do r=${f##*-}; r=${r%.csv}; /tmp/new/roofline $O/ab-stream-$r.csv $O/ab-*-$r.csv -o $O/ab-roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["kernel"], $h["precision"], $h["mflups"], $h["verified"], $h["cpu_clock_MHz"], $h["reps_disturbed"]}' $O/ab-*-?.csv $O/rounds/lbm-*.csv | sed "s|$O/||" | sort -k2,2 -k3,3 -k1,1
grep -h "^P:" $O/rounds/peer-*.txt | head -12; tail -12 $O/rounds/log.txt
grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s13-cpu2.sh $O/run.sh; cp $R/.peers/clockprobe.c $O/; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
