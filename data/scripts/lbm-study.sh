#!/usr/bin/env bash
# lbm-study.sh OUTDIR: builds the suite, runs the tests (the gpu ones where a GPU is present),
# and records the LBM studies of the LBM executables into OUTDIR, with the STREAM ceilings of the
# same session beside them: the domain sweep 32..256 step 16 with pad 0 and with 128-byte row
# alignment, sp and dp, and the three collision operators at 256^3.
# STUDY_PARTS="gpu cpu" (default) selects the parts.
set -u -o pipefail
out=${1:?usage: lbm-study.sh OUTDIR}
mkdir -p "$out"
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$src/build-study}
parts=${STUDY_PARTS:-gpu cpu}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
source "$src/data/scripts/study-common.sh"

sweep=(--size 32:256:16 --align 0,128 --precision sp,dp --reps 5)
ops=(--size 256 --collision bgk,trt,mrt --precision sp,dp --reps 5)
if [[ " $parts " == *" gpu "* ]] && [ -x "$build/lbm-gpu" ] && nvidia-smi -L >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,ecc.mode.current,driver_version --format=csv >"$out/gpu.txt" 2>&1
    log "gpu stream ceilings"
    "$build/stream-gpu" --kernel copy,copy19,memcpy --reps 30 -o "$out/gpu-stream.csv" || exit 1
    log "gpu domain sweep"
    "$build/lbm-gpu" "${sweep[@]}" -o "$out/gpu-lbm-sweep.csv" || exit 1
    log "gpu collision operators at 256^3"
    "$build/lbm-gpu" "${ops[@]}" -o "$out/gpu-lbm-collisions.csv" || exit 1
fi
if [[ " $parts " == *" cpu "* ]]; then
    log "cpu stream ceilings"
    "$build/stream-cpu" --reps 20 -o "$out/cpu-stream.csv" || exit 1
    log "cpu domain sweep"
    "$build/lbm-cpu" "${sweep[@]}" -o "$out/cpu-lbm-sweep.csv" || exit 1
    log "cpu collision operators at 256^3"
    "$build/lbm-cpu" "${ops[@]}" -o "$out/cpu-lbm-collisions.csv" || exit 1
fi
log "done"
