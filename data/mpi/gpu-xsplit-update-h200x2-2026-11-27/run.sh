#!/bin/bash
# session 19, call 3: x faces updated into their buffers, then whole rows (LBMR_X_FACES=update)
# against the 32-cell shells (default) on two H200s; the same binary (HEAD + inert study code)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-old $CM > $O/bld.log 2>&1 && cmake --build $R/build-old -j32 --target lbm-gpu >> $O/bld.log 2>&1); say "build rc=$?"
X=$R/build-old/lbm-gpu
export LBMR_ENERGY=off
SD="--dims 96x40x36,70x22x18,160x24x20 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 9 --warmup 2 --reps 1"
for m in shells update; do LBMR_X_FACES=$m timeout 60 mpiexec -x LBMR_X_FACES -np 2 $X $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$m.csv 2>>$O/err-state.txt; say "state $m rc=$?"; done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 40 --launch-count 8 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
for p in sp dp; do left && { LBMR_X_FACES=update timeout 90 mpiexec -x LBMR_X_FACES -np 2 /tmp/rank0ncu.sh $X --size 512 --precision $p --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-update-$p.csv 2>>$O/err-ncu.txt; say "ncu $p rc=$?"; }; done
for r in 1 2 3; do
  case $r in 2) ord="update shells";; *) ord="shells update";; esac
  for m in $ord; do
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --local 256 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s19-sum.py $O shells update > $O/summary.txt
python3 - $O >> $O/summary.txt <<'PY'
import csv, collections, glob, sys
for f in sorted(glob.glob(sys.argv[1] + '/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        out.setdefault((r['ID'], r['Kernel Name'].split('(')[0][:40], r['Grid Size'], r['Block Size']), {})[r['Metric Name'].split('.')[0]] = r['Metric Value']
    for k, m in out.items():
        print(f.split('/')[-1][4:-4], k[1], k[2], k[3], 't', m['gpu__time_duration'], 'dram%', m['dram__throughput'], 'warps', m['sm__warps_active'], 'regs', m['launch__registers_per_thread'], 'rd', m['dram__bytes_read'], 'wr', m['dram__bytes_write'])
PY
cat $O/summary.txt
tail -n 3 $O/err.txt $O/err-ncu.txt $O/err-state.txt | grep -v energy; rm -f $O/bld.log; cp $R/.peers/s19-upd.sh $R/.peers/s19-sum.py $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
