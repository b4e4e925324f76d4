#!/bin/bash
export LBMR_ENERGY=off OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores
rm -f /tmp/ab-*.csv
for r in 1 2 3 4 5; do
  case $r in 2|4) ord="/tmp/bl1 build";; *) ord="build /tmp/bl1";; esac
  for b in $ord; do t=$(basename $b)
    $b/lbm-cpu --size 96,128,160,192,200,224,256 --precision sp,dp --kernel pull_nt --reps 3 --quiet-wait off --append -o /tmp/ab-$t.csv 2>/dev/null
  done
done
echo done > /tmp/ab.done
