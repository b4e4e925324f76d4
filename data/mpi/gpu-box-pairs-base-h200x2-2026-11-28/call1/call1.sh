#!/bin/bash
# session 30, call 1 (two H200s): where fp16s's extra time of a 1x1x2 rank goes. One GPU alone
# (each GPU), both GPUs at once (two processes), the weak rows with energy on, ncu of rank 0.
set -u
R=$PWD; O=$OUT/r1; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/b1 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b1 -j32 --target lbm-gpu >> $O/bld.log 2>&1; say "build rc=$?"
B=/tmp/b1/lbm-gpu
A="--size 256 --precision fp16s,sp --kernel pull --reps 5 --warmup 20"
for r in 1 2; do
  for g in 0 1; do CUDA_VISIBLE_DEVICES=$g timeout 60 $B $A --append -o $O/alone-gpu$g.csv 2>>$O/err.txt; say "alone gpu$g rc=$?"; done
  CUDA_VISIBLE_DEVICES=0 timeout 60 $B $A --append -o $O/both-gpu0.csv 2>>$O/err.txt & p0=$!
  CUDA_VISIBLE_DEVICES=1 timeout 60 $B $A --append -o $O/both-gpu1.csv 2>>$O/err.txt & p1=$!
  wait $p0; a=$?; wait $p1; say "both rc=$a $?"
  timeout 90 mpiexec -np 2 $B --local 256 --procs 1x1x1,1x1x2 --precision fp16s,sp --kernel pull --reps 5 --warmup 20 --append -o $O/weak.csv 2>>$O/err.txt; say "weak rc=$?"
done
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOF
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 40 --launch-count 10 --metrics $M "\$@"; else exec "\$@"; fi
EOF
chmod +x /tmp/rank0ncu.sh
export LBMR_ENERGY=off
for p in "1x1x2" "1x1x1"; do
  left && { timeout 120 mpiexec -np 2 /tmp/rank0ncu.sh $B --local 256 --procs $p --precision fp16s --kernel pull --warmup 20 --reps 1 --steps 6 -o /tmp/n.csv --overwrite > $O/ncu-$p.csv 2>>$O/err-ncu.txt; say "ncu $p rc=$?"; }
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os
d = sys.argv[1]
for f in sorted(glob.glob(d + '/*.csv')):
    if 'ncu' in f: continue
    for r in csv.DictReader(open(f)):
        print(os.path.basename(f), r['precision'], r['procs'], 'mflups %.0f med %.0f' % (float(r['mflups']), float(r['mflups_med'])),
              'us %.1f' % (1e6 * float(r['t_min_s']) / int(r['steps'])), 'eff', r['efficiency'], 'comm_s', r['comm_s'],
              'sm', r['sm_clock_MHz'], 'mem', r['mem_clock_MHz'], 'ev', r['clock_events'], 'W', r['power_W'], r['verified'])
for p in ('1x1x2', '1x1x1'):
    f = f'{d}/ncu-{p}.csv'
    if not os.path.exists(f): continue
    rows = [l for l in csv.reader(open(f)) if len(l) > 14 and l[0] != 'ID']
    for l in rows:
        print('ncu', p, l[0], l[4][:22] + '..' + l[4][-34:], l[8], l[12], l[14])
PY
cat $O/summary.txt; tail -n 5 $O/err.txt $O/err-ncu.txt
cp $R/.peers/s30/call1.sh $O/
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
