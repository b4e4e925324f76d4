#!/bin/bash
# session 9: the final tree ("new": aa's neighbour half staged in sp/dp) against HEAD ("old"):
# states, sanitizers, two alternated rounds with FluidX3D FP32/FP16S/FP16C between, then the sweep
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(LBMR_VERSION=new cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(LBMR_VERSION=old cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
HS="--dims 96x80x64,100x36x20,250x12x10,33x7x5 --pad 0,3 --align 0,32,128 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel aa --steps 10 --warmup 4 --reps 1"
HB="--dims 200x12x10,100x9x7,17x9x6 --block 32,64,96,160 --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,channel,periodic --kernel aa --steps 10 --warmup 4 --reps 1"
for b in new old; do timeout 150 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err-$b.txt; say "hash $b rc=$?"; timeout 100 /tmp/$b/lbm-gpu $HB -o $O/hashb-$b.csv 2>>$O/err-$b.txt; say "hashb $b rc=$?"; done
python3 - $O > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
d = sys.argv[1]
k = lambda r: (r['nx'], r['ny'], r['nz'], r['pad'], r['align'], r['threads'], r['kernel'], r['precision'], r['collision'], r['geometry'])
for s in ('hash', 'hashb'):
    old = {k(r): r['state_hash'] for r in csv.DictReader(open(f'{d}/{s}-old.csv'))}
    new = {k(r): (r['state_hash'], r['verified']) for r in csv.DictReader(open(f'{d}/{s}-new.csv'))}
    print(s, len(old), 'old rows,', len(new), 'new rows,', sum(old.get(x) != v[0] for x, v in new.items()), 'differ,',
          sum(v[1] != 'pass' for v in new.values()), 'not verified')
PY
cat $O/hashes.txt
for t in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu --dims 96x20x18,70x9x7 --block 64,128 --precision sp,dp --geometry cavity,periodic --kernel aa --steps 4 --warmup 2 --reps 1 -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c
done
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err-new.txt; say "copy rc=$?"
fx() { [ -e /lib/x86_64-linux-gnu/libOpenCL.so.1 ] || [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ] || export LD_LIBRARY_PATH=$R/.peers/fx3d/lib; for v in fp32 fp16s fp16c; do (cd $R/.peers/fx3d/$v && timeout 70 ./bin/FluidX3D 2>&1 | tr '\r' '\n' | grep -E "MLUPs" | tail -1 | sed "s/^/round $1 $v: /") >> $O/fluidx3d.txt; done; say "fx $1"; }
for r in 1 2; do
  case $r in 1) ord="old new";; 2) ord="new old";; esac
  for b in $ord; do
    timeout 80 /tmp/$b/lbm-gpu --size 256 --precision sp,dp,fp16s,fp16c --kernel aa,pull --reps 10 -o $O/t256-$b-$r.csv 2>>$O/err-$b.txt; say "t256 $b $r rc=$?"
    timeout 80 /tmp/$b/lbm-gpu --size 512 --precision sp,dp,fp16s,fp16c --kernel aa,pull --reps 5 -o $O/t512-$b-$r.csv 2>>$O/err-$b.txt; say "t512 $b $r rc=$?"
    [ $b = new ] && fx $r
  done
done
python3 - $O > $O/ab.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/t*-*-*.csv')):
    b = f.split('/')[-1].split('-')[1]
    for r in csv.DictReader(open(f)):
        best[(r['nx'], r['kernel'], r['precision'], b)].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for key in sorted(set(k[:3] for k in best)):
    o, n = best.get(key + ('old',), []), best.get(key + ('new',), [])
    if o and n: print(*key, 'old', ' '.join(f'{v:.0f}' for v in o), '| new', ' '.join(f'{v:.0f}' for v in n), f'| {100*(max(n)/max(o)-1):+.2f}%')
PY
cat $O/ab.txt $O/fluidx3d.txt
for n in $(seq 32 16 512); do
  left || { echo "sweep cut before $n"; break; }
  /tmp/new/lbm-gpu --size $n --kernel pull,aa --precision sp,dp --reps 3 $( [ $n = 32 ] || echo --append ) -o $O/sweep.csv 2>>$O/err-sweep.txt || echo "sweep $n rc=$?"
done; say "sweep done"
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "copy", $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -2 $O/err-new.txt
cp $R/.peers/s9-final.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
