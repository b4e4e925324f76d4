#!/bin/bash
# session 18, call 6: sp x-split interiors two cells a thread (study build "xp",
# -DLBMR_STUDY_XPAIRS: the paired box kernel wherever a box starts on a 128-byte line with even
# start and width) against HEAD ("old") on two H200s: GPU same-state ctests, states on x grids,
# strong 512^3 and weak 256^3 a GPU, x against z, three rounds; ncu of rank 0's interior
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-xp $CM -DCMAKE_CUDA_FLAGS=-DLBMR_STUDY_XPAIRS > $O/bld-xp.log 2>&1 && cmake --build $R/build-xp -j16 >> $O/bld-xp.log 2>&1; echo "xp $?" > $O/bld-xp.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j16 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
(cd $R/build-xp && timeout 150 ctest -R "gpu.*mpi|mpi.*gpu" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
SD="--dims 96x40x36,70x22x18,128x24x20 --precision sp,dp,fp16s --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 9 --warmup 2 --reps 1"
for b in old xp; do left && timeout 90 mpiexec -np 2 $R/build-$b/lbm-gpu $SD --procs 1x1x1,2x1x1,1x1x2 -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
for r in 1 2 3; do
  case $r in 2) ord="xp old";; *) ord="old xp";; esac
  for b in $ord; do
    left && timeout 150 mpiexec -np 2 $R/build-$b/lbm-gpu --size 512 --precision sp,dp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$b.csv 2>>$O/err.txt
    left && timeout 150 mpiexec -np 2 $R/build-$b/lbm-gpu --local 256 --precision sp,fp16s --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__block_size,launch__grid_size
cat > /tmp/rank0ncu.sh <<EOS
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv --launch-skip 80 --launch-count 6 --metrics $M "\$@"; else exec "\$@"; fi
EOS
chmod +x /tmp/rank0ncu.sh
left && { timeout 120 mpiexec -np 2 /tmp/rank0ncu.sh $R/build-xp/lbm-gpu --size 512 --precision sp --kernel pull --procs 2x1x1 --warmup 20 --reps 1 --steps 6 -o /tmp/n.csv --overwrite > $O/ncu-xp-2x1x1-sp.csv 2>>$O/err-ncu.txt; say "ncu rc=$?"; }
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
for b in ('old', 'xp'):
    st = collections.defaultdict(set)
    for r in rows(f'state-{b}.csv'): st[key(r)].add((r['state_hash'], r['verified']))
    print(f'states {b}: cases {len(st)}, one state on every grid, all verified: {sum(1 for v in st.values() if len(v) == 1 and next(iter(v))[1] == "pass")}')
so = {key(r) + (r['procs'],): r['state_hash'] for r in rows('state-old.csv')}
sx = {key(r) + (r['procs'],): r['state_hash'] for r in rows('state-xp.csv')}
print('xp states differing from old:', sum(1 for k in so if sx.get(k) != so[k]), 'of', len(so))
med = lambda a: sorted(a)[len(a)//2]
for f in ('s', 'w'):
    v = collections.defaultdict(list)
    for b in ('old', 'xp'):
        for r in rows(f'{f}-{b}.csv'):
            if r['verified'] != 'pass': print('NOT VERIFIED', f, b, r['precision'], r['procs'])
            v[(r['precision'], b, r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp', 'fp16s'):
        for b in ('old', 'xp'):
            x, z = v.get((p, b, '2x1x1')), v.get((p, b, '1x1x2'))
            if x and z: print({'s': 'strong 512^3', 'w': 'weak 256^3'}[f], p, b, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z), f'x/z {med(x)/med(z):.3f}')
lines = [l for l in open(f'{d}/ncu-xp-2x1x1-sp.csv') if l.startswith('"')] if os.path.exists(f'{d}/ncu-xp-2x1x1-sp.csv') else []
out = collections.OrderedDict()
for r in csv.DictReader(lines):
    out.setdefault((r['ID'], r['Kernel Name'].split('(')[0][:44], r['Grid Size'], r['Block Size']), []).append(f"{r['Metric Name'].split('.')[0]}={r['Metric Value']}")
for k, m in out.items(): print('ncu', *k, ' '.join(m))
PY
cat $O/summary.txt
tail -3 $O/err.txt $O/err-ncu.txt | grep -v energy; rm -f $O/bld-*.log; cp $R/.peers/s18-xp.sh $O/run.sh; git -C $R diff -- gpu > $O/study.patch
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
