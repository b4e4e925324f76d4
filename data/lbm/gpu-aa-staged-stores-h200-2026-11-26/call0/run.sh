#!/bin/bash
# session 9: every precision and kernel at 256^3 and 512^3 alternated with FluidX3D FP32/FP16S/FP16C,
# then ncu memory tables of aa's two halves and pull (sp, fp16s)
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,ecc.mode.current --format=csv > $O/gpu.txt
cmake -S $R -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/b -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; echo "build rc=$? $((SECONDS-T0)) s"
B=/tmp/b
$B/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/stream.csv 2>$O/stream.err; echo "stream rc=$?"
fx() { [ -e /lib/x86_64-linux-gnu/libOpenCL.so.1 ] || [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ] || export LD_LIBRARY_PATH=$R/.peers/fx3d/lib; for v in fp32 fp16s fp16c; do (cd .peers/fx3d/$v && timeout 70 ./bin/FluidX3D 2>&1 | tr '\r' '\n' | grep -E "MLUPs" | tail -1 | sed "s/^/round $1 $v: /") >> $O/fluidx3d.txt; done; echo "fx $1 $((SECONDS-T0)) s"; }
for r in 1 2; do
  $B/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 10 -o $O/ours256-$r.csv 2>$O/ours256-$r.err; echo "ours256 $r rc=$? $((SECONDS-T0)) s"
  fx $r
  $B/lbm-gpu --size 512 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 5 -o $O/ours512-$r.csv 2>$O/ours512-$r.err; echo "ours512 $r rc=$? $((SECONDS-T0)) s"
done
$B/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 10 -o $O/ours256-3.csv 2>$O/ours256-3.err; echo "ours256 3 rc=$? $((SECONDS-T0)) s"
cat $O/fluidx3d.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__inst_executed.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
for p in sp fp16s; do
  timeout 90 ncu -k regex:aa_ --launch-skip 30 -c 3 --metrics $M --section MemoryWorkloadAnalysis_Tables $B/lbm-gpu --size 256 --kernel aa --precision $p --warmup 40 --reps 1 --steps 2 -o /tmp/ncu-aa-$p.csv > $O/ncu-aa-$p.txt 2>&1; echo "ncu aa $p rc=$? $((SECONDS-T0)) s"
  timeout 60 ncu -k regex:pull_kernel --launch-skip 30 -c 1 --metrics $M --section MemoryWorkloadAnalysis_Tables $B/lbm-gpu --size 256 --kernel pull --precision $p --warmup 40 --reps 1 --steps 2 -o /tmp/ncu-pull-$p.csv > $O/ncu-pull-$p.txt 2>&1; echo "ncu pull $p rc=$? $((SECONDS-T0)) s"
done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["mflups"], $h["verified"]}' $O/ours*.csv | sed "s|$O/||" | sort -k3,4 -k2n -k1
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/stream.csv
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "aa_kernel|aa_pairs|pull_kernel|gpu__time|dram__bytes|lts__t_sectors_src|l1tex__t_(req|sec)|hit_rate|issue_active|long_score|lg_thr|registers" $f | head -60; done
echo "total $((SECONDS-T0)) s"
