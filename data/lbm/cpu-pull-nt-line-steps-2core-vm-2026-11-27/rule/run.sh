#!/bin/bash
export LBMR_ENERGY=off OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores
O=/tmp/ab2; rm -rf $O; mkdir -p $O
for r in 1 2 3 4 5; do
  case $r in 2|4) ord="hy head";; *) ord="head hy";; esac
  for t in $ord; do b=/work/main/build; [ $t = hy ] && b=/tmp/bhy
    $b/lbm-cpu --size 96,128,160,192,200,224,256 --precision sp,dp --kernel pull_nt --reps 3 --quiet-wait off --append -o $O/$t.csv 2>/dev/null
  done
done
echo done > $O/done
