#!/usr/bin/env bash
# reliability-study.sh OUTDIR: on a GPU machine, the GPU executables under compute-sanitizer
# (memcheck, racecheck, initcheck) on small cases, then the repeatability study: the same stream
# and LBM cases run 10 times as separate processes on the GPU and on the host CPU.
# STUDY_PARTS="sanitizer repeat" (default) selects the parts; REPEATS (default 10); CPU_STREAM
# and CPU_LBM replace the CPU cases' options (defaults below); REPEAT_GPU=0 repeats the CPU cases only.
set -u -o pipefail
out=${1:?usage: reliability-study.sh OUTDIR}
mkdir -p "$out"
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$src/build-study}
parts=${STUDY_PARTS:-sanitizer repeat}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
source "$src/data/scripts/study-common.sh"

if [[ " $parts " == *" sanitizer "* ]]; then
    cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    : >"$out/compute-sanitizer.txt"
    for tool in memcheck racecheck initcheck; do
        for cmd in "$build/stream-gpu --size 1M --kernel copy,copy19,memcpy --reps 2 --warmup 1 -o /dev/null" \
                   "$build/lbm-gpu --size 20 --dims 33x7x5 --pad 0,3 --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 3 --reps 1 --warmup 1 -o /dev/null" \
                   "$build/tests/test_lbm_gpu"; do
            log "compute-sanitizer --tool $tool ${cmd##*/}"
            echo "### compute-sanitizer --tool $tool --error-exitcode 99 $cmd" >>"$out/compute-sanitizer.txt"
            # shellcheck disable=SC2086
            "$cs" --tool "$tool" --error-exitcode 99 $cmd >"$out/cs.log" 2>&1
            echo "exit status $?" >>"$out/compute-sanitizer.txt"
            grep -E "ERROR SUMMARY|RACECHECK SUMMARY|========= [A-Z]" "$out/cs.log" | tail -3 >>"$out/compute-sanitizer.txt"
        done
    done
    rm -f "$out/cs.log"
fi
if [[ " $parts " == *" repeat "* ]]; then
    n=${REPEATS:-10}
    for i in $(seq "$n"); do
        log "repetition $i of $n"
        if [ "${REPEAT_GPU:-1}" = 1 ] && nvidia-smi -L >/dev/null 2>&1; then
            "$build/stream-gpu" --kernel copy --precision sp --reps 20 -o "$out/rep-gpu-stream-$i.csv" 2>/dev/null || exit 1
            "$build/lbm-gpu" --size 256 --precision sp --reps 5 -o "$out/rep-gpu-lbm-$i.csv" 2>/dev/null || exit 1
        fi
        # shellcheck disable=SC2086
        "$build/stream-cpu" ${CPU_STREAM:---kernel copy --precision dp --reps 20} -o "$out/rep-cpu-stream-$i.csv" 2>/dev/null || exit 1
        # shellcheck disable=SC2086
        "$build/lbm-cpu" ${CPU_LBM:---size 128 --precision sp --kernel pull --reps 5} -o "$out/rep-cpu-lbm-$i.csv" 2>/dev/null || exit 1
    done
fi
log "done"
