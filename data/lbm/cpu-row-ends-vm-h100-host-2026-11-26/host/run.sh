#!/bin/bash
# session 7, call 5: the CPU row ends in the vector loops (working tree, "new") against HEAD
# ("old", .peers/old) on the GPU machine's host cores: three alternated rounds of pull sp/dp at
# 256^3, all cores on one rank, and 2 ranks x half the cores, 2x1x1 / 1x1x2.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ lscpu; nproc; } > $O/machine.txt 2>&1
C=$(lscpu -p=core,socket | grep -v '^#' | sort -u | wc -l); H=$((C / 2))
CM="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j$C --target lbm-cpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j$C --target lbm-cpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ') cores=$C"
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    OMP_NUM_THREADS=$C OMP_PROC_BIND=close OMP_PLACES=cores /tmp/$b/lbm-cpu --size 256 --precision sp,dp --kernel pull --reps 5 -o $O/one-$b-$r.csv 2>>$O/err.txt
    OMP_NUM_THREADS=$H OMP_PROC_BIND=close OMP_PLACES=cores mpiexec -np 2 --map-by slot:PE=$H --bind-to core -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY /tmp/$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull --reps 5 -o $O/two-$b-$r.csv 2>>$O/err.txt
    say "round $r $b"
  done
done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["mflups_med"], $h["verified"]}' $O/one-*.csv $O/two-*.csv | sed "s|$O/||"
cp $R/.peers/s7-cpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
