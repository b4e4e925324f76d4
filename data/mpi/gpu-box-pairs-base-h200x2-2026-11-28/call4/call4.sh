#!/bin/bash
# session 30, call 4 (two H200s): the paired box kernel with the box's first cell folded into its
# pointers ("new", the working tree) against HEAD's ("old"): SASS, ncu of rank 0's interior, the
# two-GPU same-state ctests, and alternated rounds of weak 256^3 (fp16s, sp) and strong 512^3 sp.
set -u
R=$PWD; O=$OUT/r4; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LBMR_ENERGY=off
say() { echo "$(date -u +%T) +$((SECONDS-T0)) s $*" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
rm -rf /tmp/src-old && mkdir /tmp/src-old && (cd $R && tar cf - --exclude=./.peers --exclude=./build . ) | tar xf - -C /tmp/src-old
cp $R/.peers/s30/old/lbm_kernels.cuh /tmp/src-old/gpu/lbm_kernels.cuh
( cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j16 >> $O/bld-new.log 2>&1; echo "new $?" > $O/rc-new ) &
( cmake -S /tmp/src-old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j16 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/rc-old ) &
wait; say "builds $(cat $O/rc-new $O/rc-old | tr '\n' ' ')"
for b in new old; do
  cuobjdump -sass $(find /tmp/$b -name 'lbm_dispatch.cu.o' | head -1) > /tmp/$b.sass 2>>$O/err.txt
  python3 - /tmp/$b.sass $O/sass-$b <<'PY'
import re, sys
cur = None; funcs = {}
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m: cur = m.group(1); funcs[cur] = []; continue
    if cur: funcs[cur].append(line.rstrip('\n'))
for f in funcs:
    if 'pull_pairs_kernel' in f and 'fp16sLi0ELi0E' in f or 'pull_pairs_kernelIfLi0ELi0E' in f:
        v = re.search(r'gpu_lbm_variant(\d+)E', f).group(1)
        t = 'fp16s' if 'fp16s' in f else 'sp'
        n = len([l for l in funcs[f] if re.search(r'/\*[0-9a-f]{4}\*/', l)])
        open(f'{sys.argv[2]}-{t}-v{v}.txt', 'w').write(f + '\n' + '\n'.join(funcs[f]) + '\n')
        print(sys.argv[2].split('/')[-1], t, 'variant', v, n, 'instructions')
PY
done >> $O/sass-counts.txt
cat $O/sass-counts.txt
cd /tmp/new && timeout 150 ctest -L gpu -R "mpi|same_state" -j1 > $O/ctest-2gpu.txt 2>&1; say "ctest 2-gpu rc=$? $(grep 'tests passed' $O/ctest-2gpu.txt)"
cd $R
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size
cat > /tmp/rank0ncu.sh <<EOF
#!/bin/bash
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then exec ncu --clock-control none --csv -k regex:pull_pairs --launch-skip 10 --launch-count 2 --metrics $M "\$@"; else exec "\$@"; fi
EOF
chmod +x /tmp/rank0ncu.sh
for b in new old; do
  timeout 100 mpiexec -np 2 /tmp/rank0ncu.sh /tmp/$b/lbm-gpu --local 256 --procs 1x1x2 --precision fp16s,sp --kernel pull --warmup 20 --reps 1 --steps 4 -o /tmp/n.csv --overwrite > $O/ncu-$b.csv 2>>$O/err-ncu.txt; say "ncu $b rc=$?"
done
for r in 1 2 3; do
  case $r in 2) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    left && timeout 90 mpiexec -np 2 /tmp/$b/lbm-gpu --local 256 --procs 1x1x1,1x1x2 --precision fp16s,sp --kernel pull --reps 5 --warmup 20 --append -o $O/weak-$b.csv 2>>$O/err.txt
    left && timeout 120 mpiexec -np 2 /tmp/$b/lbm-gpu --size 512 --procs 2x1x1,1x1x2 --precision sp,fp16s --kernel pull --reps 3 --append -o $O/strong-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, os, collections
d = sys.argv[1]
v = collections.defaultdict(list)
for f in sorted(glob.glob(d + '/weak-*.csv') + glob.glob(d + '/strong-*.csv')):
    b = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        v[(b.split('-')[0], r['precision'], r['procs'], b.split('-')[1])].append((float(r['mflups']), r['verified'], r['state_hash']))
for k in sorted(v):
    print(*k, 'mflups', ' '.join('%.0f' % a for a, ok, h in v[k]), 'best %.0f' % max(a for a, ok, h in v[k]), ' '.join(sorted(set(ok for a, ok, h in v[k]))), ' '.join(sorted(set(h for a, ok, h in v[k]))))
for f in sorted(glob.glob(d + '/ncu-*.csv')):
    for l in csv.reader(open(f)):
        if len(l) > 14 and l[0] != 'ID':
            print(os.path.basename(f), l[0], l[4][:30] + '..' + l[4][-20:], l[8], l[12], l[14])
PY
cat $O/summary.txt; tail -n 3 $O/err.txt $O/err-ncu.txt
cp $R/.peers/s30/call4.sh $O/
cd $OUT && tar czf r4.tgz r4 && rm -rf r4
