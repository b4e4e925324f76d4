#!/bin/bash
# session 18, call 8: the sp x-piece pairing (HEAD, "new") against 2399827 ("old") on two H100s:
# the distributed same-state ctests, x against z strong 512^3 and weak 256^3, three rounds
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-420}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nvidia-smi topo -m; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j16 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j16 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
(cd $R/build-new && timeout 150 ctest -R "gpu.*mpi|mpi.*gpu" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
for r in 1 2 3; do
  case $r in 2) ord="new old";; *) ord="old new";; esac
  for b in $ord; do
    left && timeout 150 mpiexec -np 2 $R/build-$b/lbm-gpu --size 512 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/s-$b.csv 2>>$O/err.txt
    left && timeout 150 mpiexec -np 2 $R/build-$b/lbm-gpu --local 256 --precision sp --kernel pull --procs 2x1x1,1x1x2 --reps 3 --append -o $O/w-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
med = lambda a: sorted(a)[len(a)//2]
for f in ('s', 'w'):
    for b in ('old', 'new'):
        v = collections.defaultdict(list)
        try: rows = list(csv.DictReader(open(f'{d}/{f}-{b}.csv')))
        except FileNotFoundError: continue
        for r in rows:
            if r['verified'] != 'pass': print('NOT VERIFIED', f, b, r['procs'])
            v[r['procs']].append(float(r['mflups_med']))
        x, z = v.get('2x1x1'), v.get('1x1x2')
        if x and z: print({'s': 'strong 512^3', 'w': 'weak 256^3'}[f], 'sp', b, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z), f'x/z {med(x)/med(z):.3f}')
PY
cat $O/summary.txt
tail -3 $O/err.txt | grep -v energy; rm -f $O/bld-*.log; cp $R/.peers/s18-h100x2.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
