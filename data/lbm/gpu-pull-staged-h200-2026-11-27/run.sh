#!/bin/bash
# session 15, call 1: pull_staged_kernel (working tree, "new", built with -DGPU_STAGED_ALL so
# every precision stages) against 4a22b51 ("old", .peers/old): states, GPU ctests, sanitizers,
# three alternated rounds, ncu
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM -DCMAKE_CUDA_FLAGS=-DGPU_STAGED_ALL=1 > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-gpu stream-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
grep -E "error" $O/bld-*.log | head -5
HS="--dims 96x80x64,100x36x20,250x12x10,2x6x5,6x4x3,33x7x5,17x9x6 --pad 0,3 --align 0,32,128 --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 10 --warmup 4 --reps 1"
HB="--dims 200x12x10,100x9x7,64x5x4,1000x6x5,700x5x4 --block 32,64,96,160,256 --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,periodic --kernel pull --steps 10 --warmup 4 --reps 1"
for b in new old; do timeout 120 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err-$b.txt; say "hash $b rc=$?"; timeout 60 /tmp/$b/lbm-gpu $HB -o $O/hashb-$b.csv 2>>$O/err-$b.txt; say "hashb $b rc=$?"; done
python3 - $O > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
d = sys.argv[1]
k = lambda r: (r['nx'], r['ny'], r['nz'], r['pad'], r['align'], r['threads'], r['kernel'], r['precision'], r['collision'], r['geometry'])
for s in ('hash', 'hashb'):
    old = {k(r): r['state_hash'] for r in csv.DictReader(open(f'{d}/{s}-old.csv'))}
    new = {k(r): (r['state_hash'], r['verified']) for r in csv.DictReader(open(f'{d}/{s}-new.csv'))}
    bad = [x for x, v in new.items() if old.get(x) != v[0]]
    print(s, len(old), 'old rows,', len(new), 'new rows,', len(bad), 'differ,', sum(v[1] != 'pass' for v in new.values()), 'not verified', bad[:6])
PY
cat $O/hashes.txt
(cd /tmp/new && timeout 120 ctest -L gpu -R "state_hash_grid_gpu|vs_reference|default_align|storage16" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*|CPU baseline" $O/ctest.log)
SAN="--dims 96x20x18,70x9x7,33x7x5,2x6x5 --block 64,128 --precision sp,dp,fp16s --geometry cavity,periodic --kernel pull --steps 4 --warmup 2 --reps 1"
for t in memcheck racecheck initcheck synccheck; do left && { timeout 60 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
/tmp/new/stream-gpu --kernel copy,copy19 --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err-new.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 2) ord="new old";; *) ord="old new";; esac
  for b in $ord; do
    left && { timeout 70 /tmp/$b/lbm-gpu --size 256,512 --precision sp,dp --kernel pull --reps 5 -o $O/t-$b-$r.csv 2>>$O/err-$b.txt; timeout 40 /tmp/$b/lbm-gpu --size 256 --precision fp16s,fp16c --kernel pull --reps 5 -o $O/u-$b-$r.csv 2>>$O/err-$b.txt; say "t $b $r rc=$?"; }
  done
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio
for b in new old; do left && { timeout 60 ncu -k regex:pull --launch-skip 20 -c 1 --metrics $M /tmp/$b/lbm-gpu --size 256 --kernel pull --precision sp --warmup 24 --reps 1 --steps 2 -o /tmp/ncu-$b.csv > $O/ncu-$b.txt 2>&1; say "ncu $b rc=$?"; }; done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/[tu]-*-*.csv')):
    b = f.split('/')[-1].split('-')[1]
    for r in csv.DictReader(open(f)):
        best[(r['nx'], r['kernel'], r['precision'], b)].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for key in sorted(set(k[:3] for k in best)):
    o = best.get(key + ('old',), []); n = best.get(key + ('new',), [])
    if o and n: print(*key, 'old', ' '.join(f'{v:.0f}' for v in o), '| new', ' '.join(f'{v:.0f}' for v in n), f'| {100*(max(n)/max(o)-1):+.2f}%')
PY
cat $O/summary.txt
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "pull|gpu__time|dram__|lts__|issue_active|warps_active|inst_executed|registers|stalled" $f | grep -v "==PROF==" | sed 's/(const T1.*//' | head -16; done
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -3 $O/err-new.txt; rm -f $O/bld-*.log
cp $R/.peers/s15-staged.sh $O/run.sh; git -C $R diff > $O/change.patch 2>/dev/null
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
