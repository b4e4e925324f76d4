#!/bin/bash
# session 20, call 3: the paired ghost box with its across-pair source through one pointer (a
# 4-byte load: the ghost cell, the received face, the wall's slot or the wrap) instead of the word
# beside it and an in-place override
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; git -C $R log --oneline -1; git -C $R diff --stat; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-x2 $CM > $O/bld.log 2>&1 && cmake --build $R/build-x2 -j32 --target lbm-gpu >> $O/bld.log 2>&1); say "build rc=$?"
X=$R/build-x2/lbm-gpu
export LBMR_ENERGY=off
D=$(find $R/build-x2 -name 'lbm_dispatch.cu.o' | head -1)
cuobjdump -sass $D > /tmp/all.sass 2>/dev/null
python3 - /tmp/all.sass $O <<'PY'
import re, sys
t = open(sys.argv[1]).read()
for f in re.split(r'\n\s+Function : ', t):
    name = f.split('\n')[0].strip()
    for v in ('10', '11'):
        if name.startswith('_Z17pull_pairs_kernelIfLi0ELi0EL15gpu_lbm_variant' + v + 'E'):
            open(f'{sys.argv[2]}/sass-pairs-sp-bgk-v{v}.txt', 'w').write(f)
            ins = [l for l in f.split('\n') if re.search(r'/\*[0-9a-f]{4}\*/', l)]
            print('v' + v, 'instructions', len(ins), 'LDG', sum('LDG' in l for l in ins), 'STG', sum('STG' in l for l in ins), 'BRA', sum('BRA' in l for l in ins))
PY
SD="--dims 96x40x36,70x22x18,160x24x20 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic,channel --kernel pull --steps 9 --warmup 2 --reps 1 --overlap on,off"
for m in update; do LBMR_X_FACES=$m timeout 90 mpiexec -x LBMR_X_FACES -np 2 $X $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$m.csv 2>>$O/err-state.txt; say "state $m rc=$?"; done
S4="--dims 96x40x36,70x22x18 --precision sp,fp16s,dp --collision bgk --geometry cavity,periodic --kernel pull --steps 7 --warmup 2 --reps 1"
LBMR_X_FACES=update timeout 90 mpiexec -x LBMR_X_FACES -np 4 --oversubscribe $X $S4 --procs 1x1x1,2x2x1,4x1x1,2x1x2 -o $O/state4-update.csv 2>>$O/err-state.txt; say "state4 rc=$?"
LBMR_X_FACES=update timeout 100 mpiexec -x LBMR_X_FACES -np 2 compute-sanitizer --tool memcheck --error-exitcode 9 $X --dims 64x20x18 --procs 2x1x1 --precision sp,fp16s --geometry cavity,periodic --steps 4 --warmup 1 --reps 1 --overlap on,off -o /tmp/cs.csv --overwrite > $O/cs-memcheck.txt 2>&1; say "memcheck rc=$?"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 30 --launch-count 6 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
LBMR_X_FACES=update timeout 80 mpiexec -x LBMR_X_FACES -np 2 /tmp/rank0ncu.sh $X --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-update.csv 2>>$O/err-ncu.txt; say "ncu rc=$?"
for r in 1 2 3; do
  case $r in 2) ord="update shells";; *) ord="shells update";; esac
  for m in $ord; do
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --local 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
for m in shells update; do left && LBMR_X_FACES=$m timeout 100 mpiexec -x LBMR_X_FACES -np 2 $X --size 512 --precision fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt; done; say "fp16s"
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
cat $O/summary.txt; grep -h "ERROR SUMMARY" $O/cs-*.txt
tail -n 3 $O/err.txt $O/err-ncu.txt $O/err-state.txt 2>/dev/null | grep -v energy; grep -iE "error" $O/bld.log | head -5; rm -f $O/bld.log; cp $R/.peers/s20-g2.sh $R/.peers/s20-ghostpairs2.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo total $((SECONDS-T0)) s
