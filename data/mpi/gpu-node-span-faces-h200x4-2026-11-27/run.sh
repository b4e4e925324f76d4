#!/bin/bash
# session 21, call 4 (four H200s): the committed node study with 8d279f8 (x-split rows without the
# ghost's unit, the face kernel one block an SM), the 8-rank same state (two ranks a GPU), one
# round of strong 512^3 x / z on two GPUs; the CPU x split on the 64-core host, 2 ranks x 16
# cores, this tree (C) against HEAD's layout before (A), alternated
set -u
R=$PWD; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $OUT/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT node eight alt cpu log.txt 2>/dev/null; }
O=$OUT/node E8=$OUT/eight A=$OUT/alt C=$OUT/cpu; mkdir -p $O $E8 $A $C
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version --format=csv; nvidia-smi topo -m; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; } > $O/machine.txt 2>&1
mkdir -p /tmp/A && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/A && cp .peers/s21-layout-head.h /tmp/A/lbm/model/layout.h
(cmake -S /tmp/A -B /tmp/cA -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF > $C/bld-A.log 2>&1 && cmake --build /tmp/cA -j8 --target lbm-cpu >> $C/bld-A.log 2>&1; echo "A $?" > $C/bld-A.rc) &
LBMR_VERSION=0.1.0-${HASH:-unknown} STUDY_NODE_PRECISIONS=sp,dp,fp16s,fp16c STUDY_PARTS=node \
  STUDY_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90 -DLBMR_LIKWID=OFF" \
  STUDY_CTEST_ARGS="-R mpi|default_align" BUILD_DIR=/tmp/study timeout 330 bash data/scripts/mpi-study.sh $O
say "study rc=$?"; wait; cat $C/bld-A.rc
grep -E "tests passed|Failed|\*\*\*" $O/ctest.log | head; gzip -f $O/build.log 2>/dev/null; pack
B=/tmp/study; export LBMR_ENERGY=off
G8=1x1x1,1x1x8,1x2x4,1x4x2,1x8x1,2x1x4,2x2x2,2x4x1,4x1x2,4x2x1,8x1x1
left && timeout 100 mpiexec -np 8 $B/lbm-gpu --dims 96x80x64 --procs $G8 --precision sp,dp,fp16s,fp16c \
  --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2 \
  -o $E8/same-state-8.csv > $E8/err.txt 2>&1
say "eight ranks rc=$?"
$B/tests/csv_check $E8/same-state-8.csv --bench lbm --backend gpu --same-state 1 > $E8/check.txt 2>&1; say "eight check rc=$?"; pack
left && timeout 80 mpiexec -np 2 $B/lbm-gpu --size 512 --procs 2x1x1,1x1x2 --precision sp,dp,fp16s,fp16c --kernel pull --reps 3 -o $A/s-C.csv 2>>$A/err.txt; say "strong x/z"
lscpu > $C/cpu.txt 2>&1
for r in 1 2 3; do
  case $r in 2) ord="C A";; *) ord="A C";; esac
  for b in $ord; do
    bin=$B/lbm-cpu; [ $b = A ] && bin=/tmp/cA/lbm-cpu
    left && OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores timeout 60 mpiexec -np 2 --map-by slot:PE=16 --bind-to core -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES $bin --size 256 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull,pull_nt --reps 5 --append -o $C/x-$b.csv 2>>$C/err.txt
  done; say "cpu round $r"
done
python3 - $OUT > $OUT/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
try:
    rs = list(csv.DictReader(open(f'{d}/alt/s-C.csv')))
    v = {(r['precision'], r['procs']): float(r['mflups_med']) for r in rs}
    for p in ('sp', 'dp', 'fp16s', 'fp16c'):
        if (p, '2x1x1') in v: print('strong 512^3 x/z', p, f"{v[(p, '2x1x1')]:.0f} / {v[(p, '1x1x2')]:.0f} = {v[(p, '2x1x1')] / v[(p, '1x1x2')]:.4f}", [r['x_faces'] for r in rs if r['precision'] == p and r['procs'] == '2x1x1'])
except FileNotFoundError: pass
for b in ('A', 'C'):
    try: rs = list(csv.DictReader(open(f'{d}/cpu/x-{b}.csv')))
    except FileNotFoundError: continue
    v = collections.defaultdict(list)
    for r in rs:
        if r['verified'] != 'pass': print('NOT VERIFIED cpu', b, r['procs'])
        v[(r['precision'], r['kernel'], r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp'):
        for k in ('pull', 'pull_nt'):
            x, z = v.get((p, k, '2x1x1'), []), v.get((p, k, '1x1x2'), [])
            if x and z: print('cpu', b, p, k, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z), f'x/z {med(x)/med(z):.4f}')
PY
cat $OUT/summary.txt; cat $O/node-summary.txt; tail -3 $E8/check.txt
cp $R/.peers/s21-final.sh $OUT/; pack; say total
