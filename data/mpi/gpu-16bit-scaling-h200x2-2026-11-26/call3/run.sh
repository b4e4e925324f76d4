#!/bin/bash
# session 8, call 2: face rows of the box kernels as selects (working tree, "new") against HEAD
# ("old") on two GPUs: builds; correctness of new (same state on every 2-rank grid, hashes equal
# to old's, distributed ctests, memcheck); alternated weak rounds 256^3 a GPU in all four
# precisions, strong 512^3 x / z.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-420}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
N=/tmp/new
export LBMR_ENERGY=off
G2=1x1x1,2x1x1,1x2x1,1x1x2
for d in 96x80x64 512x12x10; do
  SS="--dims $d --procs $G2 --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,channel,periodic --overlap on,off --steps 20 --warmup 3 --reps 2"
  for b in new old; do timeout 120 mpiexec -np 2 /tmp/$b/lbm-gpu $SS -o $O/same-$d-$b.csv 2>>$O/err.txt; say "same-state $d $b rc=$?"; done
  $N/tests/csv_check $O/same-$d-new.csv --bench lbm --backend gpu --same-state 1 >> $O/same-state-check.txt 2>&1; say "same-state check $d new rc=$?"
  python3 - $O/same-$d-new.csv $O/same-$d-old.csv >> $O/hashes-old-new.txt 2>&1 <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
k = lambda r: (r['nx'], r['procs'], r['precision'], r['collision'], r['geometry'], r['overlap'])
ha, hb = ({k(r): r['state_hash'] for r in x} for x in (a, b))
diff = [x for x in ha if ha[x] != hb.get(x)]
print(sys.argv[1].split('/')[-1], len(ha), 'rows new,', len(hb), 'old,', len(diff), 'differ', diff[:5])
PY
done
cat $O/hashes-old-new.txt
(cd $N && timeout 150 ctest -R "mpi|state_hash_grid_gpu|lbm_gpu" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
timeout 100 mpiexec -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 $N/lbm-gpu --dims 96x20x18 --procs 2x1x1,1x2x1,1x1x2 --precision sp,fp16s --geometry cavity,channel,periodic --steps 4 --warmup 2 --reps 1 -o $O/san.csv > $O/san.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san.log | sort | uniq -c
for r in 1 2 3; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --local 256 --procs $G2 --precision sp,dp,fp16s,fp16c --kernel pull --reps 5 --warmup 20 -o $O/weak-$b-$r.csv 2>>$O/err.txt; say "weak $b $r rc=$?"; }
  done
done
for r in 1 2; do
  for b in new old; do
    [ $r = 2 ] && b=$([ $b = new ] && echo old || echo new)
    left && { timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --size 512 --procs 2x1x1,1x1x2 --precision sp,dp,fp16s --kernel pull --reps 5 -o $O/strong-$b-$r.csv 2>>$O/err.txt; say "strong $b $r rc=$?"; }
  done
done
tail -3 $O/err.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["procs"], $h["precision"], $h["mflups"], $h["mflups_med"], $h["efficiency"], $h["verified"]}' $O/weak-*.csv $O/strong-*.csv | sed "s|$O/||"
cp $R/.peers/s8-ab.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
