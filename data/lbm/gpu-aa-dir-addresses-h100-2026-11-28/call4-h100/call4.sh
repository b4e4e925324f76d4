#!/bin/bash
# session 25, call 4 (one H200): head (pull on direction addresses, committed) against A (the tree:
# aa's 16-bit neighbour half on direction addresses too). States, test_lbm_gpu, three rounds
# alternated, ncu counts of aa's neighbour kernel, memcheck.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-480}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; } > $O/machine.txt 2>&1
S=$R/.peers/s25
mkdir -p /tmp/src-head && tar xzf $S/head.tgz -C /tmp/src-head
mkdir -p /tmp/src-A && (cd $R && tar cf - --exclude=./.git --exclude=./build --exclude=./.peers --exclude=./data .) | tar xf - -C /tmp/src-A
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { local n=$1; shift
  (export LBMR_VERSION=$n; cmake -S /tmp/src-$n -B /tmp/b$n $CM > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j8 --target "$@" >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) ; }
bld A lbm-gpu test_lbm_gpu stream-gpu &
bld head lbm-gpu &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
for b in head A; do
  timeout 100 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6,96x5x5,130x7x5 --precision sp,dp,fp16s,fp16c --kernel aa \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --layout soa,rows --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
  timeout 100 /tmp/b$b/lbm-gpu --dims 64x33x20 --precision fp16s,fp16c --kernel aa --collision bgk,trt,mrt --geometry cavity,channel,periodic \
    --layout soa,rows --steps 9 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict); ver=collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['precision'],r['layout'],r['nx'],r['ny'],r['nz']); h[k][r['version'].split('-')[0]]=r['state_hash']; ver[r['verified']]+=1
same=sum(1 for k,v in h.items() if len(set(v.values()))==1 and len(v)==2)
print('states: %d cases, %d identical in head/A; verified %s'%(len(h),same,dict(ver)))
for k,v in h.items():
    if len(set(v.values()))!=1 or len(v)!=2: print('DIFF',k,v)
PY
say "states"
timeout 150 /tmp/bA/tests/test_lbm_gpu > $O/test-lbm-A.txt 2>&1; say "test_lbm_gpu A rc=$?"
/tmp/bA/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="A head";; *) ord="head A";; esac
  for b in $ord; do
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
    left && timeout 90 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bA/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active
for b in head A; do
  left && timeout 60 ncu -k regex:"aa_kernel|aa_pairs" --launch-skip 20 --launch-count 6 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel aa --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
done; say "ncu"
left && timeout 80 compute-sanitizer --tool memcheck /tmp/bA/lbm-gpu --dims 70x9x6,130x7x5 --precision fp16s,fp16c --kernel aa --geometry cavity,periodic --layout soa,rows --steps 4 --warmup 1 --reps 1 -o /dev/null > $O/memcheck.txt 2>&1; say "memcheck rc=$?"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
res=collections.defaultdict(list); B=('head','A')
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
grep -E "aa_kernel|aa_pairs|inst_executed.sum|registers|duration|warps_active" $O/ncu-*.txt | sed 's/  \+/ /g' | cut -c1-160 >> $O/summary.txt
rm -f $O/bld-*.log; cp $S/call4.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
