#!/bin/bash
# session 31, call 1 (an H200 machine's 16-core host): regular rows without the zero boundary terms
# (pull, pull_nt, aa's odd step) and aa's 16-bit partial blocks through masked loads and stores,
# the tree (new) against 3a61a44 (base). Five rounds alternated (order swapped every other round),
# each with its own stream-cpu copy/copy_nt (sp, dp, fp16s) and roofline; lbm-cpu 256^3, kernels
# pull, pull_nt, aa in sp, dp, fp16s, fp16c. Builds kept under .peers/s31/b-* for a second call.
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS; LIMIT=${LIMIT:-560}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s" | tee -a $O/log.txt; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; lscpu; gcc --version | head -1; nproc; free -g; } > $O/machine.txt 2>&1
S=$R/.peers/s31; B=$S/b
mkdir -p $S/src-base && tar xzf $S/base.tgz -C $S/src-base
bld() { # name srcdir
  (export LBMR_VERSION=$1; cmake -S $2 -B $B-$1 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=OFF -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF > $O/bld-$1.log 2>&1 &&
   cmake --build $B-$1 -j8 --target lbm-cpu stream-cpu roofline >> $O/bld-$1.log 2>&1; echo "$1 $?" > $O/bld-$1.rc)
}
[ -x $B-base/lbm-cpu ] || bld base $S/src-base &
bld new $R &
wait; say "builds $(cat $O/bld-*.rc 2>/dev/null | tr '\n' ' ')"
grep -hiE " error|warning:" $O/bld-*.log | head -5
export OMP_NUM_THREADS=16 OMP_PROC_BIND=close OMP_PLACES=cores
for r in 1 2 3 4 5; do
  case $r in 2|4) ord="new base";; *) ord="base new";; esac
  left && $B-new/stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 -o $O/stream-$r.csv 2>>$O/err-cpu.txt
  for b in $ord; do
    left && timeout 100 $B-$b/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision sp,dp,fp16s,fp16c --reps 4 -o $O/cpu-$b-$r.csv 2>>$O/err-cpu.txt
  done
  for b in base new; do
    [ -f $O/cpu-$b-$r.csv ] && $B-new/roofline $O/stream-$r.csv $O/cpu-$b-$r.csv -o $O/roof-$b-$r.csv 2>>$O/err-cpu.txt
  done
  say "cpu round $r"
done
python3 $S/summary.py $O > $O/summary.txt 2>&1; cat $O/summary.txt
rm -f $O/bld-*.log; cp $S/call1.sh $S/summary.py $O/
say total
cd $OUT && tar czf r.tgz r && rm -rf r
