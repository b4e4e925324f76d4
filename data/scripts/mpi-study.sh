#!/usr/bin/env bash
# mpi-study.sh OUTDIR: builds the suite (with MPI), runs the tests, and records the distributed
# LBM studies into OUTDIR:
#   gpu: one case on every grid of 1..N GPUs ends in the same state (csv_check --same-state);
#        weak scaling with 256^3 per GPU and strong scaling of a 512^3 cavity on 1, 2, 4.. GPUs
#        (powers of two up to the GPUs present), halo overlap on and off, halos through the
#        node's shared memory and through host messages (--halo node,host), sp and dp; the
#        strong case once more on each grid.
#   cpu: 1, 2 and 4 ranks sharing the host's cores (each rank bound to cores/ranks of them,
#        one OpenMP thread per core): MFLUP/s per core should not depend on the rank count.
# STUDY_PARTS="gpu cpu" (default) selects the parts; MPIEXEC (default mpiexec) and MPIEXEC_FLAGS
# go to the launcher (Open MPI's --map-by/--bind-to are used for the cpu part).
set -u -o pipefail
out=${1:?usage: mpi-study.sh OUTDIR}
mkdir -p "$out"
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$src/build-study}
parts=${STUDY_PARTS:-gpu cpu}
mpiexec=${MPIEXEC:-mpiexec}
# shellcheck disable=SC2206
flags=(${MPIEXEC_FLAGS:-})
source "$src/data/scripts/study-common.sh"
grep -q "MPI ON" "$out/build.log" || { log "this build has no MPI"; exit 1; }
"$mpiexec" --version >"$out/mpi.txt" 2>&1
ompi_info --parsable --all 2>/dev/null | grep -i "cuda_support" >>"$out/mpi.txt"
{ df -h /dev/shm /tmp; cat /proc/sys/kernel/yama/ptrace_scope; } >>"$out/mpi.txt" 2>&1
reps=(--reps 5 --warmup 20)

ngpu=0
nvidia-smi -L >/dev/null 2>&1 && ngpu=$(nvidia-smi -L | grep -c '^GPU ')
if [[ " $parts " == *" gpu "* ]] && [ "$ngpu" -ge 1 ] && [ -x "$build/lbm-gpu" ]; then
    nvidia-smi --query-gpu=index,name,clocks.sm,clocks.mem,ecc.mode.current,driver_version \
        --format=csv >"$out/gpu.txt" 2>&1
    nvidia-smi topo -m >>"$out/gpu.txt" 2>&1
    ranks=1 grids=1x1x1
    for ((r = 2; r <= ngpu; r *= 2)); do ranks="$ranks,$r"; done
    [ "$ngpu" -ge 2 ] && grids="$grids,2x1x1,1x2x1,1x1x2"
    [ "$ngpu" -ge 4 ] && grids="$grids,2x2x1,1x2x2,2x1x2,4x1x1,1x1x4"
    run=("$mpiexec" "${flags[@]}" -np "$ngpu" "$build/lbm-gpu")
    log "gpu stream ceiling (one GPU)"
    "$build/stream-gpu" --kernel copy,memcpy --reps 30 -o "$out/gpu-stream.csv" || exit 1
    log "gpu: one state on every grid ($grids)"
    # no energy meter here: it stretches each row's repetitions to fill its window, so the grids
    # would run different numbers of updates and end in different states
    LBMR_ENERGY=off "${run[@]}" --dims 96x80x64 --procs "$grids" --precision sp,dp --collision bgk,trt,mrt \
        --geometry cavity,channel,periodic --overlap on,off --halo node,host --steps 20 \
        --warmup 3 --reps 2 \
        -o "$out/gpu-same-state.csv" || exit 1
    "$build/tests/csv_check" "$out/gpu-same-state.csv" --bench lbm --backend gpu --same-state 1 ||
        exit 1
    log "gpu weak scaling, 256^3 per GPU, ranks $ranks"
    "${run[@]}" --local 256 --ranks "$ranks" --precision sp,dp --overlap on,off \
        --halo node,host "${reps[@]}" \
        -o "$out/gpu-weak.csv" || exit 1
    log "gpu strong scaling, 512^3, ranks $ranks"
    "${run[@]}" --size 512 --ranks "$ranks" --precision sp,dp --overlap on,off \
        --halo node,host "${reps[@]}" \
        -o "$out/gpu-strong.csv" || exit 1
    log "gpu strong scaling, 512^3 sp, grids $grids"
    "${run[@]}" --size 512 --procs "$grids" --precision sp --halo node,host "${reps[@]}" \
        -o "$out/gpu-strong-grids.csv" || exit 1
fi

if [[ " $parts " == *" cpu "* ]]; then
    cores=$(lscpu -p=core,socket 2>/dev/null | grep -v '^#' | sort -u | wc -l)
    [ "$cores" -ge 4 ] || cores=$(nproc)
    lscpu >"$out/cpu.txt" 2>&1
    for r in 1 2 4; do
        per=$((cores / r))
        log "cpu: $r rank(s) x $per cores, 256^3"
        OMP_NUM_THREADS=$per OMP_PROC_BIND=close OMP_PLACES=cores \
            "$mpiexec" "${flags[@]}" -np "$r" --map-by "slot:PE=$per" --bind-to core \
            -x OMP_NUM_THREADS -x OMP_PROC_BIND -x OMP_PLACES \
            "$build/lbm-cpu" --size 256 --ranks "$r" --precision sp,dp --kernel pull,pull_nt \
            --reps 7 -o "$out/cpu-ranks-$r.csv" || exit 1
    done
fi
log "done"
