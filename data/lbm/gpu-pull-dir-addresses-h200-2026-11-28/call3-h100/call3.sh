#!/bin/bash
# session 25, call 3 (one H100): the tree (E) with MPI built: test_lbm_gpu, ctest -L gpu (the MPI
# same-state tests run the box kernels); then base (25839b6) against E, three rounds alternated.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; } > $O/machine.txt 2>&1
S=$R/.peers/s25
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/bbase -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 &&
  cmake --build /tmp/bbase -j4 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=E; cmake -S $R -B /tmp/bE -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld-E.log 2>&1 &&
  cmake --build /tmp/bE -j12 >> $O/bld-E.log 2>&1; echo "E $?" > $O/bld-E.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
(cd /tmp/bE && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 ctest -L gpu --timeout 150 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
/tmp/bE/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="E base";; *) ord="base E";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision dp,fp16s,fp16c --kernel pull --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bE/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
res=collections.defaultdict(list); B=('base','E')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)): res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v)))
for b in B:
    a=res.get(('pull','fp16c',b)); s=res.get(('pull','fp16s',b))
    if a and s: print('fp16c/fp16s pull %s %.3f'%(b,max(a)/max(s)))
PY
rm -f $O/bld-*.log; cp $S/call3.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
