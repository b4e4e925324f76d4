#!/bin/bash
# coordinator, session 4: pull and aa 16-bit pairs (working tree) against bb24974 (base2):
# GPU tests, the same states (16-bit, sp/dp, 2 ranks), sanitizers, timing alternated, ncu
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; ROUNDS=${ROUNDS:-3}
finish() { tar czf $OUT/s4-pairs2-$(nvidia-smi --query-gpu=name --format=csv,noheader | tr -dc 'A-Za-z0-9').tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
cfg() { cmake -S $1 -B $2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF "${@:3}"; }
(LBMR_VERSION=$(cat .peers/version-new) cfg $R /tmp/new > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j12 >> $O/bld-new.log 2>&1; echo "new build rc=$? $((SECONDS-T0)) s") &
(LBMR_VERSION=$(cat .peers/version-base2) cfg $R/.peers/base2-src /tmp/base -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 && cmake --build /tmp/base -j4 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base build rc=$? $((SECONDS-T0)) s") &
wait
if [ "${TESTS:-1}" = 1 ]; then
(cd /tmp/new && timeout 200 ctest -L gpu --output-on-failure > $O/ctest-gpu.log 2>&1; echo "ctest rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|Not Run|\*\*\*|pairs_same_state:" $O/ctest-gpu.log)
export LBMR_ENERGY=off
G="--precision fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 8"
for b in base new; do
  /tmp/$b/lbm-gpu --dims 12x12x12,17x9x6,20x9x6,33x7x5,64x8x8 --kernel pull,aa --pad 0,3 --align 0,32,128 $G -o $O/states-$b.csv 2>/dev/null; echo "states $b rc=$?"
  /tmp/$b/lbm-gpu --dims 17x9x6,64x8x8 --kernel pull,aa --block 32,64,96 $G -o $O/states-blk-$b.csv 2>/dev/null; echo "states blk $b rc=$?"
done
for f in states states-blk; do
python3 - $O/$f-base.csv $O/$f-new.csv <<'PY'
import csv,sys
def load(f):
    d={}
    for r in csv.DictReader(open(f)):
        k=tuple(r[c] for c in ('kernel','collision','geometry','precision','nx','ny','nz','pad','align','blocks'))
        d[k]=(r['state_hash'],r['verified'])
    return d
a,b=load(sys.argv[1]),load(sys.argv[2])
diff=[k for k in a if k not in b or a[k][0]!=b[k][0]]
bad=[k for k in b if b[k][1]!='pass']
print(f"{sys.argv[2].split('/')[-1]}: {len(a)} base rows, {len(b)} new rows, {len(diff)} differ, {len(bad)} not verified")
for k in diff[:5]: print("  differ", k, a[k], b.get(k))
PY
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 90 mpiexec --oversubscribe -np 2 /tmp/new/lbm-gpu --dims 200x14x10,96x40x24 --procs 1x1x1,2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull --collision bgk,trt --geometry cavity,periodic --steps 6 --reps 2 --warmup 3 -o $O/mpi-same-state.csv 2> $O/mpi.err; echo "mpi run rc=$?"
/tmp/new/tests/csv_check $O/mpi-same-state.csv --bench lbm --backend gpu --same-state 1; echo "mpi same-state rc=$? rows $(($(wc -l < $O/mpi-same-state.csv)-1))"
compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 33x7x5,64x8x8 --kernel pull,aa $G -o /tmp/cs1.csv > $O/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -1 $O/memcheck.txt
compute-sanitizer --tool initcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 33x7x5,64x8x8 --kernel pull --precision fp16s,fp16c --geometry cavity,periodic --warmup 2 --reps 1 --steps 8 -o /tmp/cs2.csv > $O/initcheck.txt 2>&1; echo "initcheck rc=$?"; tail -1 $O/initcheck.txt
fi
export LBMR_ENERGY=off
/tmp/new/stream-gpu --kernel copy --precision sp,fp16s --reps 30 -o $O/stream.csv 2>/dev/null
for r in $(seq $ROUNDS); do for b in base new; do /tmp/$b/lbm-gpu --size 256,512 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 10 -o $O/t-$b-$r.csv 2>/dev/null; echo "$b $r rc=$? $((SECONDS-T0)) s"; done
  /tmp/new/lbm-gpu --size 256,512 --kernel pull --precision sp,dp --block 256 --reps 10 -o $O/blk256-$r.csv 2>/dev/null; echo "blk256 $r rc=$?"; done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["precision"], "block256", $h["mflups"], $h["verified"]}' $O/blk256-*.csv | sed "s|$O/||"
timeout 60 ncu -k regex:aa_pairs_kernel --launch-skip 20 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --metrics smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active /tmp/new/lbm-gpu --size 256 --kernel aa --precision fp16s --warmup 80 --reps 1 --steps 2 -o /tmp/n.csv > $O/ncu-aa-pairs-fp16s.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Achieved Occupancy|Registers Per|issue_active|pipe_alu" $O/ncu-aa-pairs-fp16s.txt
python3 - $O <<'PY'
import csv,glob,sys,collections
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/t-*.csv')):
    b=f.split('/t-')[1].split('-')[0]
    for r in csv.DictReader(open(f)): d[(r['nx'],r['kernel'],r['precision'],b)].append(float(r['mflups'])); assert r['verified']=='pass'
for k in sorted(set(k[:3] for k in d)):
    o,n=d[k+('base',)],d[k+('new',)]
    print(*k, 'base', ' '.join('%.0f'%v for v in o), '| new', ' '.join('%.0f'%v for v in n), '| %+.1f%%'%(100*(max(n)/max(o)-1)))
for r in csv.DictReader(open(sys.argv[1]+'/stream.csv')): print('stream', r['precision'], r['bw_dram_GBs'])
PY
