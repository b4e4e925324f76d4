#!/bin/bash
# session 11, call 2: --fmad=false for every CUDA file and the paired pull for fp16s only (working
# tree, "new") against f22f357 ("old", .peers/old) on one GPU: the GPU state baseline written
# again (state_hash_grid.sh --update gpu) and checked, the paired and one-cell pulls of one case
# in one state (odd and even pitches), every GPU ctest (distributed ones with 4 ranks sharing the
# GPU), three alternated timing rounds of pull and aa in every precision, ncu instruction counts
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-470}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j11 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM -DLBMR_MPI=OFF > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j5 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -o "fmad=false" /tmp/new/generated/build_info.h | head -1
(unset LBMR_ENERGY; timeout 150 bash tests/state_hash_grid.sh --update gpu /tmp/new/lbm-gpu > $O/hash-update.log 2>&1; say "hash update rc=$?"; tail -4 $O/hash-update.log)
cp tests/state_hashes_gpu.csv $O/state_hashes_gpu.csv
git diff --stat -- tests/state_hashes_gpu.csv 2>/dev/null | tail -1
HS="--dims 96x80x64,100x36x20,250x12x10,2x6x5,6x4x3,33x7x5,17x9x6 --pad 0,3 --align 0,32,128 --precision sp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 10 --warmup 4 --reps 1"
timeout 150 /tmp/new/lbm-gpu $HS -o $O/hash-new.csv 2>>$O/err-new.txt; say "hash new rc=$?"
timeout 100 /tmp/new/lbm-gpu --dims 200x12x10,100x9x7,64x5x4 --block 32,64,96,160 --precision fp16s --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 10 --warmup 4 --reps 1 -o $O/hashb-new.csv 2>>$O/err-new.txt; say "hashb new rc=$?"
python3 - $O > $O/hashes.txt 2>&1 <<'PY'
import csv, sys, collections
d = sys.argv[1]
for s in ('hash', 'hashb'):
    by = collections.defaultdict(set); n = bad = 0
    for r in csv.DictReader(open(f'{d}/{s}-new.csv')):
        by[(r['nx'], r['ny'], r['nz'], r['precision'], r['collision'], r['geometry'])].add(r['state_hash']); n += 1
        bad += r['verified'] != 'pass'
    split = [k for k, v in by.items() if len(v) > 1]
    print(s, n, 'rows,', len(by), 'cases,', len(split), 'cases with more than one state,', bad, 'not verified', split[:6])
PY
cat $O/hashes.txt
(cd /tmp/new && timeout 300 ctest -L gpu --timeout 200 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\*\*\*|Not Run|Total Test" $O/ctest-gpu.log)
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err-new.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 1) ord="old new";; 2) ord="new old";; 3) ord="old new";; esac
  for b in $ord; do
    left && { timeout 80 /tmp/$b/lbm-gpu --size 256,512 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 8 -o $O/t-$b-$r.csv 2>>$O/err-$b.txt; say "t $b $r rc=$?"; }
  done
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for b in new old; do for p in sp dp; do left && { timeout 60 ncu -k regex:pull --launch-skip 20 -c 1 --metrics $M /tmp/$b/lbm-gpu --size 256 --kernel pull --precision $p --collision bgk,mrt --warmup 24 --reps 1 --steps 2 -o /tmp/ncu-$b-$p.csv > $O/ncu-$b-$p.txt 2>&1; say "ncu $b $p rc=$?"; }; done; done
python3 - $O <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/t-*-*.csv')):
    b = f.split('/')[-1].split('-')[1]
    for r in csv.DictReader(open(f)):
        best[(r['nx'], r['kernel'], r['precision'], b)].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for key in sorted(set(k[:3] for k in best)):
    o, n = best.get(key + ('old',), []), best.get(key + ('new',), [])
    if o and n: print(*key, 'old', ' '.join(f'{v:.0f}' for v in o), '| new', ' '.join(f'{v:.0f}' for v in n), f'| {100*(max(n)/max(o)-1):+.2f}%')
PY
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "pull_kernel|gpu__time|inst_executed|issue_active|registers" $f | grep -v "==PROF==" | sed 's/(const T1.*//' | head -10; done
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "copy", $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -3 $O/err-new.txt
cp $R/.peers/s11-fmad.sh $O/run.sh; cp $R/.peers/change.patch $O/ 2>/dev/null
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
