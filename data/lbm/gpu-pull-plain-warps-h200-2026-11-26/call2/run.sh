#!/bin/bash
# session 8, call 3: pull's plain-offset warps with 32-bit indices (working tree, "new") against
# HEAD ("old") on one GPU: builds; state hashes old vs new; alternated rounds; GPU ctests; two
# ranks sharing the GPU (same state); memcheck; ncu of pull fp16s/sp/fp16c; SASS of new.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
N=/tmp/new
HS="--dims 96x80x64,100x36x20 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 20 --warmup 3 --reps 1"
for b in new old; do timeout 120 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err.txt; say "hash $b rc=$?"; done
python3 - $O/hash-new.csv $O/hash-old.csv > $O/hashes-old-new.txt 2>&1 <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
k = lambda r: (r['nx'], r['ny'], r['precision'], r['collision'], r['geometry'])
ha, hb = ({k(r): r['state_hash'] for r in x} for x in (a, b))
diff = [x for x in ha if ha[x] != hb.get(x)]
print(len(ha), 'rows new,', len(hb), 'old,', len(diff), 'differ', diff[:5])
PY
cat $O/hashes-old-new.txt
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 /tmp/$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 10 -o $O/t256-$b-$r.csv 2>>$O/err.txt; say "t256 $b $r rc=$?"; }
    left && { timeout 90 /tmp/$b/lbm-gpu --size 512 --precision sp,fp16s --kernel pull --reps 10 -o $O/t512-$b-$r.csv 2>>$O/err.txt; say "t512 $b $r rc=$?"; }
  done
done
left && (cd $N && timeout 150 ctest -L gpu -E "mpi|energy" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
left && { timeout 90 mpiexec --oversubscribe -np 2 $N/lbm-gpu --dims 96x80x64 --procs 1x1x1,2x1x1,1x2x1,1x1x2 --precision sp,dp,fp16s,fp16c --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2 -o $O/same2.csv 2>>$O/err.txt; say "same2 rc=$?"; $N/tests/csv_check $O/same2.csv --bench lbm --backend gpu --same-state 1 > $O/same-state-check.txt 2>&1; say "same-state check rc=$?"; }
left && { timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $N/lbm-gpu --dims 96x20x18,70x9x7 --precision sp,fp16s --geometry cavity,channel,periodic --kernel pull --steps 4 --warmup 2 --reps 1 -o $O/san.csv > $O/san.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san.log | sort | uniq -c; }
M=smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum
for b in new old; do
  left && { timeout 60 ncu -k regex:pull_kernel -c 3 --csv --metrics $M /tmp/$b/lbm-gpu --size 256 --precision sp,fp16s,fp16c --kernel pull --steps 1 --warmup 0 --reps 1 -o /dev/null > $O/ncu-$b.csv 2>&1; say "ncu $b rc=$?"; }
done
o=$(find $N -name 'lbm_dispatch.cu.o' | head -1)
for t in f 9gpu_fp16s; do
  fn=$(cuobjdump -symbols $o 2>/dev/null | grep -o "_Z11pull_kernelI${t}Li0ELi0EL15gpu_lbm_variant0E[A-Za-z0-9_]*" | head -1)
  cuobjdump -sass -fun "$fn" $o > $O/sass-new-$t.txt 2>&1
done
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["mflups"], $h["mflups_med"], $h["verified"]}' $O/t*.csv | sed "s|$O/||"
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print $h["precision"], $h["bw_prog_GBs"], $h["bw_prog_med_GBs"]}' $O/copy.csv
true
cp $R/.peers/s8-pull.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
