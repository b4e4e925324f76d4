#!/bin/bash
# session 23, call 3 (one H100 and its 16-core host): (1) fp16c's device conversions (new2, HEAD's
# tree) against the scaled ones (old: LBMR_FP16C_DEV=0) on the H100, three rounds alternated at
# 256^3; (2) the CPU's pull_nt line-step rule (C: 7a47738, HEAD) against the code before it (A:
# 7a47738^'s cpu/lbm_omp_pull.c) on the host, 16 threads, sizes whose sp rows are not whole 4-line
# steps (96 160 200 224 352 416) and 256 (whole steps: the same code), sp, plus dp 200; states first
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version,power.limit --format=csv; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Core\(s\)|Thread"; } > $O/machine.txt 2>&1
mkdir -p /tmp/A && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/A && cp .peers/s23-pull-old.c /tmp/A/cpu/lbm_omp_pull.c
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
CPUCM="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { # name, source, cmake args, targets...
  local n=$1 src=$2 a=$3; shift 3
  (export LBMR_VERSION=$n; cmake -S $src -B /tmp/b$n $a > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j8 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc)
}
bld new2 $R "$CM" lbm-gpu stream-gpu test_storage16_gpu &
bld old $R "$CM -DCMAKE_CUDA_FLAGS=-DLBMR_FP16C_DEV=0" lbm-gpu &
bld C $R "$CPUCM" lbm-cpu stream-cpu &
bld A /tmp/A "$CPUCM" lbm-cpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -ihE " error|warning" $O/bld-*.log | head -5
/tmp/bnew2/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"
left && /tmp/bnew2/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new2 old";; *) ord="old new2";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "gpu round $r"
done
left && /tmp/bnew2/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
pack
export OMP_PROC_BIND=close OMP_PLACES=cores
for b in A C; do
  OMP_NUM_THREADS=2 timeout 100 /tmp/b$b/lbm-cpu --quiet-wait off --dims 96x10x8,160x9x7,200x8x6,224x6x5,256x5x4,72x9x8 --precision sp,dp,fp16s \
    --kernel pull_nt --collision bgk,trt --geometry cavity,periodic --steps 9 --warmup 2 --reps 1 --append -o $O/cstate.csv 2>>$O/err-c.txt
done; say "cpu states"
for r in 1 2 3 4 5; do
  case $((r % 2)) in 0) ord="C A";; *) ord="A C";; esac
  left && OMP_NUM_THREADS=16 /tmp/bC/stream-cpu --kernel copy_nt --precision sp,dp --reps 10 --append -o $O/cstream.csv 2>>$O/err-c.txt
  for b in $ord; do
    left && OMP_NUM_THREADS=16 timeout 120 /tmp/b$b/lbm-cpu --size 96,160,200,224,256,352,416 --precision sp --kernel pull_nt --reps 5 --append -o $O/c-$b.csv 2>>$O/err-c.txt
    left && OMP_NUM_THREADS=16 timeout 60 /tmp/b$b/lbm-cpu --size 200 --precision dp --kernel pull_nt --reps 5 --append -o $O/c-$b.csv 2>>$O/err-c.txt
  done; say "cpu round $r"; pack
done
python3 - $O <<'PY' > $O/summary.txt 2>&1
import csv,sys,collections,os
O=sys.argv[1]
def rows(f): return list(csv.DictReader(open(f))) if os.path.exists(f) else []
cp={}
for r in rows(O+'/copy.csv'): cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('gpu copy GB/s', {k:max(v) for k,v in cp.items()})
c2=max(cp.get('fp16s',[0])) if cp else 0
res=collections.defaultdict(list)
for b in ('old','new2'):
    for r in rows(O+'/t-%s.csv'%b): res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f (%.1f%% of 2-byte floor)'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v),100*max(v)/(c2*1e3/76) if c2 else 0))
for kern in ('pull','aa'):
    for b in ('old','new2'):
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
st=collections.defaultdict(set)
for r in rows(O+'/cstate.csv'): st[(r['nx'],r['ny'],r['nz'],r['precision'],r['collision'],r['geometry'])].add((r['state_hash'],r['verified']))
print('cpu state groups', len(st), 'one state each, verified:', sum(len(v)==1 and next(iter(v))[1]=='pass' for v in st.values()))
med=lambda a: sorted(a)[len(a)//2] if len(a)%2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1])/2
cs=collections.defaultdict(list)
for r in rows(O+'/cstream.csv'): cs[r['precision']].append(float(r['bw_prog_GBs']))
print('copy_nt GB/s per round', {k:' '.join('%.0f'%x for x in v) for k,v in cs.items()})
v=collections.defaultdict(list)
for b in ('A','C'):
    for r in rows(O+'/c-%s.csv'%b): v[(r['precision'],int(r['nx']),b)].append(float(r['mflups_med']))
for p,n in sorted(set((k[0],k[1]) for k in v)):
    a,c=v.get((p,n,'A'),[]),v.get((p,n,'C'),[])
    if a and c:
        ce=med(cs.get(p,[0]))*1e3/(152 if p=='sp' else 304)
        print('%s %4d A %s | C %s | C/A medians %.3f | C %% of median copy_nt %.1f'%(p,n,' '.join('%.0f'%x for x in a),' '.join('%.0f'%x for x in c),med(c)/med(a),100*med(c)/ce if ce else 0))
PY
cat $O/summary.txt; grep -hv "energy" $O/err-c.txt | head -3
rm -f $O/bld-*.log; cp $R/.peers/s23-call3.sh $O/; pack; say total
