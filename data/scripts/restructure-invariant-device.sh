#!/usr/bin/env bash
# restructure-invariant-device.sh OLD_SRC OLD_VERSION NEW_VERSION [ROUNDS]: one device call that
# shows a restructuring changed no GPU result and no GPU timing. Builds the old tree (OLD_SRC, a
# checkout of the previous commit) and this checkout with CUDA and NVML, runs this build's
# `ctest -L gpu` (the GPU state-hash grid against tests/state_hashes_gpu.csv included) and
# compute-sanitizer memcheck on small cases, then alternates the two builds ROUNDS times (default
# 3): stream-gpu copy sp/dp and lbm-gpu 256^3 pull/aa sp/dp; then, on the host's CPUs, CPU_ROUNDS
# (default 4) alternated rounds of stream-cpu copy/copy_nt and lbm-cpu 256^3 pull/pull_nt/aa sp/dp
# (threads pinned as the main job pins them). Files go to $OUT.
set -u
old_src=$1 old_v=$2 new_v=$3 rounds=${4:-3}
cd "$(dirname "$0")/../.."
new_src=$PWD
H=""
[ -f /usr/local/cuda/include/nvml.h ] || H="-DLBMR_NVML_INCLUDE=$PWD/.nvml/include"
build() { # build SRC DIR VERSION
    LBMR_VERSION=$3 cmake -S "$1" -B "$2" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
        -DLBMR_NVML=ON $H >"$OUT/build-$(basename "$2").log" 2>&1 &&
        LBMR_VERSION=$3 cmake --build "$2" -j16 >>"$OUT/build-$(basename "$2").log" 2>&1
}
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv >"$OUT/env.txt"
t=$SECONDS
build "$old_src" /tmp/old "$old_v" & build "$new_src" /tmp/new "$new_v" & wait
[ -x /tmp/old/lbm-gpu ] && [ -x /tmp/new/lbm-gpu ] || { tail -20 "$OUT"/build-*.log; exit 1; }
echo "builds: $((SECONDS - t)) s"
t=$SECONDS
(cd /tmp/new && timeout 240 ctest -L gpu --output-on-failure >"$OUT/ctest-gpu.log" 2>&1
    echo "ctest -L gpu rc=$?"; grep -E "Test +#|tests passed|tests failed" "$OUT/ctest-gpu.log")
echo "ctest: $((SECONDS - t)) s"
export LBMR_ENERGY=off
for tool in memcheck racecheck initcheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/new/lbm-gpu --size 24 \
        --kernel pull,aa --collision bgk,trt,mrt --precision sp,dp --steps 4 --reps 1 --warmup 1 \
        -o /dev/null >/tmp/sanitizer.log 2>&1
    echo "compute-sanitizer $tool rc=$? $(tail -1 /tmp/sanitizer.log)" | tee -a "$OUT/sanitizer.txt"
done
# each build's rounds appended to one file per executable (the rows say the version)
for r in $(seq "$rounds"); do
    for b in old new; do
        /tmp/$b/stream-gpu --kernel copy --precision sp,dp --append -o "$OUT/gpu-stream-$b.csv" 2>/dev/null
        /tmp/$b/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp --append -o "$OUT/gpu-lbm-$b.csv" 2>/dev/null
    done
done
export OMP_PROC_BIND=close OMP_PLACES=cores
for r in $(seq "${CPU_ROUNDS:-4}"); do
    for b in old new; do
        /tmp/$b/stream-cpu --kernel copy,copy_nt --precision sp,dp --append -o "$OUT/cpu-stream-$b.csv" 2>/dev/null
        /tmp/$b/lbm-cpu --size 256 --kernel pull,pull_nt,aa --precision sp,dp --append -o "$OUT/cpu-lbm-$b.csv" 2>/dev/null
    done
done
# per build and case: every round's best repetition
awk -F, 'FNR==1{for(i=1;i<=NF;i++)c[$i]=i;next}
    {n=split(FILENAME,q,"/"); split(q[n],p,"[-.]"); b=p[3]; k=p[1] " " $c["kernel"] " " $c["precision"];
     v=($c["mflups"]!="")?$c["mflups"]:$c["bw_prog_GBs"]; x[k,b]=x[k,b] " " v; keys[k]=1}
    END{for(k in keys) printf "%-18s old:%s | new:%s\n", k, x[k,"old"], x[k,"new"]}' \
    "$OUT"/gpu-*-old.csv "$OUT"/gpu-*-new.csv "$OUT"/cpu-*-old.csv "$OUT"/cpu-*-new.csv |
    sort | tee "$OUT/rounds.txt"
