#!/bin/bash
# session 12, call 7, CPU on the 16-core host of the H100 machine (GPU idle): aa 16-bit with a row's
# last cells as one partial block (5b1cd59, new) against the tree before (.peers/old = 4cdc46f),
# three rounds, builds alternated, each round's own stream-cpu; 256^3 and 250 x 256 x 256.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
{ lscpu; nproc; free -g; uptime; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; say "build new rc=$?"
cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 --target lbm-cpu >> $O/bld-old.log 2>&1; say "build old rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off
for r in 1 2 3; do
  /tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  if [ $r = 2 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    timeout 100 /tmp/$b/lbm-cpu --dims 256x256x256,250x256x256 --kernel aa --precision fp16s,fp16c,sp --reps 5 --align 64 -o $O/aa-$b-$r.csv 2>>$O/err.txt; say "aa $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 560 bash -c main; say "main rc=$?"
for r in 1 2 3; do /tmp/new/roofline $O/stream-$r.csv $O/aa-*-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["align"], $h["mflups"], $h["verified"]}' $O/aa-*.csv | sed "s|$O/||" | sort -k2,2n -k4,4 -k1,1
grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s12-cpu7.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
