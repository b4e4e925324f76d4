#!/bin/bash
# local: five rounds alternated on the 2-core VM, base (3a61a44) against the tree, aa and pull_nt
set -u
O=/tmp/s31/vm/r; mkdir -p $O
export LBMR_ENERGY=off OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores
declare -A B=([base]=/tmp/base31/build [new]=/work/main/build)
lscpu > $O/cpu.txt
for r in 1 2 3 4 5; do
  case $r in 2|4) ord="new base";; *) ord="base new";; esac
  ${B[new]}/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err.txt
  for b in $ord; do
    ${B[$b]}/lbm-cpu --size 256 --kernel pull_nt,aa --precision sp,dp,fp16s,fp16c --reps 4 -o $O/cpu-$b-$r.csv 2>>$O/err.txt
  done
  for b in base new; do ${B[new]}/roofline $O/stream-$r.csv $O/cpu-$b-$r.csv -o $O/roof-$b-$r.csv 2>>$O/err.txt; done
  echo "round $r $(date +%T)" >> $O/log.txt
done
python3 /work/main/.peers/s31/summary.py $O > $O/summary.txt
