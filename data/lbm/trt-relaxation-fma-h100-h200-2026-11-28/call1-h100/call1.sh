#!/bin/bash
# session 27, call 1 (an H100 and its 16-core host): TRT's odd part in one fused multiply-add a
# side. Builds base (6af6845, lbm-gpu) and the tree (new, CPU + GPU, MPI on), and the peer
# (lbm-benchmark-kernels, by hand, for call 2); both state baselines rewritten from new (the CPU's
# over the whole grid with MPI, then the GPU's, held to it); ctest -L gpu; three GPU rounds
# alternated base/new, TRT and BGK at 256^3 (pull, aa; sp, dp, fp16s, fp16c).
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; lscpu; gcc --version | head -1; command -v mpiexec; } > $O/machine.txt 2>&1
S=$R/.peers/s27
mkdir -p /tmp/src-base && tar xzf $S/base.tgz -C /tmp/src-base
(export LBMR_VERSION=base; cmake -S /tmp/src-base -B /tmp/bbase -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 &&
  cmake --build /tmp/bbase -j4 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base $?" > $O/bld-base.rc) &
(export LBMR_VERSION=new; cmake -S $R -B /tmp/bnew -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF > $O/bld-new.log 2>&1 &&
  cmake --build /tmp/bnew -j12 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
# the peer for call 2 (not committed; built as in data/lbm/cpu-vm-rounds-2core-vm-2026-11-27)
(mkdir -p /tmp/pp && tar xzf $S/peer.tgz -C /tmp/pp && cd /tmp/pp/peer/src && sed -i 's/default(none)//g' *.c *.h &&
  for p in sp dp; do make CONFIG=linux-gcc PRECISION=$p TARCH="-march=native" ISA=avx512 -j8 > $O/peer-bld-$p.log 2>&1 || echo "peer $p failed"; done) &
timeout 150 bash tests/state_hash_grid.sh --update --mpiexec "$(command -v mpiexec)" /tmp/bnew/lbm-cpu > $O/grid-update-cpu.txt 2>&1; say "cpu grid update rc=$?"
tail -2 $O/grid-update-cpu.txt; cp tests/state_hashes.csv $O/state_hashes.csv
timeout 120 bash tests/state_hash_grid.sh --update gpu /tmp/bnew/lbm-gpu > $O/grid-update-gpu.txt 2>&1; say "gpu grid update rc=$?"
tail -3 $O/grid-update-gpu.txt; cp tests/state_hashes_gpu.csv $O/state_hashes_gpu.csv
wait; ls /tmp/pp/peer/bin > $O/peer-bins.txt 2>&1; say "peer $(cat $O/peer-bins.txt | tr '\n' ' ')"
(cd /tmp/bnew && timeout 230 ctest -L gpu --timeout 200 > $O/ctest.txt 2>&1); say "ctest rc=$?"
grep -E "tests passed|Failed|\*\*\*|Total Test" $O/ctest.txt | head
/tmp/bnew/stream-gpu --kernel copy --precision sp,fp16s --append -o $O/copy.csv 2>>$O/err-t.txt
for r in 1 2 3; do
  case $r in 2) ord="new base";; *) ord="base new";; esac
  for b in $ord; do
    left && timeout 100 /tmp/b$b/lbm-gpu --size 256 --collision trt,bgk --precision sp,dp,fp16s,fp16c --kernel pull,aa --reps 3 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]
res=collections.defaultdict(list); st=collections.defaultdict(set); B=('base','new')
for b in B:
    f=O+'/t-%s.csv'%b
    if not os.path.exists(f): continue
    for r in csv.DictReader(open(f)):
        k=(r['collision'],r['kernel'],r['precision'],b)
        res[k].append(float(r['mflups'])); st[k].add(r['verified'])
for k in sorted(res):
    v=res[k]; print('%-4s %-5s %-6s %-5s rounds %s best %.0f %s'%(k[0],k[1],k[2],k[3],' '.join('%.0f'%x for x in v),max(v),st[k]))
for c in ('trt','bgk'):
    for kern in ('pull','aa'):
        for p in ('sp','dp','fp16s','fp16c'):
            a=res.get((c,kern,p,'base')); n=res.get((c,kern,p,'new'))
            if a and n: print('%s %s %s new/base %.3f'%(c,kern,p,max(n)/max(a)))
PY
rm -f $O/bld-*.log; cp $S/call1.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
