#!/bin/bash
# session 8, call 1: the node study on the GPUs of this host with all four precisions (16-bit
# weak scaling at 256^3 a GPU), two more alternated weak rounds, SASS of the whole-domain pull
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
O=$OUT/node; mkdir -p $O
{ nvidia-smi -L; nvidia-smi topo -m; nproc; git log -1 --oneline; nvidia-smi --query-gpu=name,memory.total --format=csv; } > $O/machine.txt 2>&1
mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
strong=1024; [ "${mem:-0}" -lt 100000 ] && strong=768   # an H100 holds no sp share of 1024^3 on 2 ranks
echo "strong=$strong" >> $O/machine.txt
LBMR_VERSION=0.1.0-$(git rev-parse --short HEAD) STUDY_PARTS=node STUDY_NODE_STRONG=$strong \
  STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi" BUILD_DIR=/tmp/study timeout 420 bash data/scripts/mpi-study.sh $O
echo "rc=$?"
n=$(nvidia-smi -L | grep -c '^GPU ')
for r in 2 3; do
  LBMR_ENERGY=off timeout 60 mpiexec -np $n /tmp/study/lbm-gpu --local 256 --procs 1x1x1,1x1x$n \
    --precision sp,fp16s,fp16c --kernel pull --reps 5 --warmup 20 -o $O/weak-round$r.csv
done
o=$(find /tmp/study -name 'lbm_dispatch.cu.o' | head -1)
for t in f 9gpu_fp16s 9gpu_fp16c; do
  fn=$(cuobjdump -symbols $o 2>/dev/null | grep -o "_Z11pull_kernelI${t}Li0ELi0EL15gpu_lbm_variant0E[A-Za-z0-9_]*" | head -1)
  cuobjdump -sass -fun "$fn" $o > $O/sass-pull-$t.txt 2>&1
done
ls -la $O >&2
rm -f $O/build.log.gz; gzip -f $O/build.log
tar czf $OUT/node.tgz -C $OUT node && rm -rf $O
