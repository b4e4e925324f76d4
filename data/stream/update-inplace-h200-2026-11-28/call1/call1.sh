#!/bin/bash
# session 28, call 1 (an H200): stream's update kernel on the GPU. Builds the tree (CUDA, MPI off);
# the stream ctests (update among STREAM_KERNELS_NEW: every offset, block, ILP, scalar access);
# compute-sanitizer memcheck and initcheck on update; then three rounds of stream-gpu copy and
# update beside lbm-gpu pull and aa at 256^3 (sp, dp), and one ILP sweep of copy and update.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; lscpu; gcc --version | head -1; } > $O/machine.txt 2>&1
(export LBMR_VERSION=$(git rev-parse --short HEAD 2>/dev/null || echo new); cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/bnew -j16 >> $O/bld.log 2>&1; echo "build $?" > $O/bld.rc)
say "$(cat $O/bld.rc)"; grep -iE " error|warning:" $O/bld.log | head -5
(cd /tmp/bnew && timeout 120 ctest -R "stream_gpu|stream_bytes|stream_cpu_update|stream_cpu_stream_kernels" --timeout 100 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
for tool in memcheck initcheck; do
  for acc in wide scalar; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bnew/stream-gpu --kernel update --size 1M,3M --precision sp,dp --reps 2 --warmup 1 --ilp 1,4 --blocks 7,0 --read-offset 0,1 --access $acc --quiet-wait off > $O/san-$tool-$acc.csv 2> $O/san-$tool-$acc.txt
    say "sanitizer $tool $acc rc=$? $(tail -1 $O/san-$tool-$acc.txt | cut -c1-100)"
  done
done
for r in 1 2 3; do
  left && timeout 100 /tmp/bnew/stream-gpu --kernel copy,update --precision sp,dp --reps 20 --append -o $O/stream-gpu.csv 2>>$O/err.txt
  left && timeout 100 /tmp/bnew/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp --reps 3 --append -o $O/lbm-gpu.csv 2>>$O/err.txt
  say "round $r"
done
left && timeout 100 /tmp/bnew/stream-gpu --kernel copy,update --precision sp,dp --ilp 1,2,4 --reps 20 -o $O/stream-gpu-ilp.csv 2>>$O/err.txt; say "ilp"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]
for f in ('stream-gpu.csv','stream-gpu-ilp.csv','lbm-gpu.csv'):
    if not os.path.exists(O+'/'+f): continue
    print('==',f)
    for r in csv.DictReader(open(O+'/'+f)):
        print(r['kernel'],r['precision'],'ilp',r['ilp'],'n',r['nx'],'GB/s dram best %.0f med %.0f'%(float(r['bw_dram_GBs']),float(r['bw_dram_med_GBs'])),'mflups',r['mflups'],r['verified'])
PY
cp $R/.peers/s28/call1.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
