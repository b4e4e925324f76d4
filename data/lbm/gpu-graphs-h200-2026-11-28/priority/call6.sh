#!/bin/bash
# session 32, call 6 (an H200): the CUDA graph instantiated with each node's captured priority
# (on: aa's face rows low beside the inner rows) against flags 0 (flat: every node at q[0]'s
# high priority, 9fd76b4's form) and the launches one by one (off), one binary: states, timing.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-300}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $O/machine.txt 2>&1
(cmake -S $R -B /tmp/b6 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld.log 2>&1 &&
  cmake --build /tmp/b6 -j16 --target lbm-gpu stream-gpu >> $O/bld.log 2>&1; echo "build $?" > $O/bld.rc)
say "$(cat $O/bld.rc)"; B=/tmp/b6
ST="--dims 144x20x9,17x9x6,40x1x5,40x2x3,3x3x3,1x7x5,300x6x5,33x7x5 --kernel pull,aa --precision sp,dp,fp16s,fp16c --collision bgk,trt --geometry cavity,channel,periodic --warmup 1 --reps 1 --steps 17"
for g in off flat on; do timeout 100 env LBMR_STUDY_GRAPHS=$g $B/lbm-gpu $ST -o $O/state-$g.csv 2>>$O/err-state.txt; say "state $g rc=$?"; done
$B/stream-gpu --kernel copy --precision sp,dp --reps 20 -o $O/stream.csv 2>>$O/err.txt; say stream
S="128,144,160,176,208,256,336,512"
for r in 1 2 3; do
  case $r in 1) ord="off flat on";; 2) ord="on off flat";; 3) ord="flat on off";; esac
  for g in $ord; do left && timeout 60 env LBMR_STUDY_GRAPHS=$g $B/lbm-gpu --size $S --kernel aa,pull --precision sp,dp --reps 3 --append -o $O/t-$g.csv 2>>$O/err.txt; say "round $r $g rc=$?"; done
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, collections, statistics as st
d = sys.argv[1]
rows = lambda f: list(csv.DictReader(open(f'{d}/{f}')))
key = lambda r: tuple(r[k] for k in ('kernel','nx','ny','nz','precision','collision','geometry'))
s = {g: {key(r): (r['state_hash'], r['verified']) for r in rows(f'state-{g}.csv')} for g in ('off','flat','on')}
for g in ('flat','on'):
    print(f"states {g} vs off: {len(s[g])} rows, differing {sum(1 for k in s['off'] if s[g].get(k) != s['off'][k])}, not verified {sum(1 for v in s[g].values() if v[1] != 'pass')}")
bw = collections.defaultdict(float)
for r in rows('stream.csv'): bw[r['precision']] = max(bw[r['precision']], float(r['bw_dram_GBs']))
print('copy', dict(bw))
m = collections.defaultdict(list)
for g in ('off','flat','on'):
    for r in rows(f't-{g}.csv'): m[(r['kernel'], r['precision'], int(r['nx']), g)].append(float(r['mflups']))
for k in sorted({k[:3] for k in m}):
    c = bw[k[1]] * 1e3 / (152 if k[1] == 'sp' else 304)
    v = {g: st.median(m[k + (g,)]) for g in ('off','flat','on') if m.get(k + (g,))}
    print(f"{k[0]:4} {k[1]} {k[2]:4} " + ' '.join(f"{g} {v[g]:8.0f} ({100*v[g]/c:5.1f}%)" for g in v), f"on/flat {100*(v['on']/v['flat']-1):+.2f}% rounds on>flat {sum(a>b for a,b in zip(m[k+('on',)], m[k+('flat',)]))}/3")
PY
cat $O/summary.txt; cp $R/.peers/s32/call6.sh $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
