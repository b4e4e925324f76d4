#!/bin/bash
# session 15: --layout soa,rows on lbm-gpu (working tree): every GPU ctest, both layouts in one
# binary at 256^3 and 512^3, three rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld.log 2>&1; say "build $?"
(cd /tmp/new && timeout 240 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log; grep -E "^[0-9]+: gpu_same_state|gpu_same_state:" $O/ctest-gpu.log | tail -2)
(cd /tmp/new && ctest -R lbm_gpu_same_state -V 2>&1 | grep "gpu_same_state:" | tail -2)
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2 3; do
  case $r in 2) L=rows,soa;; *) L=soa,rows;; esac
  timeout 120 /tmp/new/lbm-gpu --size 256,512 --precision sp,dp,fp16s --kernel pull,aa --layout $L --reps 5 -o $O/t-$r.csv 2>>$O/err.txt; say "t $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
bw = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
for f in sorted(glob.glob(f'{d}/t-*.csv')):
    for r in csv.DictReader(open(f)):
        best[(int(r['nx']), r['kernel'], r['precision'], r['layout'])].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for k in sorted(best):
    B = {'sp': 152, 'dp': 304}.get(k[2], 76); c = bw['fp16s' if B == 76 else k[2]]
    print(*k, ' '.join(f'{v:.0f}' for v in best[k]), f'{100*max(best[k])*B/1e3/c:.1f}% of copy')
PY
cat $O/summary.txt; tail -2 $O/err.txt
gzip -f $O/bld.log; cp $R/.peers/s15-layout.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
