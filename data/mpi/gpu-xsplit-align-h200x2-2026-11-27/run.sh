#!/bin/bash
# session 17: x splits on two GPUs with rows aligned to 32, 64 and 128 bytes (the x ghost line's
# padding: 272, 288, 320 cells for 256-cell rows sp), against the z split; one GPU at one rank's
# share with and without 64 cells of padding; the distributed same-state ctests (HEAD bcad660)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B $R/build-x2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build $R/build-x2 -j32 >> $O/bld.log 2>&1; say "build rc=$?"
B=$R/build-x2
(cd $B && timeout 150 ctest -R "mpi_same_state" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
# states of the x split at each alignment against the z split's (small, every collision)
left && { timeout 60 mpiexec -np 2 $B/lbm-gpu --dims 96x40x36,70x22x18 --precision sp,dp --collision bgk,trt --geometry cavity,periodic --kernel pull --procs 2x1x1,1x1x2 --align 32,64,128 --steps 9 --warmup 2 --reps 1 -o $O/state.csv 2>>$O/err.txt; say "state rc=$?"; }
left && { $B/lbm-gpu --size 512 --precision sp,dp --kernel pull --reps 5 -o $O/single.csv 2>>$O/err.txt; say "single rc=$?"; }
left && { $B/lbm-gpu --dims 256x512x512 --precision sp,dp --kernel pull --align 128 --pad 0,64 --reps 5 -o $O/share.csv 2>>$O/err.txt; say "share rc=$?"; }
G="--size 512 --precision sp,dp --kernel pull --reps 5"
for r in 1 2 3; do
  a="32,64,128"; [ $r = 2 ] && a="128,64,32"
  if [ $r = 2 ]; then
    left && timeout 100 mpiexec -np 2 $B/lbm-gpu $G --procs 1x1x2 -o $O/z-$r.csv 2>>$O/err.txt
    left && timeout 150 mpiexec -np 2 $B/lbm-gpu $G --procs 2x1x1 --align $a -o $O/x-$r.csv 2>>$O/err.txt
  else
    left && timeout 150 mpiexec -np 2 $B/lbm-gpu $G --procs 2x1x1 --align $a -o $O/x-$r.csv 2>>$O/err.txt
    left && timeout 100 mpiexec -np 2 $B/lbm-gpu $G --procs 1x1x2 -o $O/z-$r.csv 2>>$O/err.txt
  fi
  say "round $r"
done
tail -3 $O/err.txt
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: (r['nx'], r['ny'], r['nz'], r['precision'], r['collision'], r['geometry'])
st = collections.defaultdict(set)
for r in rows('state.csv'): st[key(r)].add((r['state_hash'], r['verified']))
print('states: cases', len(st), 'with one state, all verified:', sum(1 for v in st.values() if len(v) == 1 and next(iter(v))[1] == 'pass'))
for f in ('single', 'share'):
    for r in rows(f'{f}.csv'): print(f, r['precision'], r['nx'], 'pitch', r['pitch'], f"{float(r['mflups_med']):.0f}", r['verified'])
v = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/[xz]-*.csv')):
    for r in csv.DictReader(open(f)):
        v[(r['precision'], r['procs'], r['align'])].append((float(r['mflups_med']), r['comm_s'], r['pitch'], r['verified']))
for k in sorted(v): print(*k, 'pitch', v[k][0][2], ' '.join(f'{m:.0f}' for m, *_ in v[k]), 'comm_s', v[k][0][1], ','.join(sorted({x[3] for x in v[k]})))
med = lambda a: sorted(a)[len(a)//2]
for p in ('sp', 'dp'):
    z = [m for (pp, pr, al), l in v.items() if pp == p and pr == '1x1x2' for m, *_ in l]
    for al in ('32', '64', '128'):
        x = [m for m, *_ in v.get((p, '2x1x1', al), [])]
        if x and z: print('x/z', p, 'align', al, f'{med(x)/med(z):.3f}')
PY
cat $O/summary.txt; gzip -f $O/bld.log; cp $R/.peers/s17-x2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
