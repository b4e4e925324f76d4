#!/usr/bin/env bash
# One device call (data/lbm/gpu-aa-align-h100-2026-11-23): does 128-byte row alignment lift the
# in-place aa kernel where 32-byte alignment leaves rows 64 bytes off a 128-byte line (sp, nx an
# odd multiple of 16)? The same call's stream-gpu copy, then lbm-gpu pull,aa sp,dp at
# --align 32 and 128, two rounds with the order of the alignments swapped (32,128 then 128,32).
# Usage (repository root): data/scripts/gpu-aa-align-device.sh VERSION   ($OUT must be set)
# Files in $OUT: env.txt, build.log, gpu-stream.csv, gpu-aa-align.csv (every lbm row, --append).
set -u
export LBMR_VERSION=$1
export LBMR_ENERGY=off # timing only: no energy polling beside the kernels
cd "$(dirname "$0")/../.."
SIZES=144,176,208,240,256,272,336,400,464,496
nvidia-smi --query-gpu=name,driver_version,ecc.mode.current,clocks.max.sm,clocks.max.mem \
    --format=csv > $OUT/env.txt 2>&1
t0=$(date +%s)
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_LIKWID=OFF \
    > $OUT/build.log 2>&1 &&
    cmake --build /tmp/b -j16 --target stream-gpu lbm-gpu >> $OUT/build.log 2>&1 ||
    { tail -30 $OUT/build.log; exit 1; }
echo "build $(($(date +%s) - t0)) s"
/tmp/b/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $OUT/gpu-stream.csv 2> $OUT/stream.err
echo "stream rc=$?"
left=4 # invocations; the call must end inside its 300 s, so each gets its share of what is left
for order in "32 128" "128 32"; do
    for a in $order; do
        # each case: 10 warm-up updates and 5 timed repetitions of about 0.1 s (the defaults)
        share=$(((285 - ($(date +%s) - t0)) / left)); left=$((left - 1))
        timeout $share /tmp/b/lbm-gpu --size $SIZES --kernel pull,aa --precision sp,dp --align $a \
            --append -o $OUT/gpu-aa-align.csv 2>> $OUT/lbm.err
        echo "align $a rc=$? at $(($(date +%s) - t0)) s"
    done
done
tr '\r' '\n' < $OUT/lbm.err | grep -v '^\[' | sort | uniq -c | tail -8
# best of the two rounds per (precision, nx, kernel, align); aa / pull and % of the call's copy
awk -F, 'NR==FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) s[$i] = i; next }
                   cp[$s["precision"]] = $s["bw_prog_GBs"] > cp[$s["precision"]] ? $s["bw_prog_GBs"] : cp[$s["precision"]]; next }
         FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { k = $c["precision"] " " $c["nx"] " " $c["align"]; key[k] = 1; v = $c["mflups"] + 0
           if (v > best[k, $c["kernel"]]) { best[k, $c["kernel"]] = v; bw[k, $c["kernel"]] = $c["bw_prog_GBs"] }
           pt[k] = $c["pitch"]; if ($c["verified"] != "pass") bad++ }
         END { print "copy GB/s sp " cp["sp"] " dp " cp["dp"] "; unverified rows: " bad + 0
               print "prec nx align pitch pull aa aa/pull pull%copy aa%copy"
               for (k in key) { split(k, p, " ")
                   printf "%s %s %.0f %.0f %.3f %.1f %.1f\n", k, pt[k], best[k, "pull"], best[k, "aa"],
                       best[k, "aa"] / best[k, "pull"], 100 * bw[k, "pull"] / cp[p[1]], 100 * bw[k, "aa"] / cp[p[1]] } }' \
    $OUT/gpu-stream.csv $OUT/gpu-aa-align.csv | sort -k1,1 -k2n -k3n | tee $OUT/table.txt
