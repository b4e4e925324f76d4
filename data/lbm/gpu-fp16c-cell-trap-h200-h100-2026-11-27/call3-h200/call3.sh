#!/bin/bash
# session 24, call 3 (one H200): which of the cuts pull and aa fp16c keep: base (5eae186), v1 (the
# encode's select), v12 (the tree: v1 + the cell trap as a tree), v12c (the trap's maxima as a chain),
# v12a (the cell trap in aa only); and pull's and aa's block sizes on base.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
nvidia-smi -L > $O/machine.txt 2>&1
S=$R/.peers/s24
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
cp -r /tmp/src-base /tmp/src-v1 && (cd /tmp/src-v1 && patch -p1 -s < $S/v1.patch) >> $O/patch.err 2>&1
mkdir -p /tmp/src-v12 && (cd $R && tar cf - --exclude=./.git --exclude=./build --exclude=./.peers --exclude=./data .) | tar xf - -C /tmp/src-v12
for v in c a; do cp -r /tmp/src-v12 /tmp/src-v12$v && cp $S/kern-v12$v.cuh /tmp/src-v12$v/gpu/lbm_kernels.cuh; done
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { local n=$1; shift
  (export LBMR_VERSION=$n; cmake -S /tmp/src-$n -B /tmp/b$n $CM > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j3 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) ; }
for v in base v1 v12 v12c v12a; do bld $v lbm-gpu & done
(cmake -S /tmp/src-v12 -B /tmp/bs $CM > /dev/null 2>&1 && cmake --build /tmp/bs -j1 --target stream-gpu > /dev/null 2>&1) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
for b in base v1 v12 v12c v12a; do
  timeout 60 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6 --precision fp16c --kernel pull,aa --collision bgk,trt,mrt \
    --geometry cavity,channel,periodic --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['nx']); h[k][r['version'].split('-')[0]]=r['state_hash']
print('states: %d cases, %d identical in all five'%(len(h),sum(1 for v in h.values() if len(set(v.values()))==1 and len(v)==5)))
PY
/tmp/bs/stream-gpu --kernel copy --precision fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="v12a v12c v12 v1 base";; 3) ord="v12 base v12a v1 v12c";; *) ord="base v1 v12 v12c v12a";; esac
  for b in $ord; do
    left && timeout 60 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && timeout 90 /tmp/bbase/lbm-gpu --size 256 --precision fp16c --kernel pull,aa --block 64,128,256 --reps 5 --append -o $O/blk.csv 2>>$O/err-t.txt
say "blocks"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]
res=collections.defaultdict(list); B=('base','v1','v12','v12c','v12a')
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
    for r in csv.DictReader(open(O+'/blk.csv')): print('block', r['kernel'], r['threads'], r['mflups'])
PY
rm -f $O/bld-*.log; cp $S/call3.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
