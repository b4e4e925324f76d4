#!/bin/bash
# session 15: the interleaved layout (HEAD) beside FluidX3D 8986874 (FP32, FP16S, FP16C builds of
# its BENCHMARK setup, 256^3, loop 300 x 10 steps; built by hand in .peers/fx, not committed),
# three alternated rounds; aa at 512^3 with 256 and 512 threads a block in each round
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
ICD=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1 /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/local/nvidia/lib/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -z "$ICD" ] && ICD=$(find / -name "libnvidia-opencl.so*" 2>/dev/null | head -1)
mkdir -p /tmp/icd && echo "$ICD" > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
ldconfig -p | grep -q "libOpenCL.so.1" || export LD_LIBRARY_PATH=$R/.peers/fx/lib
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; echo "icd $ICD"; echo "LD_LIBRARY_PATH ${LD_LIBRARY_PATH:-}"; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 --target lbm-gpu stream-gpu >> $O/bld-new.log 2>&1; say "build $?"
fx() { for v in fp32 fp16s fp16c; do (cd $R/.peers/fx/$v && timeout 60 bin/FluidX3D > /tmp/fx-$v.txt 2>&1; echo "round $1 $v: $(tr '\r' '\n' < /tmp/fx-$v.txt | grep -a 'Peak MLUPs' | tail -1 | tr -s ' ')" >> $O/fluidx3d.txt); done; say "fx $1"; }
ours() { timeout 90 /tmp/new/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 10 -o $O/t256-$1.csv 2>>$O/err.txt; timeout 60 /tmp/new/lbm-gpu --size 512 --precision sp,dp,fp16s --kernel pull --reps 5 -o $O/t512-$1.csv 2>>$O/err.txt; timeout 60 /tmp/new/lbm-gpu --size 512 --kernel aa --precision sp,dp,fp16s --block 256,512 --reps 5 -o $O/aa512-$1.csv 2>>$O/err.txt; say "ours $1"; }
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
ours 1; fx 1; fx 2; ours 2; left && ours 3; left && fx 3
cat $O/fluidx3d.txt
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
bw = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
for f in sorted(glob.glob(f'{d}/t*-*.csv')) + sorted(glob.glob(f'{d}/aa512-*.csv')):
    for r in csv.DictReader(open(f)):
        best[(int(r['nx']), r['kernel'], r['precision'], int(r['threads']))].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for k in sorted(best):
    B = {'sp': 152, 'dp': 304}.get(k[2], 76); c = bw['fp16s' if B == 76 else k[2]]
    print(*k, ' '.join(f'{v:.0f}' for v in best[k]), f'{100*max(best[k])*B/1e3/c:.1f}% of copy')
PY
cat $O/summary.txt; head -c 3000 /tmp/fx-fp32.txt | tr '\r' '\n' | grep -v "^ *$" | head -40 > $O/fx-fp32-head.txt
tail -3 $O/err.txt; rm -f $O/bld-*.log
cp $R/.peers/s15-fx2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
