#!/bin/bash
# session 16, final single-GPU call: the working tree (fluid_at's explicit branches, the GPU state
# grid in both layouts): every GPU ctest; then aa and pull at 256^3 and 512^3, three rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/fin -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/fin -j16 >> $O/bld.log 2>&1; say "build $?"
(cd /tmp/fin && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log; grep -E "state_hash_grid: gpu:|gpu_same_state: aa" $O/ctest-gpu.log | cut -c1-200)
/tmp/fin/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for r in 1 2 3; do
  case $r in 2) K=pull,aa;; *) K=aa,pull;; esac
  timeout 90 /tmp/fin/lbm-gpu --size 256,512 --precision sp,dp --kernel $K --reps 5 -o $O/t-$r.csv 2>>$O/err.txt; say "t $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; v = collections.defaultdict(list)
bw = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
for f in sorted(glob.glob(f'{d}/t-*.csv')):
    for r in csv.DictReader(open(f)):
        v[(r['precision'], int(r['nx']), r['kernel'])].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for k in sorted(v):
    B = 152 if k[0] == 'sp' else 304
    print(*k, ' '.join(f'{x:.0f}' for x in v[k]), f'{100*max(v[k])*B/1e3/bw[k[0]]:.1f}% of copy')
for p in ('sp', 'dp'):
    for n in (256, 512):
        print('aa/pull', p, n, f"{max(v[(p, n, 'aa')])/max(v[(p, n, 'pull')]):.3f}")
PY
cat $O/summary.txt; gzip -f $O/bld.log; cp $R/.peers/s16-final.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
