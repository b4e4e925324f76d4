#!/bin/bash
# session 17: x faces updated into their buffers (LBMR_X_FACES=update) against the x shells (the
# default) and the z split, two GPUs, strong 512^3, three rounds (HEAD 19b40e6)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B $R/build-x2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build $R/build-x2 -j32 --target lbm-gpu >> $O/bld.log 2>&1; say "build rc=$?"
B=$R/build-x2
export LBMR_ENERGY=off
S="--dims 96x40x36,70x22x18 --precision sp,dp --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 9 --warmup 2 --reps 1"
timeout 60 mpiexec -np 2 $B/lbm-gpu $S --procs 1x1x2 -o $O/state-z.csv 2>>$O/err.txt
for m in shells update; do timeout 60 mpiexec -np 2 -x LBMR_X_FACES=$m $B/lbm-gpu $S --procs 2x1x1 -o $O/state-$m.csv 2>>$O/err.txt; done; say states
G="--size 512 --precision sp,dp --kernel pull --reps 5"
for r in 1 2 3; do
  case $r in 2) ord="update z shells";; 3) ord="z shells update";; *) ord="shells update z";; esac
  for m in $ord; do
    case $m in z) timeout 100 mpiexec -np 2 $B/lbm-gpu $G --procs 1x1x2 -o $O/z-$r.csv 2>>$O/err.txt;;
      *) timeout 100 mpiexec -np 2 -x LBMR_X_FACES=$m $B/lbm-gpu $G --procs 2x1x1 -o $O/$m-$r.csv 2>>$O/err.txt;; esac
  done; say "round $r"
done
tail -3 $O/err.txt
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]
key = lambda r: (r['nx'], r['ny'], r['nz'], r['precision'], r['collision'], r['geometry'])
st = collections.defaultdict(set)
for f in glob.glob(f'{d}/state-*.csv'):
    for r in csv.DictReader(open(f)): st[key(r)].add((r['state_hash'], r['verified']))
print('states: cases', len(st), 'one state, verified, on all three:', sum(1 for v in st.values() if len(v) == 1 and next(iter(v))[1] == 'pass'))
v = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/*-[123].csv')):
    m = f.split('/')[-1].split('-')[0]
    for r in csv.DictReader(open(f)): v[(r['precision'], m)].append((float(r['mflups_med']), r['comm_s'], r['verified']))
for k in sorted(v): print(*k, ' '.join(f'{x:.0f}' for x, *_ in v[k]), 'comm_s', v[k][0][1], ','.join(sorted({x[2] for x in v[k]})))
med = lambda a: sorted(a)[len(a)//2]
for p in ('sp', 'dp'):
    z = [x for x, *_ in v[(p, 'z')]]
    for m in ('shells', 'update'):
        x = [y for y, *_ in v[(p, m)]]
        if x and z: print('x/z', p, m, f'{med(x)/med(z):.3f}')
PY
cat $O/summary.txt; gzip -f $O/bld.log; cp $R/.peers/s17-x2b.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
