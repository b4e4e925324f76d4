#!/bin/bash
# session 12, call 2, CPU on the 16-core host of the H100 machine (GPU idle): pull_nt rows that are
# not whole lines (new: line steps with an ordinary-store tail; old: chunks), the tree before
# (.peers/old = 4cdc46f) against this one, both with rows on a line; aa 16-bit with and without
# the software prefetch. Three rounds, builds alternated, each round's own stream-cpu.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $1 ]; }
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
    timeout 100 /tmp/$b/lbm-cpu --dims 250x256x256,258x256x256,256x256x256 --kernel pull_nt --precision sp,dp --reps 5 -o $O/nt-$b-$r.csv 2>>$O/err.txt; say "nt $b r$r rc=$?"
    timeout 60 /tmp/$b/lbm-cpu --dims 240x256x256,256x256x256 --kernel pull_nt --precision fp16s --reps 5 -o $O/nt16-$b-$r.csv 2>>$O/err.txt; say "nt16 $b r$r rc=$?"
  done
done
left 330 || return
cmake -S $R -B /tmp/pf $B -DCMAKE_C_FLAGS=-DLBMR_PREFETCH=512 > $O/bld-pf.log 2>&1 && cmake --build /tmp/pf -j16 --target lbm-cpu >> $O/bld-pf.log 2>&1; say "build pf rc=$?"
for r in 1 2; do
  left 480 || break
  if [ $r = 2 ]; then order="pf new"; else order="new pf"; fi
  for b in $order; do
    timeout 60 /tmp/$b/lbm-cpu --size 128,256 --kernel aa --precision sp,fp16s,fp16c --reps 5 -o $O/pf-$b-$r.csv 2>>$O/err.txt; say "pf $b r$r rc=$?"
  done
done
}
export -f main say left; export O R T0
timeout 545 bash -c main; say "main rc=$?"
for f in $O/stream-*.csv; do r=${f##*-}; r=${r%.csv}; /tmp/new/roofline $f $O/nt*-$r.csv $( ls $O/pf-*-$r.csv 2>/dev/null ) -o $O/roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["align"], $h["pitch"], $h["mflups"], $h["verified"]}' $O/nt*.csv $O/pf-*.csv 2>/dev/null | sed "s|$O/||" | sort -k2,2n -k3,3 -k4,4 -k1,1 > $O/rows.txt
cat $O/rows.txt | head -80
grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s12-cpu2.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
