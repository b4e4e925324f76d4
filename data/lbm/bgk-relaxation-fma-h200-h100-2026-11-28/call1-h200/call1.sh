#!/bin/bash
# session 26, call 1 (GPU): BGK's relaxation as (1 - w) f + w e. Builds base (0decd49) and the
# tree (new, MPI on); the GPU state baseline rewritten from new (state_hash_grid.sh --update gpu,
# which holds every GPU row to the tree's CPU baseline); ctest -L gpu; three rounds alternated
# base/new at 256^3 (pull, aa; sp, dp, fp16s, fp16c); ncu counts of pull and aa fp16c.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-530}
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; lscpu | head -20; } > $O/machine.txt 2>&1
S=$R/.peers/s26
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/bbase -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 &&
  cmake --build /tmp/bbase -j4 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=new; cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j12 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
grep -hE "registers" $O/bld-new.log | head -0
timeout 200 bash tests/state_hash_grid.sh --update gpu /tmp/bnew/lbm-gpu > $O/grid-update.txt 2>&1; say "grid update rc=$?"
cp tests/state_hashes_gpu.csv $O/state_hashes_gpu.csv
tail -3 $O/grid-update.txt
(cd /tmp/bnew && timeout 250 ctest -L gpu --timeout 200 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
/tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 100 /tmp/b$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
left && /tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
for b in base new; do
  left && timeout 60 ncu -k regex:"pull_kernel" --launch-skip 20 --launch-count 1 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-pull-$b.txt 2>&1
  left && timeout 60 ncu -k regex:"aa_kernel|aa_pairs" --launch-skip 20 --launch-count 2 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel aa --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-aa-$b.txt 2>&1
done; say "ncu"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; cp={}
for r in csv.DictReader(open(O+'/copy.csv')):
    cp.setdefault(r['precision'],[]).append(float(r['bw_prog_GBs']))
print('copy GB/s', {k:max(v) for k,v in cp.items()})
res=collections.defaultdict(list); st=collections.defaultdict(set); B=('base','new')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        res[(r['kernel'],r['precision'],b)].append(float(r['mflups'])); st[(r['kernel'],r['precision'],b)].add(r['verified'])
for k in sorted(res):
    v=res[k]; print('%-5s %-6s %-5s rounds %s best %.0f %s'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in v),max(v),st[k]))
for kern in ('pull','aa'):
    for p in ('sp','dp','fp16s','fp16c'):
        a=res.get((kern,p,'base')); n=res.get((kern,p,'new'))
        if a and n: print('%s %s new/base %.3f'%(kern,p,max(n)/max(a)))
    for b in B:
        a=res.get((kern,'fp16c',b)); s=res.get((kern,'fp16s',b))
        if a and s: print('fp16c/fp16s %s %s %.3f'%(kern,b,max(a)/max(s)))
PY
grep -E "pull_kernel|aa_kernel|aa_pairs|inst_executed.sum|registers|pipe_alu|pipe_fma |issue_active|duration" $O/ncu-*.txt | sed 's/  \+/ /g' | cut -c1-170 | tee -a $O/summary.txt
rm -f $O/bld-*.log; cp $S/call1.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
