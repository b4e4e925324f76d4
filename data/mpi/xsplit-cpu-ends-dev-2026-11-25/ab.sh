export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off OMP_NUM_THREADS=1
for r in 1 2 3; do
  for b in A B; do
    [ $r = 2 ] && b=$([ $b = A ] && echo B || echo A)
    bin=A/lbm-cpu; [ $b = B ] && bin=B/lbm-cpu
    timeout 600 mpiexec -np 2 --bind-to core -x OMP_NUM_THREADS -x LBMR_ENERGY $bin --size 256 --precision sp,dp --kernel pull,pull_nt --procs 2x1x1,1x1x2 --reps 3 -o ./$b-$r.csv 2>>./err.txt
    echo "$b $r rc=$? $(date +%T)"
  done
done
