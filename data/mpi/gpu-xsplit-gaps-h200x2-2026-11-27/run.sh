#!/bin/bash
# session 19, call 2: unread gaps in direction rows (one H200: pull 256^3 --pad 0,32,64) and a
# 64-cell x shell (-DLBMR_STUDY_SHELLX=64, "sx64") against HEAD ("old") on two H200s
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
bld() { (cmake -S $R -B $R/build-$1 $CM "-DCMAKE_CUDA_FLAGS=$2" > $O/bld-$1.log 2>&1 && cmake --build $R/build-$1 -j16 --target lbm-gpu >> $O/bld-$1.log 2>&1; echo "$1 $?" > $O/bld-$1.rc); }
bld old "" & bld sx64 -DLBMR_STUDY_SHELLX=64 &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
B="old sx64"
export LBMR_ENERGY=off
for p in "0,32,64" "64,32,0" "0,32,64"; do CUDA_VISIBLE_DEVICES=0 timeout 100 $R/build-old/lbm-gpu --size 256 --precision sp,dp --kernel pull --pad $p --reps 5 --append -o $O/pad.csv 2>>$O/err-pad.txt; say "pad $p rc=$?"; done
SD="--dims 96x40x36,70x22x18,160x24x20 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 9 --warmup 2 --reps 1"
for b in $B; do timeout 60 mpiexec -np 2 $R/build-$b/lbm-gpu $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 40 --launch-count 6 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
for b in old sx64; do for p in sp dp; do left && { timeout 90 mpiexec -np 2 /tmp/rank0ncu.sh $R/build-$b/lbm-gpu --size 512 --precision $p --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n-$b.csv --overwrite > $O/ncu-$b-$p.csv 2>>$O/err-ncu.txt; say "ncu $b $p rc=$?"; }; done; done
for r in 1 2 3; do
  case $r in 2) ord="sx64 old";; *) ord="old sx64";; esac
  for b in $ord; do
    left && timeout 100 mpiexec -np 2 $R/build-$b/lbm-gpu --size 512 --precision sp,dp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$b.csv 2>>$O/err.txt
    left && timeout 100 mpiexec -np 2 $R/build-$b/lbm-gpu --local 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s19-sum.py $O $B > $O/summary.txt
python3 - $O >> $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]; v = collections.defaultdict(list)
for r in csv.DictReader(open(f'{d}/pad.csv')): v[(r['precision'], r['pad'])].append((float(r['mflups']), r['verified']))
for k in sorted(v): print('pad one H200 256^3', *k, ' '.join(f'{a:.0f}{"" if ok == "pass" else " NOT VERIFIED"}' for a, ok in v[k]))
PY
cat $O/summary.txt
tail -n 3 $O/err.txt $O/err-ncu.txt $O/err-state.txt $O/err-pad.txt | grep -v energy; rm -f $O/bld-*.log; cp $R/.peers/s19-gap.sh $R/.peers/s19-sum.py $O/; git -C $R diff -- gpu > $O/study.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
