#!/bin/bash
# session 19, call 1: the sp x-split pieces without idle lanes: p2d (-DLBMR_STUDY_PIECE2D),
# run (-DLBMR_STUDY_PAIRRUN), run16 (run + -DLBMR_STUDY_PIECE16) against HEAD ("old") on two
# H200s: states on x grids, ncu of rank 0's launches, strong 512^3 and weak 256^3 a GPU,
# x against z, alternated rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
bld() { (cmake -S $2 -B $R/build-$1 $CM "-DCMAKE_CUDA_FLAGS=$3" > $O/bld-$1.log 2>&1 && cmake --build $R/build-$1 -j8 --target lbm-gpu >> $O/bld-$1.log 2>&1; echo "$1 $?" > $O/bld-$1.rc); }
bld old $R/.peers/old "" & bld p2d $R -DLBMR_STUDY_PIECE2D & bld run $R -DLBMR_STUDY_PAIRRUN &
bld run16 $R "-DLBMR_STUDY_PAIRRUN -DLBMR_STUDY_PIECE16" &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
B="old p2d run run16"
export LBMR_ENERGY=off
SD="--dims 96x40x36,70x22x18,128x24x20 --precision sp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 9 --warmup 2 --reps 1"
for b in $B; do timeout 60 mpiexec -np 2 $R/build-$b/lbm-gpu $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 40 --launch-count 6 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
for b in old p2d run; do left && { timeout 90 mpiexec -np 2 /tmp/rank0ncu.sh $R/build-$b/lbm-gpu --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 12 --reps 1 --steps 4 -o /tmp/n-$b.csv --overwrite > $O/ncu-$b.csv 2>>$O/err-ncu.txt; say "ncu $b rc=$?"; }; done
for r in 1 2 3; do
  case $r in 2) ord="run16 run p2d old";; *) ord="old p2d run run16";; esac
  for b in $ord; do
    left && timeout 100 mpiexec -np 2 $R/build-$b/lbm-gpu --size 512 --precision sp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$b.csv 2>>$O/err.txt
    left && timeout 100 mpiexec -np 2 $R/build-$b/lbm-gpu --local 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 $R/.peers/s19-sum.py $O $B > $O/summary.txt
cat $O/summary.txt
tail -3 $O/err.txt $O/err-ncu.txt $O/err-state.txt | grep -v energy; rm -f $O/bld-*.log; cp $R/.peers/s19-xr.sh $R/.peers/s19-sum.py $O/; git -C $R diff -- gpu > $O/study.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
