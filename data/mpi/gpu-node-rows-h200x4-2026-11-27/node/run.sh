#!/bin/bash
# session 15: the committed node study on all GPUs of the host with the interleaved GPU rows
# (9227996), sp, dp and fp16s, nothing else
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; say() { echo "$* $((SECONDS-T0)) s"; }
O=$OUT/node; mkdir -p $O
{ nvidia-smi -L; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; } > $O/machine.txt 2>&1
LBMR_VERSION=0.1.0-9227996 STUDY_NODE_PRECISIONS=sp,dp,fp16s STUDY_PARTS=node STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 420 bash data/scripts/mpi-study.sh $O
say "study rc=$?"
rm -f $O/build.log.gz; gzip -f $O/build.log 2>/dev/null
cat $O/node-summary.txt
cp .peers/s15-node.sh $O/run.sh
tar czf $OUT/node.tgz -C $OUT node && rm -rf $O
say total
