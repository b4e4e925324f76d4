#!/bin/bash
# session 11, check call: the review's mends (takes_pairs: the paired pull only where the block
# fits, else one cell a thread; pair_word for both paired kernels; gpu_same_state.sh with pull;
# state_hash_grid.sh's stricter CPU comparison): every GPU ctest, the block sizes the paired
# kernel cannot take, a timing sanity row
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld.log 2>&1; say "build rc=$?"
(cd /tmp/new && timeout 240 ctest -L gpu --timeout 150 -V > $O/ctest-gpu.log 2>&1; say "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\*\*\*|Total Test|CPU baseline|gpu_same_state:|state_hash_grid:" $O/ctest-gpu.log | tail -12)
export LBMR_ENERGY=off
/tmp/new/lbm-gpu --dims 17x9x6,64x8x8 --precision sp,fp16s --kernel pull --block 1024 --collision trt --geometry channel,cavity --steps 10 --warmup 4 --reps 1 -o $O/block1024.csv 2>$O/block1024.err; say "block 1024 rc=$?"
/tmp/new/lbm-gpu --dims 17x9x6,64x8x8 --precision sp,fp16s --kernel pull --block 128 --collision trt --geometry channel,cavity --steps 10 --warmup 4 --reps 1 -o $O/block128.csv 2>>$O/block1024.err; say "block 128 rc=$?"
python3 - $O <<'PY'
import csv, sys
d = sys.argv[1]
k = lambda r: (r['nx'], r['ny'], r['nz'], r['precision'], r['collision'], r['geometry'])
a = {k(r): (r['state_hash'], r['threads'], r['occupancy'], r['verified']) for r in csv.DictReader(open(f'{d}/block1024.csv'))}
b = {k(r): (r['state_hash'], r['threads'], r['occupancy'], r['verified']) for r in csv.DictReader(open(f'{d}/block128.csv'))}
for x in sorted(a): print(x, '1024:', a[x][1:], '128:', b[x][1:], 'same state' if a[x][0] == b[x][0] else 'DIFFERENT')
PY
/tmp/new/lbm-gpu --size 256 --precision sp,fp16s --kernel pull --reps 10 -o $O/t256.csv 2>>$O/err.txt; say "t256 rc=$?"
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print $h["nx"], $h["precision"], $h["threads"], $h["occupancy"], $h["mflups"], $h["verified"]}' $O/t256.csv
rm -f $O/bld.log; cp $R/.peers/s11-check.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
