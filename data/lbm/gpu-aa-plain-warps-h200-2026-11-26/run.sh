#!/bin/bash
# session 8, call 10: aa's odd half through plain-offset warps (working tree, "new"; "v16" with
# fp16s in too) against HEAD ("old") on one GPU
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-400}
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j4 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
(LBMR_VERSION=v16 cmake -S $R/.peers/v16 -B /tmp/v16 $CM > $O/bld-v16.log 2>&1 && cmake --build /tmp/v16 -j4 --target lbm-gpu >> $O/bld-v16.log 2>&1; echo "v16 $?" > $O/bld-v16.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
HS="--dims 96x80x64,100x36x20 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel aa,pull --steps 20 --warmup 4 --reps 1"
for b in new old v16; do timeout 120 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err.txt; done; say hashes
python3 - $O/hash-old.csv $O/hash-new.csv $O/hash-v16.csv > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
k = lambda r: (r['nx'], r['ny'], r['kernel'], r['precision'], r['collision'], r['geometry'])
rows = [{k(r): r['state_hash'] for r in csv.DictReader(open(f))} for f in sys.argv[1:]]
for f, h in zip(sys.argv[2:], rows[1:]):
    print(f.split('/')[-1], len(h), 'rows,', sum(rows[0][x] != h.get(x) for x in rows[0]), 'differ from old')
PY
cat $O/hashes.txt
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 1) ord="old new v16";; 2) ord="v16 new old";; 3) ord="new old v16";; esac
  for b in $ord; do
    left && { timeout 60 /tmp/$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel aa,pull --reps 10 -o $O/t256-$b-$r.csv 2>>$O/err.txt; say "t256 $b $r rc=$?"; }
    left && { timeout 60 /tmp/$b/lbm-gpu --size 512 --precision sp,dp --kernel aa --reps 10 -o $O/t512-$b-$r.csv 2>>$O/err.txt; say "t512 $b $r rc=$?"; }
  done
done
for t in memcheck racecheck; do
  left && { timeout 60 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu --dims 96x20x18,70x9x7 --precision sp,dp,fp16c --geometry cavity,channel,periodic --kernel aa --steps 4 --warmup 2 --reps 1 -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }
done
left && (cd /tmp/new && timeout 100 ctest -L gpu -E "mpi|energy" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
tail -2 $O/err.txt
cp $R/.peers/s8-aa.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
