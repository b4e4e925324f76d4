#!/bin/bash
# session 11: the paired pull for sp too (working tree, "new") against bd1d60c ("old") on an
# H100: states, GPU ctests of the state grid and the reference, three alternated rounds, ncu
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-470}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j6 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
HS="--dims 96x80x64,100x36x20,250x12x10,2x6x5,6x4x3,33x7x5,17x9x6 --pad 0,3 --align 0,32,128 --precision sp,fp16s --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 10 --warmup 4 --reps 1"
HB="--dims 200x12x10,100x9x7,64x5x4 --block 32,64,96,160 --precision sp --collision bgk,trt,mrt --geometry cavity,channel,periodic --kernel pull --steps 10 --warmup 4 --reps 1"
for b in new old; do timeout 150 /tmp/$b/lbm-gpu $HS -o $O/hash-$b.csv 2>>$O/err-$b.txt; timeout 100 /tmp/$b/lbm-gpu $HB -o $O/hashb-$b.csv 2>>$O/err-$b.txt; say "hash $b rc=$?"; done
python3 - $O > $O/hashes.txt 2>&1 <<'PY'
import csv, sys
d = sys.argv[1]
k = lambda r: (r['nx'], r['ny'], r['nz'], r['pad'], r['align'], r['threads'], r['kernel'], r['precision'], r['collision'], r['geometry'])
for s in ('hash', 'hashb'):
    old = {k(r): r['state_hash'] for r in csv.DictReader(open(f'{d}/{s}-old.csv'))}
    for b in ('new',):
        new = {k(r): (r['state_hash'], r['verified']) for r in csv.DictReader(open(f'{d}/{s}-{b}.csv'))}
        bad = [x for x, v in new.items() if old.get(x) != v[0]]
        print(s, b, len(old), 'old rows,', len(new), 'rows,', len(bad), 'differ,', sum(v[1] != 'pass' for v in new.values()), 'not verified', bad[:4])
PY
cat $O/hashes.txt
(cd /tmp/new && timeout 150 ctest -L gpu -R "state_hash_grid_gpu|vs_reference|default_align|storage16" --output-on-failure > $O/ctest.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*|CPU baseline" $O/ctest.log)
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 96x20x18,70x9x7,2x6x5 --block 64,128 --precision sp --geometry cavity,periodic --kernel pull --steps 4 --warmup 2 --reps 1 -o $O/san-memcheck.csv > $O/san-memcheck.log 2>&1; say "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/san-memcheck.log | sort | uniq -c
/tmp/new/stream-gpu --kernel copy,copy19 --precision sp --reps 30 -o $O/copy.csv 2>>$O/err-new.txt; say "copy rc=$?"
for r in 1 2 3; do
  case $r in 1) ord="old new";; 2) ord="new old";; 3) ord="old new";; esac
  for b in $ord; do
    left && { timeout 80 /tmp/$b/lbm-gpu --size 256,512 --precision sp,dp,fp16s --kernel pull --reps 10 -o $O/t-$b-$r.csv 2>>$O/err-$b.txt; say "t $b $r rc=$?"; }
  done
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
for b in new old; do left && { timeout 60 ncu -k regex:pull --launch-skip 20 -c 1 --metrics $M /tmp/$b/lbm-gpu --size 256 --kernel pull --precision sp --warmup 24 --reps 1 --steps 2 -o /tmp/ncu-$b.csv > $O/ncu-$b.txt 2>&1; say "ncu $b rc=$?"; }; done
python3 - $O <<'PY'
import csv, sys, glob, collections
d = sys.argv[1]; best = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/t-*-*.csv')):
    b = f.split('/')[-1].split('-')[1]
    for r in csv.DictReader(open(f)):
        best[(r['nx'], r['kernel'], r['precision'], b)].append(float(r['mflups']) if r['verified'] == 'pass' else -1)
for key in sorted(set(k[:3] for k in best)):
    o = best.get(key + ('old',), [])
    for b in ('new',):
        n = best.get(key + (b,), [])
        if o and n: print(*key, b, 'old', ' '.join(f'{v:.0f}' for v in o), '|', ' '.join(f'{v:.0f}' for v in n), f'| {100*(max(n)/max(o)-1):+.2f}%')
PY
for f in $O/ncu-*.txt; do echo "== $f"; grep -E "pull|gpu__time|dram__|l1tex__t|issue_active|warps_active|inst_executed|registers|long_scoreboard" $f | grep -v "==PROF==" | sed 's/(const T1.*//' | head -14; done
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/copy.csv
tail -3 $O/err-new.txt; rm -f $O/bld-*.log
cp $R/.peers/s11-sp100.sh $O/run.sh; cp $R/.peers/change.patch $O/
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
