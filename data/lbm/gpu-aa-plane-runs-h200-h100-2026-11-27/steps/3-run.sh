#!/bin/bash
# session 16, call 3: ncu of aa's halves, sp 256^3 BGK (and TRT), working tree ("new": plane-wide
# runs, sp neighbour half capped at 64 registers) against 7c98ebe ("old")
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-gpu >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j8 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,launch__occupancy_limit_registers,launch__grid_size,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum
for p in "sp bgk" "sp trt" "dp bgk"; do set -- $p
  for b in new old; do left && { timeout 90 ncu -k regex:aa_ --launch-skip 20 -c 3 --metrics $M /tmp/$b/lbm-gpu --size 256 --kernel aa --precision $1 --collision $2 --warmup 24 --reps 1 --steps 2 -o /tmp/ncu-$b.csv > $O/ncu-$b-$1-$2.txt 2>&1; say "ncu $b $1 $2 rc=$?"; }; done
done
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "aa_|gpu__time|dram__|warps_active|inst_executed|registers|sectors|bytes|requests|limit" $f | grep -v "==PROF==" | sed 's/(T1 \*.*coll_of<T1>::type)//' | awk '{print $1, $2, $3, $NF}' | head -60; done
rm -f $O/bld-*.log; cp $R/.peers/s16-ncu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
