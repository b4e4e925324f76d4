#!/bin/bash
# session 30, call 6 (four H200s): weak and strong scaling with the paired box kernel's base
# pointers (the tree at HEAD), sp, dp, fp16s; the same state over four ranks.
set -u
R=$PWD; O=$OUT/r6; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/b6 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b6 -j64 --target lbm-gpu csv_check >> $O/bld.log 2>&1; say "build rc=$?"
B=/tmp/b6/lbm-gpu
timeout 60 mpiexec -np 4 $B --dims 40x24x20,70x18x14 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --procs 1x1x1,1x2x2,2x2x1,1x1x4,4x1x1,2x1x2 --steps 6 --warmup 2 --reps 1 -o $O/state.csv 2>>$O/err.txt
say "state rc=$? $(/tmp/b6/csv_check $O/state.csv --bench lbm --backend gpu --same-state 1 2>&1 | tail -1)"
for r in 1 2; do
  left && timeout 120 mpiexec -np 4 $B --local 256 --procs 1x1x1,1x2x2,2x2x1,1x1x4 --precision fp16s,sp,dp --kernel pull --reps 5 --warmup 20 --append -o $O/weak.csv 2>>$O/err.txt; say "weak $r rc=$?"
done
left && timeout 100 mpiexec -np 4 $B --dims 1024x1024x256 --procs 1x1x1 --precision fp16s,sp --kernel pull --reps 3 --append -o $O/strong-share.csv 2>>$O/err.txt; say "share rc=$?"
left && timeout 150 mpiexec -np 4 $B --size 1024 --procs 1x2x2,2x2x1 --precision fp16s,sp --kernel pull --reps 3 --append -o $O/strong.csv 2>>$O/err.txt; say "strong rc=$?"
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, os, collections
d = sys.argv[1]
best = collections.defaultdict(list)
for f in ('weak.csv', 'strong-share.csv', 'strong.csv'):
    if not os.path.exists(f'{d}/{f}'): continue
    for r in csv.DictReader(open(f'{d}/{f}')):
        best[(f, r['precision'], r['procs'])].append((float(r['mflups']), r['efficiency'], r['verified']))
for k in sorted(best):
    v = best[k]
    print(*k, 'best %.0f' % max(a for a, e, ok in v), 'eff(col) ' + ' '.join(e[:6] for a, e, ok in v), ' '.join(sorted(set(ok for a, e, ok in v))))
one = {k[1]: max(a for a, e, ok in v) for k, v in best.items() if k[0] == 'weak.csv' and k[2] == '1x1x1'}
for k, v in sorted(best.items()):
    if k[0] == 'weak.csv' and k[2] != '1x1x1':
        print('weak best/best', k[1], k[2], '%.3f' % (max(a for a, e, ok in v) / (4 * one[k[1]])))
share = {k[1]: max(a for a, e, ok in v) for k, v in best.items() if k[0] == 'strong-share.csv'}
for k, v in sorted(best.items()):
    if k[0] == 'strong.csv' and k[1] in share:
        print('strong 1024^3 against 4 x one GPU of the share', k[1], k[2], '%.3f' % (max(a for a, e, ok in v) / (4 * share[k[1]])))
PY
cat $O/summary.txt; tail -n 3 $O/err.txt
cp $R/.peers/s30/call6.sh $O/
cd $OUT && tar czf r6.tgz r6 && rm -rf r6
