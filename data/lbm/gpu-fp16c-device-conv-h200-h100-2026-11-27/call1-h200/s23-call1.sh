#!/bin/bash
# session 23, call 1 (one GPU): fp16c's device conversions (storage16.h lbm_fp16c_*_dev) against
# the scaled ones. Builds: old (LBMR_FP16C_DEV=0), new (the default), newP (new + fp16c's pull two
# cells a thread, LBMR_FP16C_PULL_PAIRS=1). Checks: test_storage16_gpu (every code and float),
# the states of the three builds on small fp16c/fp16s cases; SASS opcode counts; ncu of pull and
# aa fp16c; then alternated rounds at 256^3 (fp16s, fp16c; pull, aa) and a 2-byte copy.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-530}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version,power.limit --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { # name, cuda flags, targets...
  local n=$1 f=$2; shift 2
  (export LBMR_VERSION=$n; cmake -S $R -B /tmp/b$n $CM "-DCMAKE_CUDA_FLAGS=$f" > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j16 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc)
}
bld new "" lbm-gpu stream-gpu test_storage16_gpu &
bld old "-DLBMR_FP16C_DEV=0" lbm-gpu &
bld newP "-DLBMR_FP16C_PULL_PAIRS=1" lbm-gpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -ihE " error|warning" $O/bld-*.log | head -5
/tmp/bnew/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"; cat $O/storage16.txt
for b in old new newP; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,33x7x5,72x12x10 --precision fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['nx'],r['ny'],r['nz']); h[k][r['version'].split('-')[0]]=(r['state_hash'],r['verified']); ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(x[0] for x in v.values()))==1 and len(v)==3)
print('states: %d cases, %d identical in old/new/newP; verified %s'%(len(h),same,dict(ver)))
PY
say "states"
for b in old new newP; do cuobjdump -sass /tmp/b$b/lbm-gpu > /tmp/sass-$b.txt 2>/dev/null; done
python3 $R/.peers/s23-sass.py /tmp/sass-old.txt /tmp/sass-new.txt /tmp/sass-newP.txt > $O/sass.txt 2>&1; say "sass"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for b in old new newP; do
  left && timeout 60 ncu -k regex:"pull|aa" --launch-skip 30 --launch-count 3 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull,aa --steps 20 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
done; say "ncu"
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="newP new old";; 3) ord="new old newP";; *) ord="old new newP";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,glob,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
c2=max(cp.get('fp16s',[0]))
res=collections.defaultdict(list)
for b in ('old','new','newP'):
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f (%.1f%% of 2-byte floor)'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v),100*max(v)/(c2*1e3/76) if c2 else 0))
for kern in ('pull','aa'):
    for b in ('old','new','newP'):
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
PY
rm -f $O/bld-*.log; cp $R/.peers/s23-call1.sh $R/.peers/s23-sass.py $O/
say total
