#!/bin/bash
# session 8, call 5: pull's plain-offset warps, three forms (new: __ldg loads; v3: plain loads;
# v4: plain loads and stores through direction pointers) against HEAD ("old") on one GPU
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
B=(old new v3 v4); declare -A SRC=([old]=$R/.peers/old [new]=$R [v3]=$R/.peers/v3 [v4]=$R/.peers/v4)
for b in "${B[@]}"; do
  (LBMR_VERSION=$b cmake -S ${SRC[$b]} -B /tmp/$b $CM > $O/bld-$b.log 2>&1 && cmake --build /tmp/$b -j8 --target lbm-gpu stream-gpu >> $O/bld-$b.log 2>&1; echo "$b $?" > $O/bld-$b.rc) &
done
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
HS="--dims 96x80x64,100x36x20 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 20 --warmup 3 --reps 1"
for b in "${B[@]}"; do timeout 120 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err.txt; done; say hashes
python3 - $O/hash-old.csv $O/hash-new.csv $O/hash-v3.csv $O/hash-v4.csv > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
k = lambda r: (r['nx'], r['ny'], r['precision'], r['collision'], r['geometry'])
rows = [{k(r): r['state_hash'] for r in csv.DictReader(open(f))} for f in sys.argv[1:]]
for f, h in zip(sys.argv[2:], rows[1:]):
    diff = [x for x in rows[0] if rows[0][x] != h.get(x)]
    print(f.split('/')[-1], len(h), 'rows,', len(diff), 'differ from old', diff[:3])
PY
cat $O/hashes.txt
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 1) ord="old new v3 v4";; 2) ord="v4 v3 new old";; 3) ord="new v4 old v3";; esac
  for b in $ord; do
    left && { timeout 60 /tmp/$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull --reps 10 -o $O/t256-$b-$r.csv 2>>$O/err.txt; say "t256 $b $r rc=$?"; }
    left && { timeout 60 /tmp/$b/lbm-gpu --size 512 --precision sp,fp16s --kernel pull --reps 10 -o $O/t512-$b-$r.csv 2>>$O/err.txt; say "t512 $b $r rc=$?"; }
  done
done
for b in v3 v4; do
  left && { timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/$b/lbm-gpu --dims 96x20x18,70x9x7 --precision sp,fp16s --geometry cavity,channel,periodic --kernel pull --steps 4 --warmup 2 --reps 1 -o $O/san-$b.csv > $O/san-$b.log 2>&1; say "memcheck $b rc=$?"; grep -E "ERROR SUMMARY" $O/san-$b.log | sort | uniq -c; }
done
M=smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread
for b in v3 v4; do
  left && { timeout 60 ncu -k regex:pull_kernel -c 3 --csv --metrics $M /tmp/$b/lbm-gpu --size 256 --precision sp,fp16s,fp16c --kernel pull --steps 1 --warmup 0 --reps 1 -o /dev/null > $O/ncu-$b.csv 2>&1; say "ncu $b rc=$?"; }
done
tail -2 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["precision"], $h["mflups"], $h["mflups_med"], $h["verified"]}' $O/t*.csv | sed "s|$O/||"
cp $R/.peers/s8-var.sh $O/run.sh; for v in v3 v4; do (cd $R && diff -u gpu/lbm_kernels.cuh .peers/$v/gpu/lbm_kernels.cuh; diff -u gpu/lbm_dispatch.cu .peers/$v/gpu/lbm_dispatch.cu) > $O/$v-vs-new.patch; done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
