#!/bin/bash
# session 22, call 4 (four H200s): the face cap's rule committed (HEAD: a quarter of the SMs on
# long boxes, else one block an SM) against the commit before it (P: 5dfb4f2, one block an SM
# everywhere), alternated: strong 512^3 x / z on two GPUs, weak 256^3 and 192^3 a GPU and strong
# 1024^3 on four; the distributed same-state ctests and states of both first
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-470}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; mpiexec --version | head -1; nproc; git -C $R log -1 --format=%H; } > $O/machine.txt 2>&1
rm -rf /tmp/P && mkdir -p /tmp/P && git -C $R archive 5dfb4f2 | tar x -C /tmp/P
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/bH $CM > $O/bld-H.log 2>&1 && cmake --build /tmp/bH -j40 >> $O/bld-H.log 2>&1; echo "H $?" > $O/bld-H.rc) &
(cmake -S /tmp/P -B /tmp/bP $CM > $O/bld-P.log 2>&1 && cmake --build /tmp/bP -j24 --target lbm-gpu >> $O/bld-P.log 2>&1; echo "P $?" > $O/bld-P.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -iE " error" $O/bld-*.log | head -5
(cd /tmp/bH && timeout 120 ctest -L gpu -R "mpi_same_state" --timeout 100 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*" $O/ctest.txt | head
run() { local t=$1 v=$2 np=$3; shift 3; timeout $t mpiexec -x LBMR_ENERGY -np $np /tmp/b$v/lbm-gpu "$@"; }
for v in P H; do
  left && run 60 $v 4 --dims 72x40x36,128x8x6 --procs 1x1x1,2x1x1,4x1x1,2x2x1,1x2x2 --precision sp,dp,fp16s,fp16c --geometry cavity,periodic --overlap on,off --steps 10 --warmup 2 --reps 1 -o $O/state-$v.csv 2>>$O/err-state.txt
done; say states; pack
for r in 1 2; do
  case $r in 2) ord="H P";; *) ord="P H";; esac
  for v in $ord; do
    left && run 70 $v 2 --size 512 --procs 2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/s-$v.csv 2>>$O/err-$v.txt
    for n in 256 192; do
      left && run 70 $v 4 --local $n --procs 1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/w$n-$v.csv 2>>$O/err-$v.txt
    done
    left && run 120 $v 4 --size 1024 --procs 1x2x2,2x2x1,4x1x1 --precision sp,dp --kernel pull --reps 3 --append -o $O/l-$v.csv 2>>$O/err-$v.txt
  done; say "round $r"; pack
done
python3 $R/.peers/s22-sum4.py $O P H > $O/summary.txt 2>&1; cat $O/summary.txt
grep -hv "energy\|could not find" $O/err-*.txt | head -5
rm -f $O/bld-*.log; cp $R/.peers/s22-call4.sh $R/.peers/s22-sum4.py $O/
pack; say total
