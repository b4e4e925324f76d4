#!/bin/bash
# session 16: x splits against z splits on two GPUs with the interleaved rows (1c93382's GPU code):
# the distributed same-state ctests, one GPU at 512^3, then strong 512^3 2x1x1 / 1x1x2 with overlap
# on and off in three alternated rounds, sp and dp, pull; one weak round at 256^3 a GPU
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-420}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build /tmp/new -j32 >> $O/bld.log 2>&1; say "build rc=$?"
B=/tmp/new
(cd $B && timeout 150 ctest -R "mpi_same_state" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
$B/lbm-gpu --size 512 --precision sp,dp --kernel pull --reps 5 -o $O/single.csv 2>>$O/err.txt; say "single rc=$?"
G="--size 512 --precision sp,dp --kernel pull --reps 5"
for r in 1 2 3; do
  o="2x1x1,1x1x2"; v="on,off"; [ $r = 2 ] && { o="1x1x2,2x1x1"; v="off,on"; }
  left && { timeout 120 mpiexec -np 2 $B/lbm-gpu $G --procs $o --overlap $v -o $O/strong-$r.csv 2>>$O/err.txt; say "strong round $r rc=$?"; }
done
left && { timeout 90 mpiexec -np 2 $B/lbm-gpu --local 256 --precision sp,dp --kernel pull --reps 5 --procs 2x1x1,1x1x2 -o $O/weak.csv 2>>$O/err.txt; say "weak rc=$?"; }
left && { $B/lbm-gpu --size 256 --precision sp,dp --kernel pull --reps 5 -o $O/single256.csv 2>>$O/err.txt; say "single256 rc=$?"; }
tail -3 $O/err.txt
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; v = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/*.csv')):
    n = f.split('/')[-1][:-4]
    for r in csv.DictReader(open(f)):
        v[(n.rstrip('0123456789-'), r['precision'], r.get('procs', '') or '1x1x1', r.get('overlap', ''))].append((float(r['mflups_med']), r.get('comm_s', ''), r['verified']))
for k in sorted(v):
    print(*k, ' '.join(f'{m:.0f}' for m, _, _ in v[k]), 'comm_s', v[k][0][1], 'verified', ','.join(sorted({x for _, _, x in v[k]})))
for p in ('sp', 'dp'):
    for ov in ('on', 'off'):
        x = [m for m, _, _ in v.get(('strong', p, '2x1x1', ov), [])]; z = [m for m, _, _ in v.get(('strong', p, '1x1x2', ov), [])]
        if x and z: print('x/z', p, ov, 'rounds', ' '.join(f'{a/b:.3f}' for a, b in zip(x, z)), 'medians', f'{sorted(x)[len(x)//2]/sorted(z)[len(z)//2]:.3f}')
PY
cat $O/summary.txt; gzip -f $O/bld.log; cp $R/.peers/s16-x2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
