#!/bin/bash
# session 25, call 6 (one GPU): the plain path where byte offsets pass 32 bits (a lattice over
# 4 GiB with interleaved rows). base (25839b6: the 32-bit index path), head (the committed tree:
# such lattices lost the plain path), fix (the tree: the index widened there). States at dp 336^3
# and sp 401^3 (odd: pull_kernel, not the paired one), three rounds, then ctest -L gpu with MPI on fix.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; } > $O/machine.txt 2>&1
S=$R/.peers/s25
for n in base head; do mkdir -p /tmp/src-$n && tar xzf $S/$n.tgz -C /tmp/src-$n; done
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
for n in base head; do
  (export LBMR_VERSION=$n; cmake -S /tmp/src-$n -B /tmp/b$n $CM -DLBMR_MPI=OFF > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j4 --target lbm-gpu >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) &
done
(export LBMR_VERSION=fix; cmake -S $R -B /tmp/bfix $CM > $O/bld-fix.log 2>&1 && cmake --build /tmp/bfix -j10 >> $O/bld-fix.log 2>&1; echo "fix $?" > $O/bld-fix.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
for b in base head fix; do
  timeout 120 /tmp/b$b/lbm-gpu --size 336 --precision dp --kernel pull --collision bgk,trt --geometry cavity,periodic --steps 3 --warmup 1 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
  timeout 120 /tmp/b$b/lbm-gpu --size 401 --precision sp --kernel pull --collision bgk,trt --geometry cavity,periodic --steps 3 --warmup 1 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['layout'],r['nx']); h[k][r['version'].split('-')[0]]=r['state_hash']; ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(v.values()))==1 and len(v)==3)
print('states: %d cases, %d identical in base/head/fix; verified %s'%(len(h),same,dict(ver)))
for k,v in h.items():
    if len(set(v.values()))!=1 or len(v)!=3: print('DIFF',k,v)
PY
say "states"
for r in 1 2 3; do
  case $r in 2) ord="fix head base";; 3) ord="head base fix";; *) ord="base head fix";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 336 --precision dp --kernel pull --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; res=collections.defaultdict(list)
for b in ('base','head','fix'):
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)): res[(r['kernel'],r['precision'],r['nx'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %s %-5s rounds %s best %.0f'%(k[0],k[1],k[2],k[3],' '.join('%.0f'%x for x in v),max(v)))
PY
/tmp/bfix/tests/test_lbm_gpu > $O/test-lbm-fix.txt 2>&1; say "test_lbm_gpu rc=$?"
(cd /tmp/bfix && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout $((LIMIT+50-(SECONDS-T0))) ctest -L gpu --timeout 150 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
rm -f $O/bld-*.log; cp $S/call6.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
