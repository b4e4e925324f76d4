#!/bin/bash
# session 20, call 1: update mode built out (received face in place, whole rows paired with x
# ghosts) against the 32-cell shells (default), the same binary, on two H200s
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; git -C $R log --oneline -1; git -C $R diff --stat; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-x2 $CM > $O/bld.log 2>&1 && cmake --build $R/build-x2 -j32 --target lbm-gpu >> $O/bld.log 2>&1); say "build rc=$?"
X=$R/build-x2/lbm-gpu
export LBMR_ENERGY=off
SD="--dims 96x40x36,70x22x18,160x24x20 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic,channel --kernel pull --steps 9 --warmup 2 --reps 1 --overlap on,off"
for m in shells update; do LBMR_X_FACES=$m timeout 90 mpiexec -x LBMR_X_FACES -np 2 $X $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$m.csv 2>>$O/err-state.txt; say "state $m rc=$?"; done
S4="--dims 96x40x36,70x22x18 --precision sp,fp16s,dp --collision bgk --geometry cavity,periodic --kernel pull --steps 7 --warmup 2 --reps 1"
for m in shells update; do LBMR_X_FACES=$m timeout 90 mpiexec -x LBMR_X_FACES -np 4 --oversubscribe $X $S4 --procs 1x1x1,2x2x1,4x1x1,2x1x2 -o $O/state4-$m.csv 2>>$O/err-state.txt; say "state4 $m rc=$?"; done
for t in memcheck initcheck; do
  left && { LBMR_X_FACES=update timeout 100 mpiexec -x LBMR_X_FACES -np 2 compute-sanitizer --tool $t --error-exitcode 9 $X --dims 64x20x18 --procs 2x1x1 --precision sp,fp16s --geometry cavity,periodic --steps 4 --warmup 1 --reps 1 --overlap on,off -o /tmp/cs.csv --overwrite > $O/cs-$t.txt 2>&1; say "sanitizer $t rc=$?"; }
done
for r in 1 2 3; do
  case $r in 2) ord="update shells";; *) ord="shells update";; esac
  for m in $ord; do
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --local 256 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
for m in shells update; do left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt; done; say "fp16s"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 30 --launch-count 8 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
left && { LBMR_X_FACES=update timeout 80 mpiexec -x LBMR_X_FACES -np 2 /tmp/rank0ncu.sh $X --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-update.csv 2>>$O/err-ncu.txt; say "ncu rc=$?"; }
python3 $R/.peers/s20-sum.py $O shells update > $O/summary.txt
python3 - $O >> $O/summary.txt <<'PY'
import csv, collections, sys
for m in ('shells', 'update'):
    try: rs = list(csv.DictReader(open(f'{sys.argv[1]}/state4-{m}.csv')))
    except FileNotFoundError: continue
    st = collections.defaultdict(set)
    for r in rs: st[(r['nx'], r['ny'], r['nz'], r['precision'], r['geometry'])].add((r['state_hash'], r['verified']))
    print(f'state4 {m}: rows {len(rs)} cases {len(st)} one state and verified: {sum(1 for v in st.values() if len(v) == 1 and next(iter(v))[1] == "pass")}')
PY
cat $O/summary.txt
grep -h "ERROR SUMMARY" $O/cs-*.txt
tail -n 3 $O/err.txt $O/err-ncu.txt $O/err-state.txt 2>/dev/null | grep -v energy; grep -iE "error" $O/bld.log | head -5; rm -f $O/bld.log; cp $R/.peers/s20-upd.sh $R/.peers/s20-sum.py $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
