#!/usr/bin/env bash
# mpi-study.sh OUTDIR: builds the suite (with MPI), runs the tests, and records the distributed
# LBM studies into OUTDIR:
#   gpu: one case on every grid of 1, 2 and 4 ranks (up to the GPUs present) ends in the same
#        state (csv_check --same-state);
#        weak scaling with 256^3 per GPU and strong scaling of a 512^3 cavity on 1, 2, 4.. GPUs
#        (powers of two up to the GPUs present), halo overlap on and off, halos through the
#        node's shared memory and through host messages (--halo node,host), sp and dp; the
#        strong case once more on each grid.
#   cpu: 1, 2 and 4 ranks sharing the host's cores (each rank bound to cores/ranks of them,
#        one OpenMP thread per core): MFLUP/s per core should not depend on the rank count.
#   node: the node run on all N GPUs of the host (2, 4 or 8): the same state on every grid of 1,
#        2 and N ranks (sp, dp, fp16s, fp16c); weak scaling with 256^3 per GPU on one GPU and every
#        N-rank grid; strong scaling of a 1024^3 cavity (768^3 on two GPUs, where one rank's share
#        of 1024^3 needs 152 GiB in dp) on every N-rank grid beside one GPU running one rank's
#        share (1024 x 1024 x 1024/N), which no single GPU could hold whole; node-summary.txt
#        gives each grid's efficiency. STUDY_NODE_WEAK, STUDY_NODE_STRONG (edges, default 256 and
#        1024, 768 for N = 2), STUDY_NODE_PRECISIONS (of the weak and strong runs, default
#        sp,dp,fp16s,fp16c), STUDY_NODE_BIN (default lbm-gpu) and, with another binary,
#        STUDY_NODE_RANKS (default 4) for a small rehearsal.
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
source "$src/tests/mpi_launcher.sh" # same_state_flags
grep -q "MPI ON" "$out/build.log" || { log "this build has no MPI"; exit 1; }
"$mpiexec" --version >"$out/mpi.txt" 2>&1
ompi_info --parsable --all 2>/dev/null | grep -i "cuda_support" >>"$out/mpi.txt"
{ df -h /dev/shm /tmp; cat /proc/sys/kernel/yama/ptrace_scope; } >>"$out/mpi.txt" 2>&1
reps=(--reps 5 --warmup 20)

# every grid PXxPYxPZ of n ranks, comma-separated
grids_of() {
    local n=$1 px py list=""
    for ((px = 1; px <= n; px++)); do
        ((n % px)) && continue
        for ((py = 1; py <= n / px; py++)); do
            ((n / px % py)) || list="$list,${px}x${py}x$((n / px / py))"
        done
    done
    echo "${list#,}"
}

ngpu=0
nvidia-smi -L >/dev/null 2>&1 && ngpu=$(nvidia-smi -L | grep -c '^GPU ')
if [[ " $parts " == *" gpu "* ]] && [ "$ngpu" -ge 1 ] && [ -x "$build/lbm-gpu" ]; then
    nvidia-smi --query-gpu=index,name,clocks.sm,clocks.mem,ecc.mode.current,driver_version \
        --format=csv >"$out/gpu.txt" 2>&1
    nvidia-smi topo -m >>"$out/gpu.txt" 2>&1
    ranks=1 grids=1x1x1
    for ((r = 2; r <= ngpu; r *= 2)); do ranks="$ranks,$r"; done
    for r in 2 4; do [ "$ngpu" -ge $r ] && grids="$grids,$(grids_of $r)"; done
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

if [[ " $parts " == *" node "* ]]; then
    bin=$build/${STUDY_NODE_BIN:-lbm-gpu}
    precs=${STUDY_NODE_PRECISIONS:-sp,dp,fp16s,fp16c}
    n=$ngpu
    # another binary (lbm-cpu: a rehearsal on a small host) runs a thread a rank and says that
    # its ranks share the CPUs, which lbm-cpu otherwise refuses (docs/distributed.md)
    [ "$bin" = "$build/lbm-gpu" ] || { n=${STUDY_NODE_RANKS:-4}; export OMP_NUM_THREADS=1 LBMR_OVERSUBSCRIBE=1; }
    [ "$n" -ge 2 ] || { log "node: needs 2 or more GPUs (found $n)"; exit 1; }
    weak=${STUDY_NODE_WEAK:-256} strong=${STUDY_NODE_STRONG:-$([ "$n" -eq 2 ] && echo 768 || echo 1024)}
    run=("$mpiexec" "${flags[@]}" -np "$n" "$bin")
    all=$(grids_of "$n")
    log "node: one state on 1, 2 and $n ranks: 1x1x1,$(grids_of 2),$all"
    mapfile -t quiet < <(same_state_flags "$bin")
    LBMR_ENERGY=off "${run[@]}" --dims 96x80x64 --procs "1x1x1,$(grids_of 2),$all" \
        --precision sp,dp,fp16s,fp16c --collision trt --geometry cavity,channel,periodic \
        --overlap on,off --steps 20 --warmup 3 --reps 2 "${quiet[@]}" \
        -o "$out/node-same-state.csv" || exit 1
    "$build/tests/csv_check" "$out/node-same-state.csv" --bench lbm --backend "${bin##*-}" \
        --same-state 1 || exit 1
    log "node: weak scaling, $weak^3 a rank, 1x1x1,$all"
    LBMR_ENERGY=off "${run[@]}" --local "$weak" --procs "1x1x1,$all" --precision "$precs" \
        --kernel pull "${reps[@]}" -o "$out/node-weak.csv" || exit 1
    share="${strong}x${strong}x$((strong / n))"
    log "node: one rank's share of $strong^3 ($share) on one GPU, then $strong^3 on $all"
    LBMR_ENERGY=off "$bin" --dims "$share" --precision "$precs" --kernel pull "${reps[@]}" \
        -o "$out/node-share.csv" || exit 1
    LBMR_ENERGY=off "${run[@]}" --size "$strong" --procs "$all" --precision "$precs" --kernel pull \
        "${reps[@]}" -o "$out/node-strong.csv" || exit 1
    # efficiency: MFLUP/s / (ranks x the one-rank row: weak 1x1x1 of the same file, strong the share)
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) h[FILENAME, $i] = i; next }
        { c = h[FILENAME, "procs"]; p = $h[FILENAME, "precision"]; m = $h[FILENAME, "mflups_med"]
          split($c, g, "x"); r = g[1] * g[2] * g[3]
          if (FILENAME ~ /share/) { base["strong", p] = m; next }
          kind = FILENAME ~ /weak/ ? "weak" : "strong"
          if (kind == "weak" && r == 1) base["weak", p] = m
          row[++nrow] = kind SUBSEP p SUBSEP $c SUBSEP r SUBSEP m }
        END { printf "%-6s %-5s %-7s %12s %10s\n", "case", "prec", "grid", "MFLUP/s", "efficiency"
              for (k = 1; k <= nrow; k++) { split(row[k], f, SUBSEP)
                  b = base[f[1], f[2]]
                  printf "%-6s %-5s %-7s %12.0f %10.3f\n", f[1], f[2], f[3], f[5], (b > 0 ? f[5] / (f[4] * b) : 0) } }' \
        "$out/node-share.csv" "$out/node-weak.csv" "$out/node-strong.csv" >"$out/node-summary.txt"
    cat "$out/node-summary.txt" >&2
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
