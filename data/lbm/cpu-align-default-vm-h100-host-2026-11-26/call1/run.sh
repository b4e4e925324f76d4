#!/bin/bash
# session 12, CPU on the 16-core host of the H100 machine (the GPU idle):
#  A. rows on a line by default: one binary, --align 0 (the old default) against the new default
#     (64), alternated, three rounds, each round's own stream-cpu for the ceilings;
#  B. aa 16-bit: 128^3 (in L3) and 256^3, the default build against -DLBMR_PREFETCH=512;
#  C. a sweep at sizes that are not multiples of 16, --align 0,64, one pass.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-540}
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $1 ]; }
{ lscpu; nproc; free -g; uptime; } > $O/machine.txt 2>&1
B="-DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
cmake -S $R -B /tmp/new $B > $O/bld.log 2>&1 && cmake --build /tmp/new -j16 --target lbm-cpu stream-cpu roofline >> $O/bld.log 2>&1; say "build rc=$?"
cmake -S $R -B /tmp/pf $B -DCMAKE_C_FLAGS=-DLBMR_PREFETCH=512 > $O/bld-pf.log 2>&1 && cmake --build /tmp/pf -j16 --target lbm-cpu >> $O/bld-pf.log 2>&1; say "build pf rc=$?"
grep -m1 "flags" /dev/null
export OMP_PROC_BIND=close OMP_PLACES=cores LBMR_ENERGY=off
L=/tmp/new/lbm-cpu
for r in 1 2 3; do
  /tmp/new/stream-cpu --reps 20 -o $O/stream-$r.csv 2>>$O/err.txt; say "stream $r rc=$?"
  if [ $r = 2 ]; then order="def 0"; else order="0 def"; fi
  for a in $order; do
    al=(); [ $a = 0 ] && al=(--align 0)
    timeout 150 $L --dims 250x256x256,258x256x256,256x256x256 --kernel pull,pull_nt,aa --precision sp,dp --reps 5 "${al[@]}" -o $O/a$a-$r.csv 2>>$O/err.txt; say "A align=$a r$r rc=$?"
    timeout 100 $L --dims 240x256x256,250x256x256 --kernel pull_nt,aa --precision fp16s --reps 5 "${al[@]}" -o $O/h$a-$r.csv 2>>$O/err.txt; say "A16 align=$a r$r rc=$?"
  done
  for b in new pf; do
    timeout 100 /tmp/$b/lbm-cpu --size 128,256 --kernel aa --precision sp,fp16s,fp16c --reps 5 -o $O/pf-$b-$r.csv 2>>$O/err.txt; say "B $b r$r rc=$?"
  done
done
for r in 1 2 3; do /tmp/new/roofline $O/stream-$r.csv $O/a*-$r.csv $O/h*-$r.csv $O/pf-*-$r.csv -o $O/roof-$r.csv 2>>$O/err.txt; done
if left 400; then
  for n in 72 120 168 216 264 312 360 408 456 504; do
    left $LIMIT || { echo "sweep cut before $n"; break; }
    timeout 90 $L --size $n --align 0,64 --kernel pull,pull_nt,aa --precision sp,dp --reps 3 --warmup 2 $( [ $n = 72 ] || echo --append ) -o $O/sweep.csv 2>>$O/err-sweep.txt || echo "sweep $n rc=$?"
  done; say "sweep done"
  /tmp/new/stream-cpu --reps 20 -o $O/stream-sweep.csv 2>>$O/err.txt
  /tmp/new/roofline $O/stream-sweep.csv $O/sweep.csv -o $O/roof-sweep.csv 2>>$O/err.txt
fi
python3 - $O <<'PY' > $O/summary.txt 2>&1
import csv, glob, statistics, sys, os
d = sys.argv[1]
def rows(pat):
    out = []
    for f in sorted(glob.glob(os.path.join(d, pat))):
        for r in csv.DictReader(open(f)): r['_f'] = os.path.basename(f); out.append(r)
    return out
roof = rows('roof-[0-9].csv')
def key(r): return (r['nx'], r['kernel'], r['precision'], r['align'])
pc = [c for c in (roof[0].keys() if roof else []) if 'percent' in c or 'pct' in c]
print('percent columns:', pc)
g = {}
for r in roof:
    g.setdefault((r['_f'].split('-')[1].split('.')[0],) + key(r), []).append(r)
print('round nx kernel prec align MFLUP/s %ceiling')
for k in sorted(g):
    for r in g[k]: print(*k, round(float(r['mflups'])), r.get(pc[0], '') if pc else '', r.get('version', ''))
PY
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["kernel"], $h["precision"], $h["align"], $h["pitch"], $h["mflups"], $h["verified"]}' $O/a*.csv $O/h*.csv $O/pf-*.csv | sed "s|$O/||" | sort -k2,2n -k3,3 -k4,4 -k5,5 -k1,1 > $O/rows.txt
tail -3 $O/err.txt; rm -f $O/bld.log $O/bld-pf.log
cp $R/.peers/s12-cpu.sh $O/run.sh
tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
