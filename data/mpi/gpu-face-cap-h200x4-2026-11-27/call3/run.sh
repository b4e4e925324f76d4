#!/bin/bash
# session 22, call 3 (four H200s): the committed node study with the face kernel at a quarter of
# the SMs (HEAD), the same state on every 8-rank grid (two ranks a GPU), then the cap at smaller
# weak sizes (128^3, 192^3 a GPU): 132, 66, 33 blocks through the study patch, two rounds
set -u
R=$PWD; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $OUT/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT node eight cap log.txt 2>/dev/null; }
O=$OUT/node E8=$OUT/eight C=$OUT/cap; mkdir -p $O $E8 $C
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; git -C $R log -1 --format=%H; } > $O/machine.txt 2>&1
rm -rf /tmp/S2 && mkdir -p /tmp/S2 && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/S2 && (cd /tmp/S2 && patch -p1 < $R/.peers/s22-face2.patch > /dev/null)
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S /tmp/S2 -B /tmp/bS2 $CM > $C/bld-S.log 2>&1 && nice cmake --build /tmp/bS2 -j24 --target lbm-gpu >> $C/bld-S.log 2>&1; echo "S $?" > $C/bld-S.rc) &
LBMR_VERSION=0.1.0-${HASH:-unknown} STUDY_NODE_PRECISIONS=sp,dp,fp16s,fp16c STUDY_PARTS=node \
  STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 330 bash data/scripts/mpi-study.sh $O
say "study rc=$?"; wait; say "S build $(cat $C/bld-S.rc)"
grep -E "tests passed|Failed|\*\*\*" $O/ctest.log | head; gzip -f $O/build.log 2>/dev/null; pack
B=/tmp/study; export LBMR_ENERGY=off
G8=1x1x1,1x1x8,1x2x4,1x4x2,1x8x1,2x1x4,2x2x2,2x4x1,4x1x2,4x2x1,8x1x1
left && timeout 150 mpiexec -np 8 $B/lbm-gpu --dims 96x80x64 --procs $G8 --precision sp,dp,fp16s,fp16c \
  --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2 \
  -o $E8/same-state-8.csv > $E8/err.txt 2>&1
say "eight ranks rc=$?"
$B/tests/csv_check $E8/same-state-8.csv --bench lbm --backend gpu --same-state 1 > $E8/check.txt 2>&1; say "eight check rc=$?"; pack
run() { # seconds, variant, args...
  local t=$1 fb=${2#F}; shift 2
  env LBMR_STUDY_FACE_BLOCKS=$fb timeout $t mpiexec -x LBMR_STUDY_FACE_BLOCKS -x LBMR_ENERGY -np 4 /tmp/bS2/lbm-gpu "$@"
}
for r in 1 2; do
  case $r in 2) ord="F33 F66 F132";; *) ord="F132 F66 F33";; esac
  for v in $ord; do
    for n in 128 192; do
      left && run 60 $v --local $n --procs 1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 3 --append -o $C/w$n-$v.csv 2>>$C/err-$v.txt
    done
  done; say "round $r"; pack
done
python3 $R/.peers/s22-sum3.py $C F132 F66 F33 > $C/summary.txt 2>&1; cat $C/summary.txt
cat $O/node-summary.txt; tail -3 $E8/check.txt
rm -f $C/bld-S.log; cp $R/.peers/s22-call3.sh $R/.peers/s22-sum3.py $R/.peers/s22-face2.patch $OUT/
pack; say total
