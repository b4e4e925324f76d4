#!/bin/bash
# session 18, call 2: aa's neighbour half with the leaving values stored before the barrier and
# the barrier's side cut to the inner stores (working tree "new") against HEAD 2c64c94 ("old"):
# states, sanitizers, ncu --set full of the neighbour half at 144x160x160 and 160^3, the sweep
set -u
R=$PWD; O=$OUT/r; mkdir -p $O/ncu; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; ncu --version | tail -1; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j11 -- -k >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM -DLBMR_MPI=OFF > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j5 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
for b in new old; do cuobjdump -sass $R/build-$b/lbm-gpu 2>/dev/null | awk '/Function : /{p=0} /Function : _Z9aa_kernelIfLi0ELi0EL15gpu_lbm_variant5E/{p=1} p' > $O/ncu/sass-aa-nb-sp-$b.txt; done
ST="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,208x9x5,17x9x6,40x1x5,40x2x3,1x7x5,300x6x5,256x3x3,600x4x3 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old new; do timeout 150 $R/build-$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
timeout 150 $R/build-new/lbm-gpu $ST --block 32,96 -o $O/state-new-narrow.csv 2>>$O/err-state.txt; say "state narrow rc=$?"
SAN="--dims 144x20x9,80x9x6,16x7x5,48x6x5,136x7x6,600x4x3 --precision sp,dp --geometry cavity,periodic --kernel aa --steps 4 --warmup 2 --reps 1"
left && { timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $R/build-new/lbm-gpu $SAN -o $O/san-r.csv > $O/san-racecheck.log 2>&1; say "racecheck rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-racecheck.log | sort | uniq -c; }
# ncu --set full of the neighbour half (the 13th aa_ launch: neighbours, faces, local a pair)
for d in 144x160x160 160x160x160; do for b in new old; do
  left && { timeout 90 ncu --clock-control none --set full --import-source no --kernel-name regex:aa_ --launch-skip 12 --launch-count 1 -o $O/ncu/nb-$b-sp-$d -f \
    $R/build-$b/lbm-gpu --dims $d --kernel aa --precision sp --warmup 10 --reps 1 --steps 10 -o /tmp/x.csv --overwrite > $O/ncu/log-$b-$d.txt 2>&1; say "ncu $b $d rc=$?"; }
done; done
$R/build-new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt
  done
done; say sweep
for b in new old; do for n in 144 256 512; do
  left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/again-$b.csv 2>>$O/err.txt
done; done; say again
for t in memcheck initcheck; do left && { timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $R/build-new/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
(cd $R/build-new && left && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log)
left && { timeout 150 bash tests/state_hash_grid.sh gpu $R/build-new/lbm-gpu > $O/grid.log 2>&1; say "grid rc=$?"; tail -2 $O/grid.log; }
for f in $O/ncu/nb-*.ncu-rep; do
  [ -f "$f" ] || continue; g=${f%.ncu-rep}
  ncu -i $f --page raw --csv > $g-raw.csv 2>/dev/null
  ncu -i $f --page details --csv > $g-det.csv 2>/dev/null
  ncu -i $f --page source --csv --print-source sass > $g-src.csv 2>$g-src.err
done
python3 $R/.peers/s18-sum.py $O > $O/summary.txt 2>&1
cat $O/summary.txt | head -120
tail -3 $O/err.txt; rm -f $O/bld-*.log $O/san-*.csv
cp $R/.peers/s18-lean.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
