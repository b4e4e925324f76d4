#!/bin/bash
# session 10, call 3: x faces sent by the update (working tree, "new") against c6dc895 ("old",
# .peers/old) on two GPUs: builds, correctness of new (distributed ctests, the same state on
# every grid and precision with 4 ranks on the 2 GPUs, old and new hashes equal, memcheck and
# initcheck on x splits), then alternated rounds: strong 512^3 2x1x1 / 1x1x2, weak 256^3 a GPU
# 1x1x1 / 2x1x1 / 1x1x2; ncu of the halo, ring and box kernels of new and old on 2x1x1.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
N=/tmp/new; P=/tmp/old
export LBMR_ENERGY=off
G4=1x1x1,2x1x1,1x2x1,1x1x2,2x2x1,1x2x2,2x1x2,4x1x1,1x1x4
SS="--dims 96x80x64 --procs $G4 --precision sp,dp,fp16s,fp16c --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2"
for b in new old; do timeout 150 mpiexec -np 4 /tmp/$b/lbm-gpu $SS -o $O/same-state-$b.csv 2>>$O/err.txt; say "same-state $b rc=$?"; done
$N/tests/csv_check $O/same-state-new.csv --bench lbm --backend gpu --same-state 1 > $O/same-state-check.txt 2>&1; say "same-state check new rc=$?"
python3 - $O/same-state-new.csv $O/same-state-old.csv > $O/hashes-old-new.txt 2>&1 <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
k = lambda r: (r['procs'], r['precision'], r['geometry'], r['overlap'])
ha, hb = ({k(r): r['state_hash'] for r in x} for x in (a, b))
diff = [x for x in ha if ha[x] != hb.get(x)]
print(len(ha), 'rows new,', len(hb), 'old,', len(diff), 'differ', diff[:5])
PY
cat $O/hashes-old-new.txt
(cd $N && timeout 150 ctest -R "default_align|mpi_same_state|state_hash_grid_gpu|lbm_gpu_run|lbm_gpu_vs_reference" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
for t in memcheck initcheck; do
  timeout 120 mpiexec -np 2 compute-sanitizer --tool $t --error-exitcode 9 $N/lbm-gpu --dims 96x64x40 --procs 2x1x1 --precision sp,dp,fp16s --geometry cavity,periodic --steps 4 --warmup 2 --reps 1 -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY" $O/san-$t.log | sort | uniq -c
done
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --size 512 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull --reps 5 -o $O/strong-$b-$r.csv 2>>$O/err.txt; say "strong $b $r rc=$?"; }
  done
done
for r in 1 2; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --local 256 --procs 1x1x1,2x1x1,1x1x2 --precision sp,dp --kernel pull --reps 5 -o $O/weak-$b-$r.csv 2>>$O/err.txt; say "weak $b $r rc=$?"; }
  done
done
for b in new old; do
  left && { timeout 60 mpiexec -np 2 ncu --target-processes all -k regex:"halo|ring|pull" -c 16 --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread /tmp/$b/lbm-gpu --size 512 --procs 2x1x1 --precision sp --kernel pull --steps 2 --warmup 2 --reps 1 -o $O/ncu-$b.csv > $O/ncu-$b.txt 2>&1; say "ncu $b rc=$?"; }
done
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["procs"], $h["precision"], $h["mflups_med"], $h["comm_s"], $h["efficiency"], $h["verified"]}' $O/strong-*.csv $O/weak-*.csv | sed "s|$O/||"
for b in new old; do echo "== ncu $b"; grep -v PROF $O/ncu-$b.txt | grep -E "gpu__time|dram__bytes|registers" | awk -F'","' '{print $5, $13, $15}' | sed -E 's/\(.*\)//' | head -48; done
cp $R/.peers/s10-send.sh $O/run.sh; git -C $R diff c6dc895 -- gpu lbm cpu > $O/change.patch 2>/dev/null
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
