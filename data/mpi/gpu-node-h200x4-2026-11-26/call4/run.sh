#!/bin/bash
# session 7, call 4: x shells 64 cells wide (working tree, "new") against 32 (HEAD, "old") on four
# H200s: builds; correctness of new (same state on every 4-rank grid at 96x80x64 and at 512x12x10,
# whose x splits run the new block sizes; hashes equal to old's; distributed ctests; memcheck);
# alternated rounds strong 512^3 2x1x1 / 1x1x2 on two GPUs, weak 256^3 a GPU and strong 512^3 /
# 1024^3 on four; ncu of new's box kernels on 2x1x1.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-330}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j32 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j32 >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
N=/tmp/new
export LBMR_ENERGY=off
G4=1x1x1,2x1x1,1x2x1,1x1x2,2x2x1,1x2x2,2x1x2,4x1x1,1x1x4
for d in 96x80x64 512x12x10; do
  SS="--dims $d --procs $G4 --precision sp,dp,fp16s,fp16c --collision trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2"
  for b in new old; do timeout 120 mpiexec -np 4 /tmp/$b/lbm-gpu $SS -o $O/same-$d-$b.csv 2>>$O/err.txt; say "same-state $d $b rc=$?"; done
  $N/tests/csv_check $O/same-$d-new.csv --bench lbm --backend gpu --same-state 1 >> $O/same-state-check.txt 2>&1; say "same-state check $d new rc=$?"
  python3 - $O/same-$d-new.csv $O/same-$d-old.csv >> $O/hashes-old-new.txt 2>&1 <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
k = lambda r: (r['nx'], r['procs'], r['precision'], r['geometry'], r['overlap'])
ha, hb = ({k(r): r['state_hash'] for r in x} for x in (a, b))
diff = [x for x in ha if ha[x] != hb.get(x)]
print(sys.argv[1].split('/')[-1], len(ha), 'rows new,', len(hb), 'old,', len(diff), 'differ', diff[:5])
PY
done
cat $O/hashes-old-new.txt
(cd $N && timeout 120 ctest -R "default_align|mpi_same_state|state_hash_grid_gpu|lbm_gpu_run" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
timeout 100 mpiexec -np 4 compute-sanitizer --tool memcheck --error-exitcode 9 $N/lbm-gpu --dims 512x12x10 --procs 2x1x1,4x1x1,2x2x1 --precision sp,dp --steps 4 --warmup 2 --reps 1 -o $O/san.csv > $O/san.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san.log | sort | uniq -c
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --size 512 --procs 2x1x1,1x1x2 --precision sp,dp --kernel pull --reps 5 -o $O/strong-$b-$r.csv 2>>$O/err.txt; say "strong $b $r rc=$?"; }
  done
done
for r in 1 2; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 4 /tmp/$b/lbm-gpu --local 256 --procs 1x1x1,2x2x1,2x1x2,1x2x2,4x1x1 --precision sp,dp --kernel pull --reps 5 -o $O/weak-$b-$r.csv 2>>$O/err.txt; say "weak $b $r rc=$?"; }
  done
done
for b in new old; do
  left && { timeout 90 mpiexec -np 4 /tmp/$b/lbm-gpu --size 512 --procs 1x1x1,2x2x1,4x1x1 --precision sp,dp --kernel pull --reps 5 -o $O/strong4-$b.csv 2>>$O/err.txt; say "strong4 $b rc=$?"; }
  left && { timeout 120 mpiexec -np 4 /tmp/$b/lbm-gpu --size 1024 --procs 2x2x1,4x1x1 --precision sp,dp --kernel pull --reps 5 -o $O/strong1024-$b.csv 2>>$O/err.txt; say "strong1024 $b rc=$?"; }
done
left && { timeout 60 mpiexec -np 2 ncu --target-processes all -k regex:"pull" -c 4 --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__block_size,launch__grid_size,launch__registers_per_thread $N/lbm-gpu --size 512 --procs 2x1x1 --precision sp --kernel pull --steps 2 --warmup 2 --reps 1 -o $O/ncu.csv > $O/ncu-2x1x1.txt 2>&1; say "ncu rc=$?"; }
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["procs"], $h["precision"], $h["mflups_med"], $h["efficiency"], $h["verified"]}' $O/strong-*.csv $O/weak-*.csv $O/strong4-*.csv $O/strong1024-*.csv | sed "s|$O/||"
grep -v PROF $O/ncu-2x1x1.txt | grep -E "gpu__time|warps_active|block_size|registers" | awk -F'","' '{print $2, $9, $13, $15}'
cp $R/.peers/s7-ab3.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
