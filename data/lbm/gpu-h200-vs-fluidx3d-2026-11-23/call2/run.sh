#!/bin/bash
# coordinator, session 4, H200 (second call): copy19 ceiling, pull 128 vs 256 threads alternated,
# ncu of aa fp16s; binaries built on the development VM (commit in the rows' version)
set -u
O=$OUT/r; mkdir -p $O; T0=$SECONDS; B=.peers/b2
finish() { tar czf $OUT/s4-h200b.tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
export LBMR_ENERGY=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/gpu.txt
$B/stream-gpu --kernel copy,copy19 --precision sp,dp,fp16s --reps 30 -o $O/stream.csv 2>/dev/null; echo "stream rc=$?"
for r in 1 2 3; do $B/lbm-gpu --size 256,512 --kernel pull --precision sp,dp --block 128,256 --reps 10 -o $O/blocks-$r.csv 2>/dev/null; echo "blocks $r rc=$? $((SECONDS-T0)) s"; done
timeout 90 ncu -k regex:aa_kernel --launch-skip 40 -c 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --metrics smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,lts__t_sectors.sum,dram__sectors.sum $B/lbm-gpu --size 256 --kernel aa --precision fp16s --warmup 80 --reps 1 --steps 2 -o /tmp/n.csv > $O/ncu-aa-fp16s.txt 2>&1; echo "ncu rc=$?"
grep -E "aa_kernel|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|L2 Hit|Block Size|issue_active|pipe_alu|lts__t_sectors|dram__sectors" $O/ncu-aa-fp16s.txt | cut -c1-110
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/stream.csv
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["precision"], $h["blocks"], $h["mflups"], $h["verified"]}' $O/blocks-*.csv | sed "s|$O/||" | sort -k2,3 -k4 -k1
