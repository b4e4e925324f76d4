#!/bin/bash
# session 8, call 7: pull's plain-offset warps (HEAD, "new") against the kernels before (2cfe489,
# "old") on one GPU: builds; state hashes; alternated rounds pull and aa at 256^3, pull at 512^3;
# GPU ctests; memcheck, racecheck, initcheck of the pull kernels
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-470}
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j12 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j4 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
HS="--dims 96x80x64,100x36x20 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 20 --warmup 3 --reps 1"
for b in new old; do timeout 120 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err.txt; done; say hashes
python3 - $O/hash-old.csv $O/hash-new.csv > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
k = lambda r: (r['nx'], r['ny'], r['precision'], r['collision'], r['geometry'])
a, b = ({k(r): r['state_hash'] for r in csv.DictReader(open(f))} for f in sys.argv[1:])
print(len(b), 'rows,', sum(a[x] != b.get(x) for x in a), 'differ from old')
PY
cat $O/hashes.txt
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 60 /tmp/$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 10 -o $O/t256-$b-$r.csv 2>>$O/err.txt; say "t256 $b $r rc=$?"; }
    left && { timeout 60 /tmp/$b/lbm-gpu --size 512 --precision sp,dp,fp16s --kernel pull --reps 10 -o $O/t512-$b-$r.csv 2>>$O/err.txt; say "t512 $b $r rc=$?"; }
  done
done
left && (cd /tmp/new && timeout 150 ctest -L gpu -E "energy" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
for t in memcheck racecheck initcheck; do
  left && { timeout 60 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu --dims 96x20x18,70x9x7 --precision sp,dp,fp16s --geometry cavity,channel,periodic --kernel pull --steps 4 --warmup 2 --reps 1 -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }
done
tail -2 $O/err.txt
cp $R/.peers/s8-h100.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
