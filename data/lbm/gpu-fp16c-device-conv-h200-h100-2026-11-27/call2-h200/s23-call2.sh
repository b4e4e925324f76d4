#!/bin/bash
# session 23, call 2 (one GPU): fp16c's device conversions, second form (new2: the rounding and the
# 2^-112 in one fma, the code loaded as a signed 16-bit value) against the first (v1: call 1's
# "new", .peers/s23-v1 over this tree) and the scaled ones (old: LBMR_FP16C_DEV=0). Checks:
# test_storage16_gpu, the states of the three builds, SASS opcode counts, ncu of pull and aa
# fp16c; alternated rounds at 256^3 (fp16s, fp16c; pull, aa) and a 2-byte copy; ctest -L gpu last.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-500}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
pack() { tar czf $OUT/r.tgz -C $OUT r; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,ecc.mode.current,driver_version,power.limit --format=csv; nproc; } > $O/machine.txt 2>&1
mkdir -p /tmp/S1 && tar cf - --exclude='./build*' --exclude=./.peers . | tar xf - -C /tmp/S1 && cp .peers/s23-v1/storage16.h /tmp/S1/lbm/model/ && cp .peers/s23-v1/lbm_kernels.cuh /tmp/S1/gpu/
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
bld() { # name, source, cuda flags, targets...
  local n=$1 src=$2 f=$3; shift 3
  (export LBMR_VERSION=$n; cmake -S $src -B /tmp/b$n $CM "-DCMAKE_CUDA_FLAGS=$f" > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j16 "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc)
}
bld new2 $R "" &
bld v1 /tmp/S1 "" --target lbm-gpu &
bld old $R "-DLBMR_FP16C_DEV=0" --target lbm-gpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -ihE " error|warning" $O/bld-*.log | head -5
/tmp/bnew2/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"; cat $O/storage16.txt
for b in old v1 new2; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,33x7x5,72x12x10 --precision fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['nx'],r['ny'],r['nz']); h[k][r['version'].split('-')[0]]=r['state_hash']; ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(v.values()))==1 and len(v)==3)
print('states: %d cases, %d identical in old/v1/new2; verified %s'%(len(h),same,dict(ver)))
PY
say "states"; pack
for b in v1 new2; do cuobjdump -sass /tmp/b$b/lbm-gpu > /tmp/sass-$b.txt 2>/dev/null; done
python3 $R/.peers/s23-sass.py /tmp/sass-v1.txt /tmp/sass-new2.txt > $O/sass.txt 2>&1; say "sass"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for b in old v1 new2; do
  left && timeout 60 ncu -k regex:"pull_kernel|aa_" --launch-skip 40 --launch-count 4 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull,aa --steps 20 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
done; say "ncu"; pack
left && /tmp/bnew2/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new2 v1 old";; 3) ord="v1 old new2";; *) ord="old v1 new2";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bnew2/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
c2=max(cp.get('fp16s',[0]))
res=collections.defaultdict(list); B=('old','v1','new2')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f (%.1f%% of 2-byte floor)'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v),100*max(v)/(c2*1e3/76) if c2 else 0))
for kern in ('pull','aa'):
    for b in B:
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
PY
pack
if left; then (cd /tmp/bnew2 && timeout $((LIMIT+60-SECONDS+T0)) ctest -L gpu --timeout 150 > $O/ctest.txt 2>&1); say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head; fi
rm -f $O/bld-*.log; cp $R/.peers/s23-call2.sh $R/.peers/s23-sass.py $O/
pack; say total
