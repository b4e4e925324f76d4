#!/usr/bin/env bash
# session-device.sh OLD_SRC OLD_VERSION NEW_VERSION: one device call that runs three studies on one
# machine and returns them as one archive ($OUT/results.tgz: the device tool brings back few files):
#   restructure/  restructure-invariant-device.sh (old vs new build: GPU tests, sanitizers, GPU
#                 and CPU-host timing rounds)
#   fp16/         fp16-gpu-device.sh (16-bit lattices: checks and timing rounds)
#   energy/       energy_device.sh, quick (NVML counter against polled power)
# PARTS (default "restructure fp16 energy") picks which, in that order; the archive is named
# after them.
set -u
cd "$(dirname "$0")/../.."
final=$OUT
res=/tmp/results
parts=${PARTS:-restructure fp16 energy}
rm -rf "$res" && mkdir -p "$res"
for part in $parts; do
    mkdir -p "$res/$part"
    t=$SECONDS
    case $part in
    restructure) OUT=$res/$part CPU_ROUNDS=${CPU_ROUNDS:-3} bash data/scripts/restructure-invariant-device.sh \
        "$1" "$2" "$3" "${GPU_ROUNDS:-2}" ;;
    fp16) LBMR_VERSION=$3 OUT=$res/$part bash data/scripts/fp16-gpu-device.sh "${FP16_ROUNDS:-2}" ;;
    energy) OUT=$res/$part ENERGY_DEVICE_QUICK=1 bash data/scripts/energy_device.sh "$3" ;;
    *) echo "unknown part $part" ;;
    esac >"$res/$part/console.txt" 2>&1
    echo "== $part ($((SECONDS - t)) s)"
    tail -30 "$res/$part/console.txt"
done
tar czf "$final/results-${parts// /-}.tgz" -C "$res" .
