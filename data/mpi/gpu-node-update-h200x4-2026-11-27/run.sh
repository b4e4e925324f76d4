#!/bin/bash
# session 21, call 1 (four H200s): the committed node study with update mode the GPU default
# (33841f0, sp dp fp16s fp16c), the distributed GPU ctests (the 72x6x5 dims and the x_faces
# column for the first time on a GPU), the same state on 1x1x1 and every 8-rank grid with two
# ranks a GPU, then update against the shells alternated on the x-split grids (two rounds)
set -u
R=$PWD; T0=$SECONDS; LIMIT=${LIMIT:-470}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $OUT/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT node eight alt log.txt 2>/dev/null; }
O=$OUT/node E8=$OUT/eight A=$OUT/alt; mkdir -p $O $E8 $A
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; } > $O/machine.txt 2>&1
LBMR_VERSION=0.1.0-${HASH:-unknown} STUDY_NODE_PRECISIONS=sp,dp,fp16s,fp16c STUDY_PARTS=node \
  STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 330 bash data/scripts/mpi-study.sh $O
say "study rc=$?"
grep -E "tests passed|Failed|\*\*\*" $O/ctest.log | head; gzip -f $O/build.log 2>/dev/null; pack
B=/tmp/study; export LBMR_ENERGY=off
G8=1x1x1,1x1x8,1x2x4,1x4x2,1x8x1,2x1x4,2x2x2,2x4x1,4x1x2,4x2x1,8x1x1
left && timeout 150 mpiexec -np 8 $B/lbm-gpu --dims 96x80x64 --procs $G8 --precision sp,dp,fp16s,fp16c \
  --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2 \
  -o $E8/same-state-8.csv > $E8/err.txt 2>&1
say "eight ranks rc=$?"
$B/tests/csv_check $E8/same-state-8.csv --bench lbm --backend gpu --same-state 1 > $E8/check.txt 2>&1; say "eight check rc=$?"; pack
for r in 1 2; do
  case $r in 2) ord="update shells";; *) ord="shells update";; esac
  for m in $ord; do
    case $m in update) X="";; *) X="LBMR_X_FACES=shells";; esac
    left && env $X timeout 100 mpiexec -x LBMR_X_FACES -np 4 $B/lbm-gpu --local 256 --procs 1x1x1,1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 5 --warmup 20 --append -o $A/w-$m.csv 2>>$A/err.txt
    left && env $X timeout 120 mpiexec -x LBMR_X_FACES -np 4 $B/lbm-gpu --size 1024 --procs 1x2x2,2x2x1,4x1x1 --precision sp,dp,fp16s --kernel pull --reps 5 --warmup 20 --append -o $A/s-$m.csv 2>>$A/err.txt
  done; say "round $r"
done
python3 $R/.peers/s21-sum.py $A > $A/summary.txt 2>&1; cat $A/summary.txt
cat $O/node-summary.txt; cat $E8/check.txt | tail -3
cp $R/.peers/s21-x4.sh $R/.peers/s21-sum.py $OUT/
pack; say total
