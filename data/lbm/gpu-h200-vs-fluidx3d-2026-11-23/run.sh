#!/bin/bash
# coordinator, session 4, H200: every precision and kernel at 256^3 and 512^3 alternated with
# FluidX3D FP32/FP16S/FP16C, block sizes, ncu of pull sp and fp16c, the domain sweep
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
finish() { tar czf $OUT/s4-h200.tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
export LBMR_ENERGY=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv > $O/gpu.txt
LBMR_VERSION=$(cat .peers/version-new) cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/b -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
B=/tmp/b
$B/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/stream.csv 2>/dev/null; echo "stream rc=$?"
for r in 1 2 3; do
  $B/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 10 -o $O/ours256-$r.csv 2>/dev/null; echo "ours256 $r rc=$? $((SECONDS-T0)) s"
  if [ $r -le 2 ]; then for v in FP32 FP16S FP16C; do (cd .peers/fx-$v && timeout 60 ./bin/FluidX3D 2>&1 | tr '\r' '\n' | grep -E "Peak MLUPs|MLUPs" | tail -1 | sed "s/^/round $r $v: /") >> $O/fluidx3d.txt; done; echo "fx $r $((SECONDS-T0)) s"; fi
  $B/lbm-gpu --size 512 --kernel pull,aa --precision sp,dp,fp16s --reps 5 -o $O/ours512-$r.csv 2>/dev/null; echo "ours512 $r rc=$? $((SECONDS-T0)) s"
done
cat $O/fluidx3d.txt
$B/lbm-gpu --size 256,512 --kernel pull,aa --precision sp,dp --block 64,128,256 --reps 5 -o $O/blocks.csv 2>/dev/null; echo "blocks rc=$? $((SECONDS-T0)) s"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats --section LaunchStats"
for p in sp fp16c; do timeout 100 ncu -k regex:pull_kernel --launch-skip 40 -c 1 $S $B/lbm-gpu --size 256 --kernel pull --precision $p --warmup 80 --reps 1 --steps 2 -o /tmp/ncu-$p.csv > $O/ncu-pull-$p.txt 2>&1; echo "ncu $p rc=$? $((SECONDS-T0)) s"; grep -E "Grid Size|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Duration|Issue Slots Busy|L2 Hit Rate|Executed Ipc A" $O/ncu-pull-$p.txt | head -14; done
M=sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
for p in fp16c fp16s; do timeout 60 ncu -k regex:pull_kernel --launch-skip 40 -c 1 --metrics $M $B/lbm-gpu --size 256 --kernel pull --precision $p --warmup 80 --reps 1 --steps 2 -o /tmp/ncm-$p.csv > $O/ncu-pipes-$p.txt 2>&1; echo "ncu pipes $p rc=$? $((SECONDS-T0)) s"; grep -E "pipe|inst_executed|issue" $O/ncu-pipes-$p.txt | head -8; done
# the sweep, as far as the time allows (sizes cut from the top down if needed)
for n in $(seq 32 16 512); do
  [ $((SECONDS-T0)) -gt 540 ] && { echo "sweep cut before $n"; break; }
  $B/lbm-gpu --size $n --kernel pull,aa --precision sp,dp --reps 3 $( [ $n = 32 ] || echo --append ) -o $O/sweep.csv 2>/dev/null || echo "sweep $n rc=$?"
done; echo "sweep done $((SECONDS-T0)) s"
awk -F, 'NR==1||FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["blocks"], $h["mflups"], $h["verified"]}' $O/ours*.csv $O/blocks.csv | sed "s|$O/||" | sort -k3,4 -k2n -k1
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/stream.csv
