#!/bin/bash
# session 13, call 3, CPU on the 16-core host of the H100 machine (GPU idle): does the clock probe
# read low right after 512-bit work (clockprobe2.c), and does a 2 ms untimed settle before each
# reading (this tree, new) leave fewer repetitions counted as disturbed than aafb2c3 (old)?
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
main() {
{ lscpu; nproc; uptime; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
( cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; echo "new rc=$?" ) &
( cmake -S $R/.peers/old -B /tmp/old $B > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-cpu stream-cpu >> $O/bld-old.log 2>&1; echo "old rc=$?" ) &
gcc -O2 -fopenmp -mavx512f $R/.peers/clockprobe2.c -o /tmp/clockprobe2
wait; say builds
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16 LBMR_ENERGY=off
/tmp/clockprobe2 > $O/clockprobe2.txt 2>&1; cat $O/clockprobe2.txt
for r in 1 2 3; do
  if [ $r = 2 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    s=$SECONDS; /tmp/$b/stream-cpu --kernel copy,copy_nt --precision sp --reps 10 -o $O/stream-$b-$r.csv 2>>$O/err.txt; say "stream $b r$r rc=$? $((SECONDS-s)) s"
    s=$SECONDS; timeout 80 /tmp/$b/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision sp,fp16s --reps 5 -o $O/lbm-$b-$r.csv 2>>$O/err.txt; say "lbm $b r$r rc=$? $((SECONDS-s)) s"
  done
done
}
export -f main say; export O R T0
timeout 540 bash -c main; say "main rc=$?"
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["kernel"], $h["precision"], $h["mflups"], $h["verified"], $h["cpu_clock_MHz"], $h["cpu_clock_low_MHz"], $h["reps_disturbed"], $h["clock_events"]}' $O/lbm-*.csv $O/stream-*.csv | sed "s|$O/||" | sort -k2,2 -k3,3 -k1,1
grep -v "energy not measured\|default size" $O/err.txt | tail -3; rm -f $O/bld*.log
cp $R/.peers/s13-cpu3.sh $O/run.sh; cp $R/.peers/clockprobe2.c $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
