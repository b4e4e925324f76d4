#!/bin/bash
# session 14, call 4 (nvidia-h200-x4, warm from call 3): the paired interior box only where it
# starts a 128-byte line into its rows (fp16s x splits back to one cell a thread); new2 (the
# working tree) against b0e792e (old, built in call 3), weak 256^3 a GPU, and the same state
# on every 1-, 2- and 4-rank grid, sp and fp16s.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$PWD; T0=$SECONDS; say() { echo "$* $((SECONDS-T0)) s"; }
A=$OUT/ab2; mkdir -p $A
main() {
[ -x /tmp/old/lbm-gpu ] || { cmake -S $R/.peers/old -B /tmp/old -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF > /dev/null 2>&1; cmake --build /tmp/old -j 32 --target lbm-gpu > /dev/null 2>&1; }
cmake -S $R -B /tmp/study -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF > $A/bld.log 2>&1 && cmake --build /tmp/study -j 64 --target lbm-gpu csv_check >> $A/bld.log 2>&1; say "build rc=$?"
export LBMR_ENERGY=off
timeout 90 mpiexec -np 4 /tmp/study/lbm-gpu --dims 256x64x48 --procs 1x1x1,2x1x1,1x2x1,1x1x2,2x2x1,1x2x2,2x1x2,4x1x1,1x1x4 --precision sp,fp16s --kernel pull --collision bgk,trt --geometry cavity,periodic --steps 10 --warmup 2 --reps 1 -o $A/same.csv 2>>$A/err.txt
/tmp/study/tests/csv_check $A/same.csv --same-state 1 > $A/same-check.txt 2>&1; say "same-state rc=$?"
for r in 1 2 3; do
  for b in new old; do [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    B=/tmp/study/lbm-gpu; [ $b = old ] && B=/tmp/old/lbm-gpu
    timeout 60 mpiexec -np 4 $B --local 256 --procs 1x1x1,1x2x2,2x2x1 --precision sp,fp16s --kernel pull --reps 5 -o $A/weak-$b-$r.csv 2>>$A/err.txt
    say "ab $b r$r rc=$?"
  done
done
}
export -f main say; export A R T0
timeout 300 bash -c main; say "main rc=$?"
cat $A/same-check.txt | tail -2
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["mflups_med"], $h["efficiency"]}' $A/weak-*.csv | sed "s|$A/||" | sort -k3,3 -k2,2 -k1,1
grep -v "energy not measured" $A/err.txt | tail -3; rm -f $A/bld.log
cp $R/.peers/s14-pairs2.sh $A/run.sh
tar czf $OUT/r.tgz -C $OUT ab2 && rm -rf $A
say total
