#!/bin/bash
# session 25, call 1 (one H200): pull's plain-path loads and 16-bit stores on a uniform direction
# address and the cell's 32-bit byte offset (gpu_at, [R.U32+UR]) against base (25839b6). SASS of
# pull fp16c, states, test_lbm_gpu, ncu counts and pipes, three rounds alternated, memcheck.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-520}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; ncu --version | tail -1; } > $O/machine.txt 2>&1
S=$R/.peers/s25
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
mkdir -p /tmp/src-new && (cd $R && tar cf - --exclude=./.git --exclude=./build --exclude=./.peers --exclude=./data .) | tar xf - -C /tmp/src-new
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { local n=$1; shift
  (export LBMR_VERSION=$n; cmake -S /tmp/src-$n -B /tmp/b$n $CM > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j8 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) ; }
bld new lbm-gpu test_lbm_gpu stream-gpu &
bld base lbm-gpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
for b in base new; do
  cuobjdump -sass /tmp/b$b/lbm-gpu > /tmp/sass-$b.txt 2>&1
  python3 - /tmp/sass-$b.txt $O/sass-$b <<'PY'
import re,sys,subprocess
want={'pull-fp16c':'void pull_kernel<gpu_fp16c, 0, 0, (gpu_lbm_variant)0>','pull-dp':'void pull_kernel<double, 0, 0, (gpu_lbm_variant)0>',
      'pull-fp16s':'void pull_kernel<gpu_fp16s, 0, 0, (gpu_lbm_variant)0>','box-fp16c':'void pull_kernel<gpu_fp16c, 0, 0, (gpu_lbm_variant)3>'}
out={}; cur=None
for line in open(sys.argv[1]):
    m=re.match(r'\s+Function : (\S+)',line)
    if m:
        n=subprocess.run(['c++filt',m.group(1)],capture_output=True,text=True).stdout.strip(); cur=None
        for k,w in want.items():
            if n.startswith(w): cur=k; out[k]=[n+'\n']
        continue
    if cur: out[cur].append(line)
for k,l in out.items(): open(sys.argv[2]+'-'+k+'.txt','w').writelines(l)
PY
done; say "sass"
for b in base new; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6,96x5x5,130x7x5 --precision sp,dp,fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --layout soa,rows --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['layout'],r['nx'],r['ny'],r['nz']); h[k][r['version'].split('-')[0]]=r['state_hash']; ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(v.values()))==1 and len(v)==2)
print('states: %d cases, %d identical in base/new; verified %s'%(len(h),same,dict(ver)))
for k,v in h.items():
    if len(set(v.values()))!=1 or len(v)!=2: print('DIFF',k,v)
PY
say "states"
timeout 150 /tmp/bnew/tests/test_lbm_gpu > $O/test-lbm-new.txt 2>&1; say "test_lbm_gpu new rc=$?"
/tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
for b in base new; do
  left && timeout 60 ncu -k regex:"pull_kernel" --launch-skip 20 --launch-count 1 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c,fp16s,dp --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
done; say "ncu"
left && timeout 60 ncu -k regex:pull_kernel --launch-skip 20 --launch-count 1 --section SourceCounters -o /tmp/src-new -f \
    /tmp/bnew/lbm-gpu --size 256 --precision fp16c --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > /dev/null 2>&1 &&
  ncu --import /tmp/src-new.ncu-rep --page source --csv --print-source sass > $O/src-new-fp16c.csv 2>&1
say "source"
left && timeout 60 compute-sanitizer --tool memcheck /tmp/bnew/lbm-gpu --dims 70x9x6,130x7x5 --precision sp,dp,fp16s,fp16c --kernel pull --geometry cavity,periodic --layout soa,rows --steps 4 --warmup 1 --reps 1 -o /dev/null > $O/memcheck.txt 2>&1; say "memcheck rc=$?"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
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
PY
rm -f $O/bld-*.log; cp $S/call1.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
