#!/bin/bash
# session 30, call 2 (two H200s): is the 1x1x2 interior's slower rate the lattice's placement?
# One GPU at nz 254..258 (the lattice's size moves the second lattice's address), 1x1x2 with
# local nz 254 (a rank's lattice as large as one GPU's 256^3), ncu of both kernels with bytes.
set -u
R=$PWD; O=$OUT/r2; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
B=/tmp/b1/lbm-gpu
if [ ! -x $B ]; then
  cmake -S $R -B /tmp/b1 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld.log 2>&1 &&
    cmake --build /tmp/b1 -j32 --target lbm-gpu >> $O/bld.log 2>&1; say "build rc=$?"
fi
D=256x256x254,256x256x255,256x256x256,256x256x257,256x256x258
for r in 1 2; do
  CUDA_VISIBLE_DEVICES=0 timeout 90 $B --dims $D --precision fp16s,sp --kernel pull --reps 5 --warmup 20 --append -o $O/nz.csv 2>>$O/err.txt; say "nz rc=$?"
  for L in 256 256x256x254; do
    timeout 90 mpiexec -np 2 $B --local $L --procs 1x1x1,1x1x2 --precision fp16s,sp --kernel pull --reps 5 --warmup 20 --append -o $O/weak.csv 2>>$O/err.txt; say "weak $L rc=$?"
  done
done
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,smsp__inst_executed.sum
cat > /tmp/rank0ncu.sh <<EOF
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv -k regex:pull --launch-skip 20 --launch-count 4 --metrics $M "\$@"; else exec "\$@"; fi
EOF
chmod +x /tmp/rank0ncu.sh
left && { CUDA_VISIBLE_DEVICES=0 timeout 90 ncu --clock-control none --csv -k regex:pull --launch-skip 20 --launch-count 3 --metrics $M $B --size 256 --precision fp16s --kernel pull --warmup 20 --reps 1 --steps 6 -o /tmp/n.csv --overwrite > $O/ncu-one.csv 2>>$O/err-ncu.txt; say "ncu one rc=$?"; }
left && { timeout 120 mpiexec -np 2 /tmp/rank0ncu.sh $B --local 256 --procs 1x1x2 --precision fp16s --kernel pull --warmup 20 --reps 1 --steps 6 -o /tmp/n.csv --overwrite > $O/ncu-1x1x2.csv 2>>$O/err-ncu.txt; say "ncu 1x1x2 rc=$?"; }
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os, collections
d = sys.argv[1]
v = collections.defaultdict(list)
for f in ('nz.csv', 'weak.csv'):
    if not os.path.exists(f'{d}/{f}'): continue
    for r in csv.DictReader(open(f'{d}/{f}')):
        v[(f, r['precision'], r['local_nx'] + 'x' + r['local_ny'] + 'x' + r['local_nz'] if r['local_nz'] else r['nx'] + 'x' + r['ny'] + 'x' + r['nz'], r['procs'])].append(
            (float(r['mflups']), float(r['efficiency'] or 0), r['verified']))
for k in sorted(v):
    print(*k, 'mflups', ' '.join('%.0f' % a for a, e, ok in v[k]), 'eff', ' '.join('%.4f' % e for a, e, ok in v[k]), ' '.join(ok for a, e, ok in v[k]))
for f in sorted(glob.glob(d + '/ncu-*.csv')):
    for l in csv.reader(open(f)):
        if len(l) > 14 and l[0] != 'ID':
            print(os.path.basename(f), l[0], l[4][:18] + '..' + l[4][-24:], l[8], l[12], l[14])
PY
cat $O/summary.txt; tail -n 3 $O/err.txt $O/err-ncu.txt
cp $R/.peers/s30/call2.sh $O/
cd $OUT && tar czf r2.tgz r2 && rm -rf r2
