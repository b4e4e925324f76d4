#!/bin/bash
# session 14, call 3 (nvidia-h200-x4): the interior boxes of distributed pull two cells a thread
# (GPU_PULL_BOX_PAIRS, sp and fp16s). The committed node study with the working tree (new), then
# new against b0e792e (old: one cell a thread in every box) alternated, weak 256^3 a GPU, sp and
# fp16s, and compute-sanitizer memcheck on two ranks.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$PWD; T0=$SECONDS; say() { echo "$* $((SECONDS-T0)) s"; }
O=$OUT/node; A=$OUT/ab; mkdir -p $O $A
main() {
( cmake -S $R/.peers/old -B /tmp/old -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF > $A/bld-old.log 2>&1 && cmake --build /tmp/old -j 24 --target lbm-gpu >> $A/bld-old.log 2>&1; echo "old build rc=$?" ) &
{ nvidia-smi -L; nvidia-smi topo -m; nproc; } > $O/machine.txt 2>&1
LBMR_VERSION=0.1.0-pairs STUDY_NODE_PRECISIONS=sp,dp STUDY_PARTS=node STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 380 bash data/scripts/mpi-study.sh $O
say "study rc=$?"
wait; say "old built"
export LBMR_ENERGY=off
for r in 1 2; do
  for b in new old; do [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    B=/tmp/study/lbm-gpu; [ $b = old ] && B=/tmp/old/lbm-gpu
    [ $((SECONDS-T0)) -gt 500 ] && break
    timeout 60 mpiexec -np 4 $B --local 256 --procs 1x1x1,1x2x2,2x2x1 --precision sp,fp16s --kernel pull --reps 5 -o $A/weak-$b-$r.csv 2>>$A/err.txt
    say "ab $b r$r rc=$?"
  done
done
[ $((SECONDS-T0)) -lt 520 ] && { timeout 60 mpiexec -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/study/lbm-gpu --dims 128x64x64 --procs 1x1x2,2x1x1 --precision sp,fp16s --kernel pull --steps 4 --warmup 1 --reps 1 -o $A/memcheck.csv > $A/memcheck.txt 2>&1; say "memcheck rc=$?"; }
}
export -f main say; export O A R T0
timeout 570 bash -c main; say "main rc=$?"
rm -f $O/build.log.gz; gzip -f $O/build.log 2>/dev/null
cat $O/node-summary.txt; tail -3 $O/ctest.log
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["mflups_med"], $h["efficiency"]}' $A/weak-*.csv | sed "s|$A/||" | sort -k3,3 -k2,2 -k1,1
grep -E "ERROR SUMMARY|error" $A/memcheck.txt | head -5; grep -v "energy not measured" $A/err.txt | tail -3; rm -f $A/bld-old.log
cp $R/.peers/s14-pairs.sh $A/run.sh
tar czf $OUT/r.tgz -C $OUT node ab && rm -rf $O $A
say total
