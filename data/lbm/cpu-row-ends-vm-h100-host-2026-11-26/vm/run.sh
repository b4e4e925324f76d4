#!/bin/bash
# alternated rounds on the 2-core VM: old (HEAD before the change) and new (the row ends in the
# vector loops), pull sp/dp: one rank of 2 threads at 256^3, and 2 ranks of 1 thread, 2x1x1 / 1x1x2
set -u
O=${1:?outdir}; mkdir -p $O
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for r in 1 2 3 4; do
  for b in old new; do
    [ $((r % 2)) = 0 ] && b=$([ $b = old ] && echo new || echo old)
    OMP_NUM_THREADS=2 /tmp/b-$b/lbm-cpu --size 256 --precision sp,dp --kernel pull --reps 5 -o $O/one-$b-$r.csv 2>>$O/err.txt
    OMP_NUM_THREADS=1 mpiexec -np 2 --bind-to core -x OMP_NUM_THREADS -x LBMR_ENERGY /tmp/b-$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull --reps 3 -o $O/two-$b-$r.csv 2>>$O/err.txt
    echo "round $r $b done $(date +%T)"
  done
done
