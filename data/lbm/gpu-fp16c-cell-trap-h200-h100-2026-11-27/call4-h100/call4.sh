#!/bin/bash
# session 24, call 4 (one H100): the committed tree (v1 + the cell trap, maxima as a chain) against
# base 5eae186: every GPU ctest, states, three rounds at 256^3, fp16c's and fp16s's block sizes.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; } > $O/machine.txt 2>&1
S=$R/.peers/s24
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/bbase $CM > $O/bld-base.log 2>&1 && cmake --build /tmp/bbase -j5 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=new; cmake -S $R -B /tmp/bnew $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/bnew -j11 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
(cd /tmp/bnew && timeout 240 ctest -L gpu -j2 --output-on-failure > $O/ctest.txt 2>&1); say "ctest rc=$? $(grep -E 'tests passed|tests failed' $O/ctest.txt)"
grep -E "nan spread|lbm_backend_check" $O/ctest.txt | head -3
for b in base new; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6,96x5x5 --precision sp,fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --layout soa,rows --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['layout'],r['nx']); h[k][r['version'].split('-')[0]]=r['state_hash']
print('states: %d cases, %d identical in base/new'%(len(h),sum(1 for v in h.values() if len(set(v.values()))==1 and len(v)==2)))
PY
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision sp,fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && timeout 120 /tmp/bnew/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull,aa --block 64,128,256 --reps 5 --append -o $O/blk.csv 2>>$O/err-t.txt
say "blocks"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]
res=collections.defaultdict(list); B=('base','new')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)): res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v)))
for kern in ('pull','aa'):
    for b in B:
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
if os.path.exists(O+'/blk.csv'):
    for r in csv.DictReader(open(O+'/blk.csv')): print('block', r['kernel'], r['precision'], r['threads'], r['mflups'])
PY
rm -f $O/bld-*.log; cp $S/call4.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
