#!/bin/bash
# session 8, calls 9/10: pull at 128 (the default) and 256 threads a block with the current
# kernels, sp and dp at 256^3 and 512^3, three alternated rounds; aa at its default beside them
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; git log -1 --oneline; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
cmake -S $R -B /tmp/b $CM > $O/bld.log 2>&1 && cmake --build /tmp/b -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; say "build rc=$?"
/tmp/b/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
for r in 1 2 3; do
  for k in 128 256; do
    [ $r = 2 ] && k=$([ $k = 128 ] && echo 256 || echo 128)
    timeout 60 /tmp/b/lbm-gpu --size 256,512 --precision sp,dp --kernel pull --block $k --reps 10 -o $O/pull-$k-$r.csv 2>>$O/err.txt; say "pull $k $r rc=$?"
  done
  timeout 60 /tmp/b/lbm-gpu --size 256,512 --precision sp,dp --kernel aa --reps 10 -o $O/aa-$r.csv 2>>$O/err.txt; say "aa $r rc=$?"
done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["threads"], $h["mflups"], $h["mflups_med"], $h["verified"]}' $O/pull-*.csv $O/aa-*.csv | sed "s|$O/||"
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print $h["precision"], $h["bw_prog_GBs"]}' $O/copy.csv
cp $R/.peers/s8-blk.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
