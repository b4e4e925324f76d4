#!/bin/bash
# session 26, call 3 (the H100 machine): the final tree (MPI and CUDA): ctest -L gpu (its GPU
# state baseline was written on an H200 in call 1); then the CPU's x split against the z split on
# the 16-core host, 2 ranks x 8 cores, 256^3, base (0decd49) and new alternated, three rounds.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; mpiexec --version | head -1; } > $O/machine.txt 2>&1
S=$R/.peers/s26
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/cbase -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF > $O/bld-base.log 2>&1 &&
  cmake --build /tmp/cbase -j4 --target lbm-cpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=new; cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j12 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
(cd /tmp/bnew && timeout 250 ctest -L gpu --timeout 200 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
/tmp/bnew/tests/test_storage16_gpu > $O/test-storage16-gpu.txt 2>&1; say "test_storage16_gpu rc=$?"
export OMP_PROC_BIND=close OMP_PLACES=cores
ln -sf /tmp/bnew /tmp/cnew
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 90 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES -x LBMR_ENERGY \
      /tmp/c$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull_nt,pull --reps 5 --append -o $O/two-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
for b in ('base', 'new'):
    try: rs = list(csv.DictReader(open(f'{d}/two-{b}.csv')))
    except FileNotFoundError: continue
    print(b, 'verified', set(r['verified'] for r in rs))
    v = collections.defaultdict(list)
    for r in rs: v[(r['precision'], r['kernel'], r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp'):
        for k in ('pull_nt', 'pull'):
            x, z = v.get((p, k, '2x1x1'), []), v.get((p, k, '1x1x2'), [])
            n = min(len(x), len(z))
            if n: print(b, p, k, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z),
                        f'x/z of medians {med(x)/med(z):.3f}', 'per round', ' '.join(f'{x[i]/z[i]:.3f}' for i in range(n)))
PY
cat $O/summary.txt; grep -v "energy" $O/err.txt | sort | uniq -c | head -5
rm -f $O/bld-*.log; cp $S/call3.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
