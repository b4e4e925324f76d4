#!/bin/bash
# session 10, call 2: the committed node study on all GPUs of the host with the x faces read in
# place (49c08b1), then, while time is left, CPU x splits against z splits on the host's cores
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; say() { echo "$* $((SECONDS-T0)) s"; }
O=$OUT/node; mkdir -p $O
{ nvidia-smi -L; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; } > $O/machine.txt 2>&1
LBMR_VERSION=0.1.0-49c08b1 STUDY_NODE_PRECISIONS=sp,dp STUDY_PARTS=node STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 500 bash data/scripts/mpi-study.sh $O
say "study rc=$?"
rm -f $O/build.log.gz; gzip -f $O/build.log 2>/dev/null
cat $O/node-summary.txt
# CPU: 2 ranks x 16 threads, x split against z split, pull and pull_nt, alternated grid order
B=/tmp/study; C=$OUT/cpu; mkdir -p $C
export LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=16
for r in 1 2 3; do
  g=2x1x1,1x1x2; [ $r = 2 ] && g=1x1x2,2x1x1
  [ $((SECONDS-T0)) -lt 560 ] && { timeout 40 mpiexec -np 2 --map-by slot:PE=16 --bind-to core $B/lbm-cpu --size 256 --procs $g --precision sp,dp --kernel pull,pull_nt --reps 5 -o $C/cpu-$r.csv 2>>$C/err.txt; say "cpu $r rc=$?"; }
done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["kernel"], $h["precision"], $h["mflups_med"]}' $C/cpu-*.csv | sed "s|$C/||"
cp .peers/s10-node.sh $O/run.sh
tar czf $OUT/node.tgz -C $OUT node cpu && rm -rf $O $C
say total
