#!/bin/bash
# session 20, call 4: update mode the GPU's default (ghost pairs: plain word joins in warps without
# an x end, pointers in the end warps); every GPU ctest; default against LBMR_X_FACES=shells
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-400}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; git -C $R log --oneline -1; git -C $R diff --stat; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-x2 $CM > $O/bld.log 2>&1 && cmake --build $R/build-x2 -j32 >> $O/bld.log 2>&1); say "build rc=$?"
X=$R/build-x2/lbm-gpu
export LBMR_ENERGY=off
(cd $R/build-x2 && timeout 200 ctest -L gpu -j2 --timeout 120 > $O/ctest-gpu.txt 2>&1); say "ctest gpu rc=$?"
tail -n 4 $O/ctest-gpu.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 30 --launch-count 6 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
timeout 80 mpiexec -np 2 /tmp/rank0ncu.sh $X --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-update.csv 2>>$O/err-ncu.txt; say "ncu rc=$?"
for r in 1 2 3; do
  case $r in 2) ord="update shells";; *) ord="shells update";; esac
  for m in $ord; do
    case $m in update) E="";; *) E="LBMR_X_FACES=shells";; esac
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision sp,dp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --local 256 --precision sp,dp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s20-sum.py $O update shells > $O/summary.txt
python3 - $O >> $O/summary.txt <<'PY'
import csv, collections, glob, sys
for f in sorted(glob.glob(sys.argv[1] + '/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        if not r.get('Kernel Name'): continue
        out.setdefault((r['ID'], r['Kernel Name'].split('(')[0][:44], r['Grid Size'], r['Block Size']), {})[r['Metric Name'].split('.')[0]] = r['Metric Value']
    for k, m in out.items():
        print(f.split('/')[-1][4:-4], k[1], k[2], k[3], ' '.join(f'{a.split("__")[-1][:14]}={b}' for a, b in m.items()))
PY
cat $O/summary.txt
grep -E "Failed|\*\*\*" $O/ctest-gpu.txt | head
tail -n 3 $O/err.txt $O/err-ncu.txt 2>/dev/null | grep -v energy; grep -iE "error" $O/bld.log | head -5; rm -f $O/bld.log; cp $R/.peers/s20-final.sh $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo total $((SECONDS-T0)) s
