#!/bin/bash
# session 18, call 5: where the x split's time goes on two H200s (HEAD): every launch of rank 0
# in two updates under ncu, 2x1x1 against 1x1x2 at 512^3 sp and dp; the strong runs with overlap
# on and off, two rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
cmake -S $R -B $R/build-x2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1
cmake --build $R/build-x2 -j32 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; say "build rc=$?"
B=$R/build-x2
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip \$SKIP --launch-count \$COUNT --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
for p in sp dp; do for g in 2x1x1 1x1x2; do
  left && { SKIP=60 COUNT=16 timeout 150 mpiexec -np 2 -x SKIP -x COUNT /tmp/rank0ncu.sh $B/lbm-gpu --size 512 --precision $p --kernel pull --procs $g --warmup 20 --reps 1 --steps 6 -o /tmp/n.csv --overwrite > $O/ncu-$g-$p.csv 2>>$O/err-ncu.txt; say "ncu $g $p rc=$?"; }
done; done
for r in 1 2; do for g in 2x1x1 1x1x2; do
  left && timeout 150 mpiexec -np 2 $B/lbm-gpu --size 512 --precision sp,dp --kernel pull --procs $g --overlap on,off --reps 3 --append -o $O/t-$g.csv 2>>$O/err.txt
done; say "round $r"; done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os, collections
d = sys.argv[1]
for f in sorted(glob.glob(f'{d}/t-*.csv')):
    agg = collections.defaultdict(list)
    for r in csv.DictReader(open(f)):
        agg[(r['precision'], r['procs'], r['overlap'])].append((float(r['mflups_med']), r['comm_s'], r['verified']))
    for k, v in sorted(agg.items()): print(*k, ' '.join(f'{m:.0f}' for m, *_ in v), 'comm_s', v[0][1], ','.join(sorted({x[2] for x in v})))
for f in sorted(glob.glob(f'{d}/ncu-*.csv')):
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        k = (r['ID'], r['Kernel Name'].split('(')[0][:44], r['Stream'], r['Grid Size'], r['Block Size'])
        out.setdefault(k, {})[r['Metric Name']] = r['Metric Value']
    print('\n' + os.path.basename(f))
    for k, m in out.items():
        g = lambda n: m.get(n, '')
        print(' ', *k, 't_ns', g('gpu__time_duration.sum'), 'dram%', g('dram__throughput.avg.pct_of_peak_sustained_elapsed'), 'warps%', g('sm__warps_active.avg.pct_of_peak_sustained_active'), 'regs', g('launch__registers_per_thread'), 'rdMB', g('dram__bytes_read.sum'), 'wrMB', g('dram__bytes_write.sum'))
PY
cat $O/summary.txt | head -120
tail -3 $O/err.txt $O/err-ncu.txt | grep -v energy; gzip -f $O/bld.log; cp $R/.peers/s18-x2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
