#!/bin/bash
# session 11: aa's cell-local half on sp two cells a thread (working tree, "new") against 27ca346
# ("old", .peers/old) on one GPU: the GPU same-state test and state grid, three alternated rounds
# of aa and pull, ncu of the local halves
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-420}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
(cd /tmp/new && timeout 150 ctest -R "lbm_gpu_same_state|state_hash_grid_gpu|vs_reference" -V > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|gpu_same_state:|CPU baseline" $O/ctest.log)
/tmp/new/stream-gpu --kernel copy --precision sp --reps 30 -o $O/copy.csv 2>>$O/err-new.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 1) ord="old new";; 2) ord="new old";; 3) ord="old new";; esac
  for b in $ord; do
    left && { timeout 80 /tmp/$b/lbm-gpu --size 256,512 --precision sp,dp,fp16s --kernel aa,pull --reps 10 -o $O/t-$b-$r.csv 2>>$O/err-$b.txt; say "t $b $r rc=$?"; }
  done
done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread
for b in new old; do left && { timeout 60 ncu -k regex:aa_ --launch-skip 20 -c 2 --metrics $M /tmp/$b/lbm-gpu --size 256 --kernel aa --precision sp --warmup 24 --reps 1 --steps 2 -o /tmp/ncu-$b.csv > $O/ncu-$b.txt 2>&1; say "ncu $b rc=$?"; }; done
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
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "aa_|gpu__time|dram__|warps_active|inst_executed|registers" $f | grep -v "==PROF==" | sed 's/(T1 \*.*//' | head -12; done
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "copy", $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
rm -f $O/bld-*.log; cp $R/.peers/s11-aa.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
