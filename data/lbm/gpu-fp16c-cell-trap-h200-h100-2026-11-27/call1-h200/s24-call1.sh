#!/bin/bash
# session 24, call 1 (one H200): where pull fp16c's and fp16s's instructions go. ncu per-instruction
# executed counts (SourceCounters, source page as SASS), per-opcode dynamic counts, and the
# instructions per update at 256^3 against 512x128x256 (half the share of warps with an x end).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
{ nvidia-smi -L; ncu --version; nvcc --version | tail -2; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(export LBMR_VERSION=s24a; cmake -S $R -B /tmp/b0 $CM "-DCMAKE_CUDA_FLAGS=-lineinfo" > $O/bld.log 2>&1 &&
 cmake --build /tmp/b0 -j16 --target lbm-gpu >> $O/bld.log 2>&1); say "build rc=$?"
B=/tmp/b0/lbm-gpu
for p in fp16c fp16s; do
  timeout 120 ncu -k regex:pull_kernel --launch-skip 20 --launch-count 1 --section SourceCounters \
    --metrics smsp__inst_executed.sum,gpu__time_duration.sum -o /tmp/src-$p -f \
    $B --size 256 --precision $p --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-src-$p.log 2>&1
  ncu --import /tmp/src-$p.ncu-rep --page source --csv --print-source sass > $O/src-$p.csv 2>$O/src-$p.err ||
    ncu --import /tmp/src-$p.ncu-rep --page source --csv > $O/src-$p.csv 2>>$O/src-$p.err
  ncu --import /tmp/src-$p.ncu-rep --page details --csv > $O/det-$p.csv 2>&1
done; say "source pages"
M=smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for d in 256x256x256 512x128x256 128x512x256; do
  timeout 100 ncu -k regex:"pull_kernel|aa_kernel|aa_pairs" --launch-skip 20 --launch-count 4 --metrics $M \
    $B --dims $d --precision fp16c,fp16s --kernel pull,aa --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$d.txt 2>&1
done; say "dims"
timeout 100 ncu -k regex:"pull_kernel" --launch-skip 20 --launch-count 1 --metrics sass__inst_executed_per_opcode \
  --print-metric-instances values $B --size 256 --precision fp16c --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/opc-fp16c.txt 2>&1
timeout 100 ncu -k regex:"pull_kernel" --launch-skip 20 --launch-count 1 --metrics sass__inst_executed_per_opcode \
  --print-metric-instances values $B --size 256 --precision fp16s --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/opc-fp16s.txt 2>&1
say "opcodes"
cuobjdump -sass $B > /tmp/all.sass 2>&1
python3 - /tmp/all.sass $O <<'PY'
import re,sys,subprocess
out={}; cur=None
for line in open(sys.argv[1]):
    m=re.match(r'\s+Function : (\S+)',line)
    if m:
        n=subprocess.run(['c++filt',m.group(1)],capture_output=True,text=True).stdout.strip()
        cur=None
        for p in ('fp16c','fp16s'):
            if n.startswith('void pull_kernel<gpu_%s, 0, 0, (gpu_lbm_variant)0>'%p): cur=p; out[p]=[n+'\n']
        continue
    if cur: out[cur].append(line)
for p,l in out.items(): open(sys.argv[2]+'/sass-pull-%s.txt'%p,'w').writelines(l)
PY
cp $R/.peers/s24-call1.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
