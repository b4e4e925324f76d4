#!/bin/bash
# session 7, call 6: the committed node study on all GPUs of the host
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
O=$OUT/node; mkdir -p $O
{ nvidia-smi -L; nvidia-smi topo -m; nproc; git log -1 --oneline; } > $O/machine.txt 2>&1
LBMR_VERSION=0.1.0-$(git rev-parse --short HEAD) STUDY_PARTS=node STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 540 bash data/scripts/mpi-study.sh $O
echo "rc=$?"
rm -f $O/build.log.gz; gzip -f $O/build.log
tar czf $OUT/node.tgz -C $OUT node && rm -rf $O
