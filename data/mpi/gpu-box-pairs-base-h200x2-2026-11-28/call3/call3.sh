#!/bin/bash
# session 30, call 3 (two H200s): why the interior box's paired kernel (GPU_PULL_BOX_PAIRS) runs 4.6%
# longer than the whole domain's (GPU_PULL_PAIRS) on the same bytes: their SASS, and ncu's stall
# and scheduler sections of each. Rank 0 profiled, rank 1 on the other GPU.
set -u
R=$PWD; O=$OUT/r3; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
B=/tmp/b1/lbm-gpu
if [ ! -x $B ]; then
  cmake -S $R -B /tmp/b1 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
    cmake --build /tmp/b1 -j16 --target lbm-gpu >> $O/bld.log 2>&1; say "build rc=$?"
fi
which cuobjdump nvdisasm > $O/tools.txt 2>&1
OBJ=$(find /tmp/b1 -name 'lbm_dispatch.cu.o' | head -1)
cuobjdump -sass $OBJ > /tmp/all.sass 2>>$O/err.txt; say "sass rc=$? $(wc -l < /tmp/all.sass) lines"
# fp16s (gpu_fp16s), BGK (0), unforced (0): GPU_PULL_PAIRS and GPU_PULL_BOX_PAIRS
grep -n "Function : .*pull_pairs_kernel.*gpu_fp16s" /tmp/all.sass | head -40 > $O/fns.txt
python3 - /tmp/all.sass $O <<'PY'
import re, sys
text = open(sys.argv[1]).read().split('\n')
out = sys.argv[2]
cur = None; funcs = {}
for line in text:
    m = re.search(r'Function : (\S+)', line)
    if m: cur = m.group(1); funcs[cur] = []; continue
    if cur: funcs[cur].append(line)
keep = [f for f in funcs if 'pull_pairs_kernel' in f and 'gpu_fp16s' in f and 'fp16sLi0ELi0E' in f]
for f in keep:
    open(f'{out}/sass-{f[-60:].replace("/", "_")}.txt', 'w').write(f + '\n' + '\n'.join(funcs[f]))
    print(f, len([l for l in funcs[f] if re.search(r'/\*[0-9a-f]{4}\*/', l)]), 'instructions')
PY
ls $O >> $O/log.txt
cat > /tmp/rank0ncu.sh <<EOF
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none -k regex:pull_pairs --launch-skip 10 --launch-count 1 --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section Occupancy "\$@"; else exec "\$@"; fi
EOF
chmod +x /tmp/rank0ncu.sh
timeout 120 ncu --clock-control none -k regex:pull_pairs --launch-skip 10 --launch-count 1 --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section Occupancy $B --size 256 --precision fp16s --kernel pull --warmup 20 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-one.txt 2>&1; say "ncu one rc=$?"
timeout 120 mpiexec -np 2 /tmp/rank0ncu.sh $B --local 256 --procs 1x1x2 --precision fp16s --kernel pull --warmup 20 --reps 1 --steps 4 -o /tmp/n2.csv --overwrite > $O/ncu-box.txt 2>&1; say "ncu box rc=$?"
cp $R/.peers/s30/call3.sh $O/
cd $OUT && tar czf r3.tgz r3 && rm -rf r3
