#!/bin/bash
# session 13, call 1, CPU on the 16-core host of the H100 machine (GPU idle): fp16c's block
# conversions in AVX-512F, pull/pull_nt fp16c in blocks, pull's partial block (this tree, new)
# against dab1791 (.peers/old), three rounds, builds alternated, each round's own stream-cpu;
# 256^3 and 250 x 256 x 256.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
{ lscpu; nproc; free -g; uptime; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
( cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-cpu stream-cpu roofline test_storage16 >> $O/bld.log 2>&1; echo "new rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
wait; say builds
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off
for r in 1 2 3; do
  /tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  if [ $r = 2 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    timeout 110 /tmp/$b/lbm-cpu --dims 256x256x256,250x256x256 --kernel aa,pull,pull_nt --precision fp16c,fp16s,sp --reps 5 -o $O/lbm-$b-$r.csv 2>>$O/err.txt; say "lbm $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 545 bash -c main; say "main rc=$?"
timeout 45 /tmp/new/tests/test_storage16 > $O/test_storage16.txt 2>&1; say "test_storage16 rc=$?"
for r in 1 2 3; do /tmp/new/roofline $O/stream-$r.csv $O/lbm-*-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["mflups"], $h["verified"]}' $O/lbm-*.csv | sed "s|$O/||" | sort -k2,2n -k3,3 -k4,4 -k1,1
tail -3 $O/test_storage16.txt; grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s13-cpu1.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
