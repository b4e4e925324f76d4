#!/bin/bash
# session 24, call 2 (one H200): fp16c's four instruction cuts (data/PERFORMANCE-NOTES.md) in steps:
# base (HEAD 5eae186), v12 (encode select + cell trap), v123 (+ x-end fix-up), new (the tree: + unsigned
# index), vmut (new without the cell trap: the NaN test must fail). States, tests, ncu, three rounds.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-545}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; } > $O/machine.txt 2>&1
S=$R/.peers/s24
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base && cp $R/tests/lbm_backend_check.c /tmp/src-base/tests/
for v in v12 v123; do cp -r /tmp/src-base /tmp/src-$v && (cd /tmp/src-$v && git apply --exclude=tests/* $S/$v.patch 2>>$O/patch.err || patch -p1 -s < $S/$v.patch >> $O/patch.err 2>&1); done
mkdir -p /tmp/src-new && (cd $R && tar cf - --exclude=./.git --exclude=./build --exclude=./.peers --exclude=./data .) | tar xf - -C /tmp/src-new
cp -r /tmp/src-new /tmp/src-vmut && sed -i 's|    f\[0\] = lbm_fp16c_trap_cell(f\[0\], m\[0\]);|    (void)m; /* mutation */|' /tmp/src-vmut/gpu/lbm_kernels.cuh
grep -c "mutation" /tmp/src-vmut/gpu/lbm_kernels.cuh >> $O/patch.err
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { local n=$1; shift
  (export LBMR_VERSION=$n; cmake -S /tmp/src-$n -B /tmp/b$n $CM > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j4 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) ; }
bld new lbm-gpu test_lbm_gpu test_storage16_gpu stream-gpu &
bld base lbm-gpu test_lbm_gpu &
bld v12 lbm-gpu &
bld v123 lbm-gpu &
bld vmut test_lbm_gpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
/tmp/bnew/tests/test_storage16_gpu > $O/storage16.txt 2>&1; say "test_storage16_gpu rc=$?"
for b in base v12 v123 new; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6,96x5x5,33x7x5 --precision sp,dp,fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --layout soa,rows --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['layout'],r['nx'],r['ny'],r['nz']); h[k][r['version'].split('-')[0]]=r['state_hash']; ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(v.values()))==1 and len(v)==4)
print('states: %d cases, %d identical in base/v12/v123/new; verified %s'%(len(h),same,dict(ver)))
for k,v in h.items():
    if len(set(v.values()))!=1 or len(v)!=4: print('DIFF',k,v)
PY
say "states"
for b in new base vmut; do timeout 150 /tmp/b$b/tests/test_lbm_gpu > $O/test-lbm-$b.txt 2>&1; say "test_lbm_gpu $b rc=$?"; done
grep -c "nan spread" $O/test-lbm-vmut.txt >> $O/log.txt
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new v123 v12 base";; 3) ord="v12 new base v123";; *) ord="base v12 v123 new";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision sp,fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && timeout 60 /tmp/bnew/lbm-gpu --size 256 --precision dp --kernel pull,aa --reps 5 --append -o $O/t-new.csv 2>>$O/err-t.txt
left && timeout 60 /tmp/bbase/lbm-gpu --size 256 --precision dp --kernel pull,aa --reps 5 --append -o $O/t-base.csv 2>>$O/err-t.txt
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
say "timing"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
for b in base v12 v123 new; do
  left && timeout 60 ncu -k regex:"pull_kernel|aa_kernel|aa_pairs" --launch-skip 20 --launch-count 4 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull,aa --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
  left && timeout 60 ncu -k regex:"pull_kernel" --launch-skip 20 --launch-count 1 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision sp --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-sp-$b.txt 2>&1
done; say "ncu"
left && timeout 60 ncu -k regex:pull_kernel --launch-skip 20 --launch-count 1 --section SourceCounters -o /tmp/src-new -f \
    /tmp/bnew/lbm-gpu --size 256 --precision fp16c --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > /dev/null 2>&1 &&
  ncu --import /tmp/src-new.ncu-rep --page source --csv --print-source sass > $O/src-new-fp16c.csv 2>&1
say "source"
left && timeout 60 compute-sanitizer --tool memcheck /tmp/bnew/lbm-gpu --dims 70x9x6,96x5x5 --precision sp,fp16c --kernel pull,aa --geometry cavity,periodic --layout soa,rows --steps 4 --warmup 1 --reps 1 -o /dev/null > $O/memcheck.txt 2>&1; say "memcheck rc=$?"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
c2=max(cp.get('fp16s',[0]))
res=collections.defaultdict(list)
B=('base','v12','v123','new')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        res[(r['kernel'],r['precision'],b)].append(float(r['mflups']))
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v)))
for kern in ('pull','aa'):
    for b in B:
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
PY
rm -f $O/bld-*.log; cp $S/call2.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
