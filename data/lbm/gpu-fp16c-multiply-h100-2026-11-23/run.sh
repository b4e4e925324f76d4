#!/bin/bash
# coordinator, session 4, H100: merged main's GPU tests (with the new fp16c conversions and their
# device test), SASS counts, and timing rounds base / new / cache-hint study variants
set -u
R=$PWD; O=$OUT/r; mkdir -p $O; T0=$SECONDS
export LBMR_ENERGY=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $O/gpu.txt
cfg() { cmake -S $1 -B $2 -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF "${@:3}"; }
# the new tree, whole (tests); the base and two hint variants, lbm-gpu only, in parallel
(LBMR_VERSION=new cfg $R /tmp/new > $O/bld-new.log 2>&1 && cmake --build /tmp/new -j10 >> $O/bld-new.log 2>&1; echo "new build rc=$? $((SECONDS-T0)) s") &
(LBMR_VERSION=base cfg $R/.peers/base-src /tmp/base -DLBMR_MPI=OFF > $O/bld-base.log 2>&1 && cmake --build /tmp/base -j2 --target lbm-gpu >> $O/bld-base.log 2>&1; echo "base build rc=$? $((SECONDS-T0)) s") &
mkdir -p /tmp/hsrc && tar -C $R --exclude=./.peers --exclude=./.wt --exclude=./data --exclude=./docs --exclude=./build --exclude=./.git -cf - . | tar -C /tmp/hsrc -xf - && (cd /tmp/hsrc && { patch -p1 < $R/.peers/hints.patch > /dev/null || git apply $R/.peers/hints.patch; } && echo patched)
(LBMR_VERSION=st-cs cfg /tmp/hsrc /tmp/hS -DLBMR_MPI=OFF -DCMAKE_CUDA_FLAGS="-DSTUDY_ST_CS=1" > $O/bld-hS.log 2>&1 && cmake --build /tmp/hS -j2 --target lbm-gpu >> $O/bld-hS.log 2>&1; echo "hS build rc=$? $((SECONDS-T0)) s") &
(LBMR_VERSION=ld-st-cs cfg /tmp/hsrc /tmp/hSL -DLBMR_MPI=OFF -DCMAKE_CUDA_FLAGS="-DSTUDY_ST_CS=1 -DSTUDY_LD_CS=1" > $O/bld-hSL.log 2>&1 && cmake --build /tmp/hSL -j2 --target lbm-gpu >> $O/bld-hSL.log 2>&1; echo "hSL build rc=$? $((SECONDS-T0)) s") &
wait
(cd /tmp/new && timeout 170 ctest -L gpu --output-on-failure > $O/ctest-gpu.log 2>&1; echo "ctest rc=$? $((SECONDS-T0)) s"; grep -E "tests passed|Failed|Not Run|\*\*\*" $O/ctest-gpu.log; grep -A3 "storage16_gpu" $O/ctest-gpu.log | grep -E "differ|ok|FAIL" | head -3)
/tmp/new/tests/test_storage16_gpu 2>&1 | tail -2
# SASS: instructions per kernel (pull, whole domain, BGK) in base and new
for b in base new; do cuobjdump -sass /tmp/$b/lbm-gpu > /tmp/$b.sass 2>/dev/null
  awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\/ /{n[f]++} END{for(k in n) print n[k], k}' /tmp/$b.sass | grep -E "pull_kernel|aa_kernel" | grep -E "Li0ELi0EL" | sort -k2 > $O/sass-$b.txt; done
head -40 $O/sass-new.txt | cut -c1-120; echo "---"; paste $O/sass-base.txt $O/sass-new.txt | awk '$2==$4 && $1!=$3 {print $1, $3, $2}' | cut -c1-140
/tmp/new/stream-gpu --kernel copy --precision sp,fp16s --reps 30 -o $O/stream.csv 2>/dev/null; echo "stream rc=$?"
for r in 1 2 3; do
  for b in base new; do /tmp/$b/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp,fp16s,fp16c --reps 10 -o $O/$b-$r.csv 2>>$O/err.txt; echo "$b $r rc=$? $((SECONDS-T0)) s"; done
  for b in hS hSL; do /tmp/$b/lbm-gpu --size 256 --kernel pull --precision sp,dp,fp16s --reps 10 -o $O/$b-$r.csv 2>>$O/err.txt; echo "$b $r rc=$? $((SECONDS-T0)) s"; done
  [ $((SECONDS-T0)) -gt 480 ] && break
done
awk -F, 'NR==1||FNR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print FILENAME, $h["kernel"], $h["precision"], $h["mflups"], $h["verified"]}' $O/base-*.csv $O/new-*.csv $O/hS-*.csv $O/hSL-*.csv | sed "s|$O/||" | sort -k2,3 -k1
awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {print "stream", $h["kernel"], $h["precision"], $h["bw_dram_GBs"]}' $O/stream.csv 2>/dev/null | head
tar czf $OUT/s4-h100.tgz -C $OUT r && rm -rf $O
echo "total $((SECONDS-T0)) s"
