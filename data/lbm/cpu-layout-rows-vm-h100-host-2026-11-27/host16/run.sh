#!/bin/bash
# session 15: the CPU kernels in 19 arrays against interleaved rows (--layout soa,rows, one
# binary), 256^3, three rounds on the 16-core host
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
say() { echo "$* $((SECONDS-T0)) s"; }
{ nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)"; } > $O/machine.txt 2>&1
cmake -S $R -B /tmp/c -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 && cmake --build /tmp/c -j16 --target lbm-cpu stream-cpu >> $O/bld.log 2>&1; say "build $?"
export LBMR_ENERGY=off
/tmp/c/stream-cpu --kernel copy,copy_nt --precision sp --reps 10 -o $O/stream-1.csv 2>>$O/err.txt
for r in 1 2 3; do L=soa,rows; [ $r = 2 ] && L=rows,soa
  timeout 100 /tmp/c/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision sp,dp --layout $L --reps 5 -o $O/t-$r.csv 2>>$O/err.txt; say "t $r"; done
/tmp/c/stream-cpu --kernel copy,copy_nt --precision sp --reps 10 -o $O/stream-2.csv 2>>$O/err.txt
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]; b = collections.defaultdict(list)
for r in (1, 2, 3):
    for x in csv.DictReader(open(f'{d}/t-{r}.csv')):
        b[(x['kernel'], x['precision'], x['layout'])].append(float(x['mflups']))
for k in sorted(b): print(*k, ' '.join(f'{v:.0f}' for v in b[k]))
for f in ('stream-1', 'stream-2'):
    for x in csv.DictReader(open(f'{d}/{f}.csv')): print(f, x['kernel'], x['bw_dram_GBs'])
PY
cat $O/summary.txt; gzip -f $O/bld.log; cp $R/.peers/s15-cpulay.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
