#!/bin/bash
# session 24, call 5 (one H200): pull fp16c with fewer registers (more warps resident): base (ce80c72),
# r36 (__launch_bounds__(448, 4): 36 registers), r32 ((512, 4): 32); blocks of 64 and 128 threads.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
nvidia-smi -L > $O/machine.txt 2>&1
S=$R/.peers/s24
mkdir -p /tmp/src-base && (cd $R && tar cf - --exclude=./.git --exclude=./build --exclude=./.peers --exclude=./data .) | tar xf - -C /tmp/src-base
cp -r /tmp/src-base /tmp/src-st && (cd /tmp/src-st && patch -p1 -s < $S/minb.patch) > $O/patch.err 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { local n=$1 src=$2 f=$3
  (export LBMR_VERSION=$n; cmake -S $src -B /tmp/b$n $CM "-DCMAKE_CUDA_FLAGS=$f" > $O/bld-$n.log 2>&1 &&
   cmake --build /tmp/b$n -j5 --target lbm-gpu >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) ; }
bld base /tmp/src-base "" &
bld r36 /tmp/src-st "-DLBMR_STUDY_MAXT=448 -DLBMR_STUDY_MINB=4" &
bld r32 /tmp/src-st "-DLBMR_STUDY_MAXT=512 -DLBMR_STUDY_MINB=4" &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -hE " error|warning:" $O/bld-*.log | head -5
for b in base r36 r32; do cuobjdump --dump-resource-usage /tmp/b$b/lbm-gpu 2>/dev/null | grep -A1 "pull_kernelI9gpu_fp16cLi0ELi0EL15gpu_lbm_variant0E" | head -2 > $O/res-$b.txt; done
for b in base r36 r32; do
  timeout 60 /tmp/b$b/lbm-gpu --dims 17x9x6,70x9x6 --precision fp16c --kernel pull --collision bgk,trt,mrt \
    --geometry cavity,channel,periodic --steps 8 --warmup 2 --reps 1 --append -o $O/hash.csv 2>>$O/err-hash.txt
done
python3 - $O/hash.csv <<'PY' | tee -a $O/log.txt
import csv,sys,collections
h=collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    k=(r['kernel'],r['collision'],r['geometry'],r['nx']); h[k][r['version'].split('-')[0]]=r['state_hash']
print('states: %d cases, %d identical in all three'%(len(h),sum(1 for v in h.values() if len(set(v.values()))==1 and len(v)==3)))
PY
for r in 1 2 3; do
  case $r in 2) ord="r32 r36 base";; 3) ord="r36 base r32";; *) ord="base r36 r32";; esac
  for b in $ord; do
    left && timeout 60 /tmp/b$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull --block 64,128 --reps 5 --append -o $O/t-$b.csv 2>>$O/err-t.txt
  done; say "round $r"
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_sectors_srcunit_tex_op_read.sum
for b in base r36 r32; do
  left && timeout 60 ncu -k regex:pull_kernel --launch-skip 20 --launch-count 1 --metrics $M /tmp/b$b/lbm-gpu --size 256 --precision fp16c --kernel pull --steps 30 --warmup 10 --reps 1 -o /dev/null > $O/ncu-$b.txt 2>&1
done; say "ncu"
python3 - $O <<'PY' > $O/summary.txt 2>&1; cat $O/summary.txt
import csv,sys,collections,os
O=sys.argv[1]; res=collections.defaultdict(list)
for b in ('base','r36','r32'):
    f=O+'/t-%s.csv'%b
    if os.path.exists(f):
        for r in csv.DictReader(open(f)): res[(r['precision'],r['threads'],b)].append(float(r['mflups']))
for k in sorted(res): print('%-6s block %-4s %-5s rounds %s best %.0f'%(k[0],k[1],k[2],' '.join('%.0f'%x for x in res[k]),max(res[k])))
PY
for b in base r36 r32; do echo "$b $(cat $O/res-$b.txt | tail -1)"; grep -E "registers|warps_active|inst_executed.sum|duration" $O/ncu-$b.txt | awk '{print "   ",$1,$NF}'; done
rm -f $O/bld-*.log; cp $S/call5.sh $S/minb.patch $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
