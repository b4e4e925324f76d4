#!/bin/bash
# session 20, call 6: the committed tree (update mode the GPU default but for fp16c): GPU ctests,
# the defaults against LBMR_X_FACES=shells in two alternated rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; git -C $R log --oneline -1; git -C $R status --short | grep -v '^??'; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-x2 $CM > $O/bld.log 2>&1 && cmake --build $R/build-x2 -j32 >> $O/bld.log 2>&1); say "build rc=$?"
X=$R/build-x2/lbm-gpu
export LBMR_ENERGY=off
(cd $R/build-x2 && timeout 200 ctest -L gpu -j2 --timeout 120 > $O/ctest-gpu.txt 2>&1); say "ctest gpu rc=$?"
tail -n 4 $O/ctest-gpu.txt
for r in 1 2; do
  case $r in 2) ord="default shells";; *) ord="shells default";; esac
  for m in $ord; do
    case $m in default) E="";; *) E="LBMR_X_FACES=shells";; esac
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision sp,dp,fp16s,fp16c --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --local 256 --precision sp,dp,fp16s,fp16c --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s20-sum.py $O default shells > $O/summary.txt
cat $O/summary.txt
grep -E "Failed|\*\*\*" $O/ctest-gpu.txt | head
grep -iE "error" $O/bld.log | head -5; rm -f $O/bld.log; cp $R/.peers/s20-check.sh $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo total $((SECONDS-T0)) s
