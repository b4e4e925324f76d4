#!/bin/bash
# coordinator, session 4: aa's 16-bit local half in pairs (working tree) against HEAD (base2):
# the same states, sanitizers, timing alternated, ncu of the paired kernel
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
finish() { tar czf $OUT/s4-pairs.tgz -C $OUT r; echo "total $((SECONDS-T0)) s"; }
trap finish EXIT
export LBMR_ENERGY=off
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt
cfg() { cmake -S $1 -B $2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF; }
(LBMR_VERSION=pairs cfg $R /tmp/new > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j8 --target lbm-gpu stream-gpu >> $O/bld-new.log 2>&1; echo "new build rc=$? $((SECONDS-T0)) s") &
(LBMR_VERSION=$(cat .peers/version-base2) cfg $R/.peers/base2-src /tmp/base > $O/bld-base.log 2>&1 && cmake --build /tmp/base -j8 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base build rc=$? $((SECONDS-T0)) s") &
wait
G="--kernel aa --precision fp16s,fp16c --collision bgk,trt,mrt --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 8"
for b in base new; do
  /tmp/$b/lbm-gpu --dims 12x12x12,17x9x6,20x9x6,33x7x5,64x8x8 --pad 0,3 --align 0,32,128 $G -o $O/states-$b.csv 2>/dev/null; echo "states $b rc=$?"
  /tmp/$b/lbm-gpu --dims 17x9x6,64x8x8 --block 32,64,96 $G -o $O/states-blk-$b.csv 2>/dev/null; echo "states blk $b rc=$?"
done
for f in states states-blk; do
python3 - $O/$f-base.csv $O/$f-new.csv <<'PY'
import csv,sys
def load(f):
    d={}
    for r in csv.DictReader(open(f)):
        k=tuple(r[c] for c in ('kernel','collision','geometry','precision','nx','ny','nz','pad','align','blocks'))
        d[k]=(r['state_hash'],r['verified'])
    return d
a,b=load(sys.argv[1]),load(sys.argv[2])
diff=[k for k in a if k not in b or a[k][0]!=b[k][0]]
bad=[k for k in b if b[k][1]!='pass']
print(f"{sys.argv[2]}: {len(a)} base rows, {len(b)} new rows, {len(diff)} differ, {len(bad)} not verified")
for k in diff[:5]: print("  differ", k, a[k], b.get(k))
PY
done
compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 33x7x5,64x8x8 $G -o /tmp/cs1.csv > $O/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -2 $O/memcheck.txt
compute-sanitizer --tool initcheck --error-exitcode 9 /tmp/new/lbm-gpu --dims 33x7x5 --kernel aa --precision fp16s --warmup 2 --reps 1 --steps 8 -o /tmp/cs2.csv > $O/initcheck.txt 2>&1; echo "initcheck rc=$?"; tail -2 $O/initcheck.txt
/tmp/new/stream-gpu --kernel copy --precision fp16s --reps 30 -o $O/stream.csv 2>/dev/null
for r in 1 2 3; do for b in base new; do /tmp/$b/lbm-gpu --size 256,512 --kernel aa --precision fp16s,fp16c --reps 10 -o $O/aa-$b-$r.csv 2>/dev/null; echo "$b $r rc=$? $((SECONDS-T0)) s"; done; done
timeout 80 ncu -k regex:aa_pairs_kernel --launch-skip 20 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --metrics smsp__issue_active.avg.pct_of_peak_sustained_active /tmp/new/lbm-gpu --size 256 --kernel aa --precision fp16s --warmup 80 --reps 1 --steps 2 -o /tmp/n.csv > $O/ncu-pairs-fp16s.txt 2>&1; echo "ncu rc=$?"
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Achieved Occupancy|Registers Per|Block Size|Grid Size|issue_active" $O/ncu-pairs-fp16s.txt
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["nx"], $h["precision"], $h["mflups"], $h["verified"]}' $O/aa-*.csv | sed "s|$O/||" | sort -k2n -k3 -k1
awk -F, 'FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["precision"], $h["bw_dram_GBs"]}' $O/stream.csv
