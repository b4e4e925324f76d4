#!/bin/bash
# session 18, call 9: the sp x-piece pairing (HEAD, "new") against 2399827 ("old") on four GPUs:
# weak 256^3 a GPU on 2x2x1, 4x1x1, 1x2x2, sp, two rounds; the distributed same-state ctests
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-200}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; mpiexec --version | head -1; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B $R/build-new $CM > $O/bld-new.log 2>&1 && cmake --build $R/build-new -j32 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B $R/build-old $CM > $O/bld-old.log 2>&1 && cmake --build $R/build-old -j32 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
(cd $R/build-new && timeout 120 ctest -R "gpu_mpi_same_state" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest.log)
export LBMR_ENERGY=off
for r in 1 2; do
  case $r in 2) ord="new old";; *) ord="old new";; esac
  for b in $ord; do
    left && timeout 100 mpiexec -np 4 $R/build-$b/lbm-gpu --local 256 --precision sp --kernel pull --procs 1x1x1,1x2x2,2x2x1,4x1x1 --reps 3 --append -o $O/w-$b.csv 2>>$O/err.txt
  done; say "round $r"
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
for b in ('old', 'new'):
    v = collections.defaultdict(list)
    try: rows = list(csv.DictReader(open(f'{d}/w-{b}.csv')))
    except FileNotFoundError: continue
    for r in rows:
        if r['verified'] != 'pass': print('NOT VERIFIED', b, r['procs'])
        v[r['procs']].append((float(r['mflups_med']), r['efficiency']))
    for k in ('1x1x1', '1x2x2', '2x2x1', '4x1x1'):
        if k in v: print('weak 256^3 sp', b, k, ' '.join(f'{m:.0f} ({e[:5]})' for m, e in v[k]))
PY
cat $O/summary.txt
tail -3 $O/err.txt | grep -v energy; rm -f $O/bld-*.log; cp $R/.peers/s18-x4.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
