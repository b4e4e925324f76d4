#!/bin/bash
# session 26, call 2 (the H100 machine): BGK's relaxation as (1 - w) f + w e, base (0decd49)
# against the tree (new). The 16-core host: five rounds alternated (order swapped every other
# round), each with its own stream-cpu copy/copy_nt and roofline; aa and pull_nt at 256^3 in sp,
# dp, fp16s, fp16c. Then the H100: three rounds alternated, pull and aa, four precisions.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; lscpu; gcc --version | head -1; } > $O/machine.txt 2>&1
S=$R/.peers/s26
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/bbase -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 &&
  cmake --build /tmp/bbase -j8 --target lbm-gpu lbm-cpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=new; cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j8 --target lbm-gpu lbm-cpu stream-cpu stream-gpu roofline >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
# the host
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
for r in 1 2 3 4 5; do
  case $r in 2|4) ord="new base";; *) ord="base new";; esac
  left && /tmp/bnew/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err-cpu.txt
  for b in $ord; do
    left && timeout 80 /tmp/b$b/lbm-cpu --size 256 --kernel aa,pull_nt --precision sp,dp,fp16s,fp16c --reps 5 -o $O/cpu-$b-$r.csv 2>>$O/err-cpu.txt
  done
  [ -f $O/cpu-new-$r.csv ] && /tmp/bnew/roofline $O/stream-$r.csv $O/cpu-new-$r.csv -o $O/roof-new-$r.csv 2>>$O/err-cpu.txt
  [ -f $O/cpu-base-$r.csv ] && /tmp/bnew/roofline $O/stream-$r.csv $O/cpu-base-$r.csv -o $O/roof-base-$r.csv 2>>$O/err-cpu.txt
  say "cpu round $r"
done
unset OMP_NUM_THREADS OMP_PROC_BIND OMP_PLACES
# the GPU
/tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 100 /tmp/b$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "gpu round $r"
done
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os,glob,statistics as st
O=sys.argv[1]
def rows(f): return list(csv.DictReader(open(f))) if os.path.exists(f) else []
print('host: MFLUP/s per round (percent of the round ceiling from roofline)')
res=collections.defaultdict(dict); pct=collections.defaultdict(dict); ver=set()
for f in glob.glob(O+'/cpu-*-*.csv'):
    b,r=os.path.basename(f)[4:-4].split('-')
    for x in rows(f): res[(x['kernel'],x['precision'],b)][int(r)]=float(x['mflups']); ver.add(x['verified'])
for f in glob.glob(O+'/roof-*-*.csv'):
    b,r=os.path.basename(f)[5:-4].split('-')
    for x in rows(f):
        k=[c for c in x if 'pct' in c or 'percent' in c]
        if k and x.get('kernel') and x.get('precision'): pct[(x['kernel'],x['precision'],b)][int(r)]=x[k[0]]
print('verified', ver)
for k in sorted(res):
    v=res[k]; p=pct.get(k,{})
    print('%-8s %-6s %-5s %s  median %.0f  pct %s'%(k[0],k[1],k[2],' '.join('%.0f'%v[r] for r in sorted(v)),st.median(v.values()),' '.join(str(p[r])[:5] for r in sorted(p))))
for kern in ('aa','pull_nt'):
    for p in ('sp','dp','fp16s','fp16c'):
        a=res.get((kern,p,'base')); n=res.get((kern,p,'new'))
        if a and n: print('host %s %s new/base medians %.3f'%(kern,p,st.median(n.values())/st.median(a.values())))
g=collections.defaultdict(list)
for b in ('base','new'):
    for x in rows(O+'/t-%s.csv'%b): g[(x['kernel'],x['precision'],b)].append(float(x['mflups']))
cp={}
for x in rows(O+'/copy.csv'): cp.setdefault(x['precision'],[]).append(float(x['bw_prog_GBs']))
print('H100 copy GB/s', {k:max(v) for k,v in cp.items()})
for k in sorted(g): print('gpu %-5s %-6s %-5s %s best %.0f'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in g[k]),max(g[k])))
for kern in ('pull','aa'):
    for p in ('sp','dp','fp16s','fp16c'):
        a=g.get((kern,p,'base')); n=g.get((kern,p,'new'))
        if a and n: print('gpu %s %s new/base %.3f'%(kern,p,max(n)/max(a)))
    for b in ('base','new'):
        a=g.get((kern,'fp16c',b)); s=g.get((kern,'fp16s',b))
        if a and s: print('gpu fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
PY
rm -f $O/bld-*.log; cp $S/call2.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
