#!/bin/bash
# session 13, call 4, CPU on the 16-core host of the H100 machine (GPU idle): is pull fp16s at
# 256^3 level with dab1791 (call 1 read -13% in a noisy call)? Five rounds, builds alternated,
# aa fp16s (object code identical in both) as the noise control, sp as a second control.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
{ lscpu; nproc; uptime; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
( cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "new rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
wait; say builds
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16 LBMR_ENERGY=off
for r in 1 2 3 4 5; do
  [ $((SECONDS-T0)) -gt 470 ] && break
  /tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt
  if [ $((r % 2)) = 0 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    timeout 60 /tmp/$b/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision fp16s,sp --reps 5 -o $O/lbm-$b-$r.csv 2>>$O/err.txt; say "lbm $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 540 bash -c main; say "main rc=$?"
for f in $O/stream-*.csv; do r=${f##*-}; r=${r%.csv}; /tmp/new/roofline $f $O/lbm-*-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["kernel"], $h["precision"], $h["mflups"], $h["verified"]}' $O/lbm-*.csv | sed "s|$O/||" | sort -k2,2 -k3,3 -k1,1
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s13-cpu4.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
