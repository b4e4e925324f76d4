#!/bin/bash
# session 18, call 7: the committed rule (d3b4962: sp x-split pieces paired) on two H200s: every
# GPU ctest, the distributed same-state ctests, x against z once more (two rounds)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-450}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B $R/build-xv -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build $R/build-xv -j32 >> $O/bld.log 2>&1; say "build rc=$?"
(cd $R/build-xv && timeout 300 ctest -L gpu --timeout 200 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log)
export LBMR_ENERGY=off
B=$R/build-xv
for r in 1 2; do
  left && timeout 150 mpiexec -np 2 $B/lbm-gpu --size 512 --precision sp,dp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s.csv 2>>$O/err.txt
  left && timeout 150 mpiexec -np 2 $B/lbm-gpu --local 256 --precision sp,dp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w.csv 2>>$O/err.txt
  say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
med = lambda a: sorted(a)[len(a)//2]
for f in ('s', 'w'):
    v = collections.defaultdict(list)
    for r in csv.DictReader(open(f'{d}/{f}.csv')):
        if r['verified'] != 'pass': print('NOT VERIFIED', f, r['precision'], r['procs'])
        v[(r['precision'], r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp', 'fp16s'):
        x, z = v.get((p, '2x1x1')), v.get((p, '1x1x2'))
        if x and z: print({'s': 'strong 512^3', 'w': 'weak 256^3'}[f], p, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z), f'x/z {med(x)/med(z):.3f}')
PY
cat $O/summary.txt
tail -3 $O/err.txt | grep -v energy; gzip -f $O/bld.log; cp $R/.peers/s18-xv.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
