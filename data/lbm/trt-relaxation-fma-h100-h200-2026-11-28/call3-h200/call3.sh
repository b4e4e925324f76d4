#!/bin/bash
# session 27, call 3 (an H200): TRT's one-fma odd part where fp16c is bound by its instructions.
# Builds base (6af6845) and the tree (new), lbm-gpu only; three rounds alternated base/new at
# 256^3, BGK, TRT and MRT (pull, aa; sp, dp, fp16s, fp16c); the same call's copy.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; lscpu | head -20; } > $O/machine.txt 2>&1
S=$R/.peers/s27
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
for b in base new; do
  src=$R; [ $b = base ] && src=/tmp/src-base
  (export LBMR_VERSION=$b; cmake -S $src -B /tmp/b$b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-$b.log 2>&1 &&
    cmake --build /tmp/b$b -j8 --target lbm-gpu stream-gpu >> $O/bld-$b.log 2>&1; echo "$b $?" > $O/bld-$b.rc) &
done
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
/tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 120 /tmp/b$b/lbm-gpu --size 256 --collision bgk,trt,mrt --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 3 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:round(max(v)) for k,v in cp.items()})
res=collections.defaultdict(list); st=collections.defaultdict(set); B=('base','new')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        k=(r['collision'],r['kernel'],r['precision'],b)
        res[k].append(float(r['mflups'])); st[k].add(r['verified'])
for k in sorted(res):
    v=res[k]; print('%-4s %-5s %-6s %-5s rounds %s best %.0f %s'%(k[0],k[1],k[2],k[3],' '.join('%.0f'%x for x in v),max(v),st[k]))
for c in ('trt','bgk','mrt'):
    for kern in ('pull','aa'):
        print(c, kern, ' '.join('%s %.3f'%(p, max(res[(c,kern,p,'new')])/max(res[(c,kern,p,'base')])) for p in ('sp','dp','fp16s','fp16c') if res.get((c,kern,p,'base')) and res.get((c,kern,p,'new'))))
for c in ('trt','mrt'):
    for kern in ('pull','aa'):
        print(c+'/bgk new', kern, ' '.join('%s %.3f'%(p, max(res[(c,kern,p,'new')])/max(res[('bgk',kern,p,'new')])) for p in ('sp','dp','fp16s','fp16c') if res.get((c,kern,p,'new')) and res.get(('bgk',kern,p,'new'))))
PY
rm -f $O/bld-*.log; cp $S/call3.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
