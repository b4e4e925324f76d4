#!/bin/bash
# session 12, call 4, CPU on the 16-core host of the H100 machine (GPU idle): pull_nt rows that are
# not whole lines: the tree before (.peers/old = 4cdc46f: rows unaligned by default, such rows in
# chunks) against this one (rows on a line by default; line steps, the last part of a line from a
# step that ends at the row's end, its whole line streamed with zeros in the padding), three rounds, builds alternated, each round's
# own stream-cpu; then the CPU sweep at sizes that are not multiples of 16 with this tree.
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
    timeout 60 /tmp/$b/lbm-cpu --dims 240x256x256,250x256x256,256x256x256 --kernel pull_nt --precision fp16s --reps 5 -o $O/nt16-$b-$r.csv 2>>$O/err.txt; say "nt16 $b r$r rc=$?"
  done
done
left 330 || return
for n in 72 136 200 264 328 392 456 504; do
  left 470 || { echo "sweep cut before $n"; break; }
  timeout 80 /tmp/new/lbm-cpu --size $n --kernel pull,pull_nt,aa --precision sp,dp --reps 3 --warmup 2 $( [ $n = 72 ] || echo --append ) -o $O/sweep.csv 2>>$O/err-sweep.txt || echo "sweep $n rc=$?"
done; say "sweep done"
/tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp --reps 10 -o $O/stream-sweep.csv 2>>$O/err.txt
}
export -f main say left; export O R T0
timeout 545 bash -c main; say "main rc=$?"
for f in $O/stream-[0-9].csv; do r=${f##*-}; r=${r%.csv}; /tmp/new/roofline $f $O/nt*-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["align"], $h["pitch"], $h["mflups"], $h["verified"]}' $O/nt*.csv 2>/dev/null | sed "s|$O/||" | sort -k2,2n -k3,3 -k4,4 -k1,1 > $O/rows.txt
cat $O/rows.txt | head -80
grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s12-cpu4.sh $O/run.sh; cp $R/.peers/change.patch $O/
[ -s $O/sweep.csv ] && /tmp/new/roofline $O/stream-sweep.csv $O/sweep.csv -o $O/roof-sweep.csv 2>>$O/err.txt
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
