#!/bin/bash
# session 13, call 5, CPU on the 16-core host of the H100 machine (GPU idle): pull fp16s at 256^3
# lost 25% to c5162ce's partial block (call 4); two ways back, alternated with dab1791 (old):
#   ovl: the working tree, the row's last block overlapping the one before, one block body;
#   rev: c5162ce without pull's partial block (the remainder element by element, as dab1791).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
( cmake -S $R -B /tmp/ovl $B > $O/bld.log 2>&1 && cmake --build /tmp/ovl -j6 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "ovl rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j5 --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
( cmake -S $R/.peers/rev -B /tmp/rev $B > $O/bld-rev.log 2>&1 && cmake --build /tmp/rev -j5 --target lbm-cpu >> $O/bld-rev.log 2>&1; echo "rev rc=$?" ) &
wait; say builds
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16 LBMR_ENERGY=off
orders=("old ovl rev" "ovl rev old" "rev old ovl" "old rev ovl" "ovl old rev")
for r in 1 2 3 4 5; do
  [ $((SECONDS-T0)) -gt 460 ] && break
  /tmp/ovl/stream-cpu --kernel copy,copy_nt --precision sp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt
  for b in ${orders[$((r-1))]}; do
    timeout 60 /tmp/$b/lbm-cpu --dims 256x256x256,250x256x256 --kernel pull --precision fp16s,fp16c --reps 5 -o $O/lbm-$b-$r.csv 2>>$O/err.txt
    timeout 30 /tmp/$b/lbm-cpu --size 256 --kernel aa --precision fp16s --reps 5 --append -o $O/lbm-$b-$r.csv 2>>$O/err.txt; say "lbm $b r$r rc=$?"
  done
done
}
export -f main say; export O R T0
timeout 545 bash -c main; say "main rc=$?"
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["kernel"], $h["precision"], $h["nx"], $h["mflups"], $h["verified"]}' $O/lbm-*.csv | sed "s|$O/||" | sort -k2,2 -k3,3 -k4,4n -k1,1
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s13-cpu5.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
