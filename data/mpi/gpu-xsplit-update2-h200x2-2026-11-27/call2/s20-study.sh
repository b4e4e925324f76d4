#!/bin/bash
# session 20, call 2: why the paired whole-row ghost box runs 25.7 cells/ns (study switches in one
# build: LBMR_STUDY_NOOVR, in-place overrides off, timing only; LBMR_STUDY_FACEROWS, face rows one
# cell a thread in their own launches) and one GPU's paired rows of the same shape
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
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
            print('v' + v, 'instructions', len(ins), 'LDG', sum('LDG' in l for l in ins), 'LD.E', sum(' LD.' in l for l in ins), 'STG', sum('STG' in l for l in ins), 'BRA', sum('BRA' in l for l in ins))
PY
SD="--dims 96x40x36,70x22x18,160x24x20 --precision sp,fp16s --collision bgk,trt --geometry cavity,periodic,channel --kernel pull --steps 9 --warmup 2 --reps 1 --overlap on,off"
LBMR_X_FACES=update LBMR_STUDY_FACEROWS=1 timeout 60 mpiexec -x LBMR_X_FACES -x LBMR_STUDY_FACEROWS -np 2 $X $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-facerows.csv 2>>$O/err-state.txt; say "state facerows rc=$?"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 30 --launch-count 10 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
for v in A B C; do
  case $v in A) E="";; B) E="LBMR_STUDY_NOOVR=1";; C) E="LBMR_STUDY_FACEROWS=1";; esac
  left && { env LBMR_X_FACES=update $E timeout 80 mpiexec -x LBMR_X_FACES -x LBMR_STUDY_NOOVR -x LBMR_STUDY_FACEROWS -np 2 /tmp/rank0ncu.sh $X --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-$v.csv 2>>$O/err-ncu.txt; say "ncu $v rc=$?"; }
done
for pad in 0 64; do
  left && { timeout 60 ncu --clock-control none --csv --launch-skip 6 --launch-count 2 --metrics $M $X --dims 256x512x512 --pad $pad --precision sp --kernel pull --warmup 4 --reps 1 --steps 4 -o /tmp/n1.csv --overwrite > $O/ncu-one-pad$pad.csv 2>>$O/err-ncu.txt; say "ncu one pad $pad rc=$?"; }
done
for r in 1 2 3; do
  case $r in 2) ord="facerows update shells";; *) ord="shells update facerows";; esac
  for m in $ord; do
    case $m in facerows) E="LBMR_X_FACES=update LBMR_STUDY_FACEROWS=1";; *) E="LBMR_X_FACES=$m";; esac
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -x LBMR_STUDY_FACEROWS -np 2 $X --size 512 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$m.csv 2>>$O/err.txt
    left && env $E timeout 100 mpiexec -x LBMR_X_FACES -x LBMR_STUDY_FACEROWS -np 2 $X --local 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$m.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s20-sum.py $O shells update facerows > $O/summary.txt
python3 - $O >> $O/summary.txt <<'PY'
import csv, collections, glob, sys
for f in sorted(glob.glob(sys.argv[1] + '/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        out.setdefault((r['ID'], r['Kernel Name'].split('(')[0][:44], r['Grid Size'], r['Block Size']), {})[r['Metric Name'].split('.')[0]] = r['Metric Value']
    for k, m in out.items():
        print(f.split('/')[-1][4:-4], k[1], k[2], k[3], ' '.join(f'{a.split("__")[-1][:18]}={b}' for a, b in m.items()))
PY
cat $O/summary.txt
tail -n 3 $O/err.txt $O/err-ncu.txt $O/err-state.txt 2>/dev/null | grep -v energy; grep -iE "error" $O/bld.log | head -5; rm -f $O/bld.log; cp $R/.peers/s20-study.sh $R/.peers/s20-study.patch $R/.peers/s20-sum.py $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
echo total $((SECONDS-T0)) s
