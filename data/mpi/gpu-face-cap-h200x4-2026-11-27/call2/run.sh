#!/bin/bash
# session 22, call 2 (four H200s): the face kernel's cap swept lower (LBMR_STUDY_FACE_BLOCKS,
# s22-face.patch): 132 (HEAD), 66, 33, 16 and 8 blocks; states of the new caps first, then two
# alternated rounds:
# strong 512^3 2x1x1 / 1x1x2 on two GPUs, weak 256^3 a GPU 2x2x1, 4x1x1 against 1x2x2 on four
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; mpiexec --version | head -1; nproc; git -C $R log -1 --format=%H; } > $O/machine.txt 2>&1
mkdir -p /tmp/S && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/S && (cd /tmp/S && patch -p1 < $R/.peers/s22-face.patch > /dev/null)
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S /tmp/S -B /tmp/bS $CM > $O/bld-S.log 2>&1 && cmake --build /tmp/bS -j64 --target lbm-gpu >> $O/bld-S.log 2>&1; echo "S $?" > $O/bld-S.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -iE " error" $O/bld-*.log | head -5
N4=$(nvidia-smi -L | grep -c '^GPU ')
run() { # seconds, variant, np, args...
  local t=$1 v=$2 np=$3; shift 3
  local fb=${v#F}
  [ "$fb" = 132 ] && fb=
  env ${fb:+LBMR_STUDY_FACE_BLOCKS=$fb} timeout $t mpiexec -x LBMR_STUDY_FACE_BLOCKS -x LBMR_ENERGY -np $np /tmp/bS/lbm-gpu "$@"
}
VS="F132 F66 F33 F16 F8"
for v in F33 F16 F8; do
  left && run 60 $v 4 --dims 72x40x36,128x8x6 --procs 1x1x1,2x1x1,4x1x1,2x2x1,1x2x2 --precision sp,dp,fp16s,fp16c --geometry cavity,periodic --overlap on,off --steps 10 --warmup 2 --reps 1 -o $O/state-$v.csv 2>>$O/err-state.txt
done; say "states"; pack
for r in 1 2; do
  case $r in 2) ord="F8 F16 F33 F66 F132";; *) ord="$VS";; esac
  for v in $ord; do
    left && run 70 $v 2 --size 512 --procs 2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/s-$v.csv 2>>$O/err-$v.txt
    left && [ "$N4" -ge 4 ] && run 70 $v 4 --local 256 --procs 1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $O/w-$v.csv 2>>$O/err-$v.txt
  done; say "round $r"; pack
done
python3 $R/.peers/s22-sum.py $O $VS > $O/summary.txt 2>&1; cat $O/summary.txt
grep -h "study:" $O/err-*.txt | sort | uniq -c | head; grep -hv "energy\|study:\|could not find" $O/err-*.txt | head -5
rm -f $O/bld-*.log; cp $R/.peers/s22-call2.sh $R/.peers/s22-sum.py $R/.peers/s22-face.patch $O/
pack; say total
