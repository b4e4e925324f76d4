#!/bin/bash
# session 16, call 5 (runs over the stored rows for 4- and 8-byte values): aa's halves in plane-wide runs of cells (working tree, "new") against
# 7c98ebe ("old": one row per block or equal parts): every GPU ctest, old/new state hashes on
# odd and edge dims, sanitizers, then aa at eight sizes, new at --block 128,192,256 beside old
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF"
(cmake -S $R -B /tmp/new $CM > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j12 -- -k >> $O/bld-new.log 2>&1; echo "new $?" > $O/bld-new.rc) &
(cmake -S $R/.peers/old -B /tmp/old $CM -DLBMR_MPI=OFF > $O/bld-old.log 2>&1 && cmake --build /tmp/old -j4 --target lbm-gpu >> $O/bld-old.log 2>&1; echo "old $?" > $O/bld-old.rc) &
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
# states: old and new on odd and edge dims, every collision, geometry and precision
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5 --kernel aa --precision sp,dp,fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 9"
for b in old new; do timeout 120 /tmp/$b/lbm-gpu $ST -o $O/state-$b.csv 2>>$O/err-state.txt; say "state $b rc=$?"; done
timeout 60 /tmp/new/lbm-gpu $ST --block 32,96 -o $O/state-new-narrow.csv 2>>$O/err-state.txt; say "state narrow rc=$?"
(cd /tmp/new && timeout 200 ctest -L gpu --timeout 150 --output-on-failure > $O/ctest-gpu.log 2>&1; say "ctest rc=$?"; grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.log)
SAN="--dims 96x20x18,70x9x7,33x7x5,300x6x5,2x6x5,40x1x5,40x2x3,1x7x5 --precision sp,dp,fp16s --geometry cavity,periodic --kernel aa --steps 4 --warmup 2 --reps 1"
for t in racecheck memcheck initcheck; do left && { timeout 90 compute-sanitizer --tool $t --error-exitcode 9 /tmp/new/lbm-gpu $SAN -o $O/san-$t.csv > $O/san-$t.log 2>&1; say "$t rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/san-$t.log | sort | uniq -c; }; done
/tmp/new/stream-gpu --kernel copy --precision sp,dp,fp16s --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
i=0
for n in 144 176 208 256 272 336 400 512; do
  i=$((i+1)); case $((i % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    case $b in new) B="--block 128,192,256";; *) B="";; esac
    left && timeout 60 /tmp/$b/lbm-gpu --size $n --kernel aa --precision sp,dp $B --reps 3 --append -o $O/t-$b.csv 2>>$O/err.txt
  done
done; say timing
# 16-bit and TRT, old and new defaults, two rounds
for r in 1 2; do for b in old new; do
  case $b in new) B="--block 128,256";; *) B="";; esac
  left && timeout 60 /tmp/$b/lbm-gpu --size 144,208,256,272,400,512 --kernel aa --precision fp16s,fp16c $B --reps 3 --append -o $O/o16-$b.csv 2>>$O/err.txt
  left && timeout 60 /tmp/$b/lbm-gpu --size 144,256 --kernel aa --collision trt,mrt --precision sp --reps 3 --append -o $O/otrt-$b.csv 2>>$O/err.txt
done; done; say others
# the sweep, 128..512: old default, new at 128 and 256 threads
for n in $(seq 128 16 512); do
  case $((n / 16 % 2)) in 0) ord="old new";; *) ord="new old";; esac
  for b in $ord; do
    case $b in new) B="--block 128,256";; *) B="";; esac
    left && timeout 60 /tmp/$b/lbm-gpu --size $n --kernel aa --precision sp,dp $B --reps 3 --append -o $O/sweep-$b.csv 2>>$O/err.txt
  done
done; say sweep
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','new')}
bad = [k for k in st['old'] if st['new'].get(k) != st['old'][k]]
narrow = collections.defaultdict(set)
for r in rows('state-new-narrow.csv'): narrow[key(r)].add(r['state_hash'])
nbad = [k for k in narrow if narrow[k] != {st['new'].get(k)}]
print(f"states: old {len(st['old'])} new {len(st['new'])} cases verified, differing {len(bad)}; narrow blocks differing {len(nbad)} of {len(narrow)}", bad[:5], nbad[:5])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
bw2 = bw.get('fp16s', 0)
for b in ('old', 'new'):
    for r in rows(f't-{b}.csv'):
        B = 152 if r['precision'] == 'sp' else 304
        print(r['precision'], r['nx'], b, r['threads'], f"{float(r['mflups']):.0f}", f"{float(r['mflups'])*B/1e3/bw[r['precision']]*100:.1f}%", r['verified'])
for f in ('o16', 'otrt'):
    for b in ('old', 'new'):
        for r in rows(f'{f}-{b}.csv'):
            print('other', r['precision'], r['collision'], r['nx'], b, r['threads'], f"{float(r['mflups']):.0f}", r['verified'])
under = collections.Counter(); sw = collections.defaultdict(dict)
for b in ('old', 'new'):
    for r in rows(f'sweep-{b}.csv'):
        B = 152 if r['precision'] == 'sp' else 304
        p = float(r['mflups'])*B/1e3/bw[r['precision']]*100
        tag = b if b == 'old' else f"new{r['threads']}"
        sw[(r['precision'], int(r['nx']))][tag] = p
        if p < 90: under[(r['precision'], tag)] += 1
for k in sorted(sw):
    print('sweep', *k, ' '.join(f'{t} {v:.1f}' for t, v in sorted(sw[k].items())))
print('under 90%:', dict(under))
PY
sort -k1,1 -k2,2n -s $O/summary.txt | cat
tail -3 $O/err.txt; rm -f $O/bld-*.log $O/san-*.csv
cp $R/.peers/s16-flat4.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
