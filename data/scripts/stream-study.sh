#!/usr/bin/env bash
# stream-study.sh OUTDIR: builds the suite, runs the gpu tests where a GPU is present, and records
# the STREAM studies into OUTDIR: default rows, GPU launch (block x ILP)
# and grid sweeps with occupancy, misaligned read versus write, and the CPU copy alternated with a
# McCalpin STREAM binary given as $MCCALPIN_BIN (built by hand outside the repository; optional).
# STUDY_PARTS="gpu cpu" (default) selects the parts; MCCALPIN_PAIRS (default 5) the alternations.
set -u -o pipefail
out=${1:?usage: stream-study.sh OUTDIR}
mkdir -p "$out"
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$src/build-study}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
source "$src/data/scripts/study-common.sh"

parts=${STUDY_PARTS:-gpu cpu}
if [[ " $parts " == *" gpu "* ]] && [ -x "$build/stream-gpu" ] && nvidia-smi -L >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,ecc.mode.current,power.limit,driver_version --format=csv >"$out/gpu.txt" 2>&1
    g="$build/stream-gpu"
    log "gpu default rows x3 (copy, copy19, memcpy; 1 GiB per array)"
    for i in 1 2 3; do "$g" --reps 30 -o "$out/gpu-default-$i.csv" || exit 1; done
    log "gpu block x ilp sweep (copy, 1 GiB)"
    "$g" --kernel copy --block 32,64,128,256,512,1024 --ilp 1,2,4,8 --reps 15 -o "$out/gpu-launch-sweep.csv" || exit 1
    log "gpu grid sweep (copy, 1 GiB)"
    "$g" --kernel copy --block 256,1024 --ilp 1 --blocks 33,66,132,264,528,1056,2112,4224,8448,16896,65536 --reps 15 -o "$out/gpu-grid-sweep.csv" || exit 1
    log "gpu misaligned read vs write (scalar accesses)"
    "$g" --kernel copy,copy19 --access scalar --read-offset 0,1 --write-offset 0,1 --reps 15 -o "$out/gpu-misaligned.csv" || exit 1
fi

[[ " $parts " == *" cpu "* ]] || { log "done"; exit 0; }
c="$build/stream-cpu"
log "cpu default rows"
"$c" --reps 20 -o "$out/cpu-default.csv" || exit 1
if [ -n "${MCCALPIN_BIN:-}" ]; then
    bytes=${MCCALPIN_BYTES:?set MCCALPIN_BYTES to the array size in bytes McCalpin was built with}
    log "cpu copy alternated with McCalpin STREAM ($bytes bytes per array)"
    : >"$out/mccalpin.txt"
    for i in $(seq "${MCCALPIN_PAIRS:-5}"); do
        for b in $MCCALPIN_BIN; do
            echo "### run $i $b" >>"$out/mccalpin.txt"
            "$b" >>"$out/mccalpin.txt" 2>&1
        done
        "$c" --kernel copy,copy_nt --precision dp --size "$bytes" --reps 20 -o "$out/cpu-vs-mccalpin-$i.csv" || exit 1
    done
    bash "$src/data/scripts/mccalpin-csv.sh" "$out/mccalpin.txt" >"$out/mccalpin.csv"
fi
log "done"
