#!/bin/bash
# session 11, headline call per card: the committed tree (bd1d60c) alternated with FluidX3D FP32 /
# FP16S / FP16C (commit 8986874, built by hand, .peers/fx3d), two rounds; every precision, pull
# and aa, 256^3 and 512^3; the copy of each element size
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; say "build rc=$?"
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say "copy rc=$?"
fx() { [ -e /lib/x86_64-linux-gnu/libOpenCL.so.1 ] || [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ] || export LD_LIBRARY_PATH=$R/.peers/fx3d/lib; for v in fp32 fp16s fp16c; do (cd $R/.peers/fx3d/$v && timeout 70 ./bin/FluidX3D 2>&1 | tr '\r' '\n' | grep -E "MLUPs" | tail -1 | sed "s/^/round $1 $v: /") >> $O/fluidx3d.txt; done; say "fx $1"; }
for r in 1 2; do
  [ $r = 2 ] && fx $r
  timeout 80 /tmp/new/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 10 -o $O/t256-$r.csv 2>>$O/err.txt; say "t256 $r rc=$?"
  timeout 80 /tmp/new/lbm-gpu --size 512 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 5 -o $O/t512-$r.csv 2>>$O/err.txt; say "t512 $r rc=$?"
  [ $r = 1 ] && fx $r
done
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["mflups"], $h["verified"]}' $O/t*.csv | sed "s|$O/||" | sort -k2,2n -k3,3 -k4,4 -k1,1
cat $O/fluidx3d.txt
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "copy", $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -2 $O/err.txt; rm -f $O/bld.log
cp $R/.peers/s11-head.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
