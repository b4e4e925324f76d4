#!/bin/bash
# session 12, call 6, CPU on the 16-core host of the H100 machine (GPU idle): the CPU domain sweep
# with the committed tree (b81b3bc) at sizes that are not multiples of 16 (and 256), every kernel,
# sp and dp (pull_nt fp16s too), a stream-cpu run before and after for the ceilings.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $1 ]; }
main() {
{ lscpu; nproc; free -g; uptime; git -C $R log -1 --oneline; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; say "build new rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off
/tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-before.csv 2>>$O/err.txt; say "stream rc=$?"
for n in 72 136 200 256 264 328 392 456 504; do
  left 480 || { echo "sweep cut before $n"; break; }
  timeout 80 /tmp/new/lbm-cpu --size $n --kernel pull,pull_nt,aa --precision sp,dp --reps 3 --warmup 2 $( [ $n = 72 ] || echo --append ) -o $O/sweep.csv 2>>$O/err-sweep.txt || echo "sweep $n rc=$?"
  timeout 30 /tmp/new/lbm-cpu --size $n --kernel pull_nt --precision fp16s --reps 3 --warmup 2 $( [ $n = 72 ] || echo --append ) -o $O/sweep16.csv 2>>$O/err-sweep.txt || echo "sweep16 $n rc=$?"
  say "size $n"
done
/tmp/new/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-after.csv 2>>$O/err.txt
}
export -f main say left; export O R T0
timeout 560 bash -c main; say "main rc=$?"
/tmp/new/roofline $O/stream-before.csv $O/sweep.csv $O/sweep16.csv -o $O/roof-before.csv 2>>$O/err.txt
/tmp/new/roofline $O/stream-after.csv $O/sweep.csv $O/sweep16.csv -o $O/roof-after.csv 2>>$O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {printf "%s %s %s %s %.1f\n", $h["kernel"], $h["precision"], $h["nx"], $h["mflups"], $h["pct_of_ceiling"]}' $O/roof-before.csv
grep -v "energy not measured" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s12-cpu6.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
