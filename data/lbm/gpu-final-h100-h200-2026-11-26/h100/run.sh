#!/bin/bash
# session 11, final call per card: the committed tree (871b2f0): every GPU ctest (distributed ones
# with 4 ranks sharing the GPU), the headline rows alternated with FluidX3D FP32 / FP16S / FP16C
# (commit 8986874, built by hand, .peers/fx3d), two rounds, then the 32..512 sweep of pull and aa
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/new -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld.log 2>&1; say "build rc=$?"
(cd /tmp/new && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\*\*\*|Total Test|CPU baseline" $O/ctest-gpu.log)
export LBMR_ENERGY=off
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
for n in $(seq 32 16 512); do
  left || { echo "sweep cut before $n"; break; }
  timeout 60 /tmp/new/lbm-gpu --size $n --kernel pull,aa --precision sp,dp --reps 3 $( [ $n = 32 ] || echo --append ) -o $O/sweep.csv 2>>$O/err-sweep.txt || echo "sweep $n rc=$?"
done; say "sweep done"
python3 - $O <<'PY'
import csv, sys
d = sys.argv[1]
cp = {r['precision']: float(r['bw_dram_GBs']) for r in csv.DictReader(open(f'{d}/copy.csv'))}
rows = list(csv.DictReader(open(f'{d}/sweep.csv')))
low = [(r['nx'], r['kernel'], r['precision'], round(100 * float(r['mflups']) * (4 if r['precision'] == 'sp' else 8) * 38 / 1e3 / cp[r['precision']], 1)) for r in rows if int(r['nx']) >= 128]
print('sweep rows from 128^3:', len(low), 'under 90% of copy:', sum(p < 90 for *_, p in low))
for k in ('pull', 'aa'):
    for p in ('sp', 'dp'):
        v = [x[3] for x in low if x[1] == k and x[2] == p]
        if v: print(k, p, 'min', min(v), 'max', max(v), 'under 90:', sum(x < 90 for x in v))
PY
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "copy", $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -2 $O/err.txt; rm -f $O/bld.log
cp $R/.peers/s11-final.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
