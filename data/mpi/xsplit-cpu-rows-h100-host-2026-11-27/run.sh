#!/bin/bash
# session 21, call 5 (the 16-core host of an H100 machine, GPU idle): the CPU's x split with the
# shorter x-split rows (C: HEAD) against the layout before (A: HEAD with 33841f0's layout.h),
# 2 ranks x 8 cores, 256^3, rounds alternated; states of both first
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off OMP_PROC_BIND=close OMP_PLACES=cores
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; mpiexec --version | head -1; } > $O/machine.txt 2>&1
mkdir -p /tmp/A && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/A && cp .peers/s21-layout-head.h /tmp/A/lbm/model/layout.h
CM="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/cC $CM > $O/bld-C.log 2>&1 && cmake --build /tmp/cC -j8 --target lbm-cpu >> $O/bld-C.log 2>&1; echo "C $?" > $O/bld-C.rc) &
(cmake -S /tmp/A -B /tmp/cA $CM > $O/bld-A.log 2>&1 && cmake --build /tmp/cA -j8 --target lbm-cpu >> $O/bld-A.log 2>&1; echo "A $?" > $O/bld-A.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
for b in A C; do
  mpiexec -np 2 --oversubscribe -x OMP_NUM_THREADS=2 /tmp/c$b/lbm-cpu --quiet-wait off --dims 130x20x18,64x24x22 --procs 1x1x1,2x1x1,1x1x2 \
    --precision sp,dp,fp16s --kernel pull,pull_nt --collision bgk,trt --geometry cavity,periodic --steps 9 --warmup 2 --reps 1 -o $O/state-$b.csv 2>>$O/err.txt
done; say states
for r in 1 2 3 4 5; do
  case $((r % 2)) in 0) ord="C A";; *) ord="A C";; esac
  for b in $ord; do
    left && timeout 90 mpiexec -np 2 --map-by slot:PE=8 --bind-to core -x OMP_NUM_THREADS=8 -x OMP_PROC_BIND -x OMP_PLACES \
      /tmp/c$b/lbm-cpu --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull_nt,pull --reps 5 --append -o $O/two-$b.csv 2>>$O/err.txt
  done; say "round $r"; pack
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
st = collections.defaultdict(set)
for b in ('A', 'C'):
    for r in csv.DictReader(open(f'{d}/state-{b}.csv')):
        st[(r['nx'], r['ny'], r['nz'], r['precision'], r['collision'], r['geometry'], r['steps'], r['reps'])].add((r['state_hash'], r['verified']))
print('state groups', len(st), 'one state each, verified:', sum(len(v) == 1 and next(iter(v))[1] == 'pass' for v in st.values()))
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
for b in ('A', 'C'):
    try: rs = list(csv.DictReader(open(f'{d}/two-{b}.csv')))
    except FileNotFoundError: continue
    v = collections.defaultdict(list)
    for r in rs: v[(r['precision'], r['kernel'], r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp'):
        for k in ('pull_nt', 'pull'):
            x, z = v.get((p, k, '2x1x1'), []), v.get((p, k, '1x1x2'), [])
            n = min(len(x), len(z))
            if n: print(b, p, k, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z),
                        f'x/z of medians {med(x)/med(z):.3f}', 'per round', ' '.join(f'{x[i]/z[i]:.3f}' for i in range(n)))
PY
cat $O/summary.txt; grep -v "energy" $O/err.txt | head -5
rm -f $O/bld-*.log; cp $R/.peers/s21-cpu16.sh $O/run.sh; pack; say total
