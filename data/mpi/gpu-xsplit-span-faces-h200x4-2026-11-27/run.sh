#!/bin/bash
# session 21, call 2: the x split's span (B: ghost x = nx in the next row's front unit; A: HEAD's
# layout), the face kernel in 132 blocks (LBMR_STUDY_FACE_BLOCKS) and the L2 fetch at 32 bytes
# (LBMR_STUDY_L2FETCH); states first, then two alternated rounds: strong 512^3 2x1x1 / 1x1x2 on
# two GPUs, weak 256^3 a GPU on four
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
mkdir -p /tmp/A && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/A && cp .peers/s21-layout-head.h /tmp/A/lbm/model/layout.h
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
[ -x /tmp/bB/lbm-gpu ] && [ -x /tmp/bA/lbm-gpu ] && cmp -s $R/gpu/lbm_kernels.cuh /tmp/bB.kernels && SKIP=1 || SKIP=0
cp $R/gpu/lbm_kernels.cuh /tmp/bB.kernels
[ $SKIP = 1 ] || (cmake -S $R -B /tmp/bB $CM > $O/bld-B.log 2>&1 && cmake --build /tmp/bB -j40 >> $O/bld-B.log 2>&1; echo "B $?" > $O/bld-B.rc) &
[ $SKIP = 1 ] || (cmake -S /tmp/A -B /tmp/bA $CM > $O/bld-A.log 2>&1 && cmake --build /tmp/bA -j24 --target lbm-gpu >> $O/bld-A.log 2>&1; echo "A $?" > $O/bld-A.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -iE " error" $O/bld-*.log | head -5
[ $SKIP = 1 ] || (cd /tmp/bB && timeout 150 ctest -L gpu -R "mpi|default_align|same_state" --timeout 120 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*" $O/ctest.txt | head
N4=$(nvidia-smi -L | grep -c '^GPU ')
run() { # seconds, variant, np, args...
  local t=$1 v=$2 np=$3; shift 3
  local bin=/tmp/bB/lbm-gpu fb= l2=
  case $v in A) bin=/tmp/bA/lbm-gpu;; Bf) fb=132;; Bl) l2=32;; Bfl) fb=132; l2=32;; esac
  env ${fb:+LBMR_STUDY_FACE_BLOCKS=$fb} ${l2:+LBMR_STUDY_L2FETCH=$l2} timeout $t mpiexec -x LBMR_STUDY_FACE_BLOCKS -x LBMR_STUDY_L2FETCH -x LBMR_ENERGY -np $np $bin "$@"
}
VS="A B Bf Bl Bfl"
for v in $VS; do
  left && run 60 $v 4 --dims 72x40x36 --procs 1x1x1,2x1x1,4x1x1,2x2x1,1x2x2 --precision sp,dp,fp16s,fp16c --geometry cavity,periodic --overlap on,off --steps 10 --warmup 2 --reps 1 -o $O/state-$v.csv 2>>$O/err-state.txt
done; say "states"; pack
for r in 1 2; do
  case $r in 2) ord="Bfl Bl Bf B A";; *) ord="$VS";; esac
  for v in $ord; do
    left && run 70 $v 2 --size 512 --procs 2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/s-$v.csv 2>>$O/err-$v.txt
    left && [ "$N4" -ge 4 ] && run 70 $v 4 --local 256 --procs 1x1x1,1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/w-$v.csv 2>>$O/err-$v.txt
  done; say "round $r"; pack
done
python3 $R/.peers/s21-sum2.py $O $VS > $O/summary.txt 2>&1; cat $O/summary.txt
grep -h "study:" $O/err-*.txt | sort | uniq -c | head; grep -hv "energy\|study:\|could not find" $O/err-*.txt | head -5
rm -f $O/bld-*.log; cp $R/.peers/s21-study.sh $R/.peers/s21-sum2.py $O/
pack; say total
