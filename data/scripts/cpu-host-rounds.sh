#!/usr/bin/env bash
# cpu-host-rounds.sh BINDIR OUTDIR [PEER_SP PEER_DP]: alternated rounds of the CPU executables on
# one host, with a slice of the domain sweep in each round so that every swept size has a STREAM
# ceiling measured a minute or less from it (a host whose bandwidth level changes in mid-run then
# moves a size's percentage only as much as it moves the round's own rows).
#
# Each round runs four items, their order rotating by one from round to round:
#   stream  stream-cpu --kernel copy,copy_nt --precision sp,dp,fp16s, then --kernel update
#           (in place, as aa) --precision sp,dp                            -> stream-<r>.csv
#   lbm     lbm-cpu --size $SIZE, every kernel and precision             -> lbm-<r>.csv
#   peer    PEER_SP and PEER_DP (RRZE lbm-benchmark-kernels binaries, built by hand elsewhere:
#           this script neither fetches nor builds them), $SIZE^3        -> peer-<p>-<r>.txt
#   sweep   the round's slice of SLICES (below)                          -> sweep-<r>.csv
# then roofline, if BINDIR has it (otherwise run it afterwards, see COMMAND.md of the study):
#   roofline stream-<r>.csv lbm-<r>.csv sweep-<r>.csv -o roof-<r>.csv
# (one round's stream file at a time: roofline takes the fastest verified copy of each host,
# precision and write-allocate among all the files given; pull's ceiling is copy, pull_nt's and
# aa's copy_nt, and the 16-bit rows', fp16c's too, the fp16s (2-byte) copy.)
#
# Environment (defaults in brackets):
#   ROUNDS [5]  SIZE [256]  THREADS [16]  PEER_IT [10] (the peer's iterations; its set-up of about
#   15 s at 256^3 dominates)  LIMIT [490] (seconds after which no further item starts: size it so
#   that the largest item, about 35 s, still ends inside the caller's limit)
#   SLICES: one entry per round separated by ';', each "SIZES/PRECISIONS[ SIZES/PRECISIONS...]",
#   SIZES as lbm-cpu's --size list; empty: no sweep. [see the default below: 64..512 step 32,
#   sp at every size but 480, dp up to 384; 256 is each round's lbm item]
# On the device (the builds, the peer and this script carried in .peers/cpu-spr, ignored by git;
# about 480 s with the defaults, LIMIT keeping it inside 540):
#   P=$PWD/.peers/cpu-spr; timeout 530 bash $P/cpu-host-rounds.sh $P $OUT/r \
#     $P/lbmbenchk-linux-gcc-release-sp $P/lbmbenchk-linux-gcc-release-dp; tar czf $OUT/r.tgz -C $OUT r
# LD_LIBRARY_PATH gets BINDIR (a libgomp.so.1 carried beside the builds), threads are placed
# OMP_PROC_BIND=close OMP_PLACES=cores unless set. Writes only under OUTDIR; exits 0 unless
# the arguments are wrong (2); every item's exit status is logged to OUTDIR/log.txt.
set -u -o pipefail
bin=${1:?usage: cpu-host-rounds.sh BINDIR OUTDIR [PEER_SP PEER_DP]}
out=${2:?usage: cpu-host-rounds.sh BINDIR OUTDIR [PEER_SP PEER_DP]}
peer_sp=${3:-}
peer_dp=${4:-}
for x in "$bin/lbm-cpu" "$bin/stream-cpu" ${peer_sp:+"$peer_sp"} ${peer_dp:+"$peer_dp"}; do
    [ -x "$x" ] || { echo "cpu-host-rounds.sh: $x is not an executable file" >&2; exit 2; }
done
# the peer runs in OUTDIR: its paths absolute
[ -z "$peer_sp" ] || peer_sp=$(cd "$(dirname "$peer_sp")" && pwd)/$(basename "$peer_sp")
[ -z "$peer_dp" ] || peer_dp=$(cd "$(dirname "$peer_dp")" && pwd)/$(basename "$peer_dp")
mkdir -p "$out" || exit 2
rounds=${ROUNDS:-5}
size=${SIZE:-256}
threads=${THREADS:-16}
limit=${LIMIT:-490}
# the slices: the largest sizes first in the early rounds, each round about 30 s of sweep on the
# 16-core host of the H100 machine (from the wall times of data/lbm/cpu-sweep-h100-host-2026-11-23)
slices=${SLICES-"512/sp 64/sp,dp;384,128,96/sp,dp;352/sp,dp 448/sp;320,160/sp,dp 416/sp;288,224,192/sp,dp"}
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
t0=$SECONDS
log() { echo "$(date -u +%H:%M:%S) +$((SECONDS - t0)) s $*" | tee -a "$out/log.txt" >&2; }

lscpu >"$out/cpu.txt" 2>&1
{ uname -a; "$bin/lbm-cpu" --version; env | grep -E '^(OMP_|LD_LIBRARY_PATH)' | sort; } >"$out/env.txt" 2>&1

item_stream() {
    "$bin/stream-cpu" --kernel copy,copy_nt --precision sp,dp,fp16s --reps 10 \
        -o "$out/stream-$1.csv" 2>>"$out/err-$1.txt"
    log "round $1 stream rc=$?"
    # update has no 2-byte form; a build without it refuses the kernel (exit 2, no row)
    "$bin/stream-cpu" --kernel update --precision sp,dp --reps 10 --append \
        -o "$out/stream-$1.csv" 2>>"$out/err-$1.txt"
    log "round $1 stream update rc=$?"
}
item_lbm() {
    "$bin/lbm-cpu" --size "$size" --kernel pull,pull_nt,aa --precision sp,dp,fp16s,fp16c \
        --reps 3 --warmup 4 -o "$out/lbm-$1.csv" 2>>"$out/err-$1.txt"
    log "round $1 lbm rc=$?"
}
item_peer() {
    local p order=(sp dp)
    [ $(($1 % 2)) = 0 ] && order=(dp sp) # which precision goes first alternates too
    for p in "${order[@]}"; do
        local exe=$peer_sp
        [ "$p" = dp ] && exe=$peer_dp
        [ -n "$exe" ] || continue
        # in OUTDIR: the peer writes its profiles (density-ux.dat, ux-progress.dat) where it runs
        (cd "$out" && timeout 120 "$exe" -kernel aa-vec-sl-soa -dims "${size}x${size}x${size}" \
            -iterations "${PEER_IT:-10}" -t "$threads") >"$out/peer-$p-$1.txt" 2>&1
        log "round $1 peer $p rc=$? $(grep '^P:' "$out/peer-$p-$1.txt" | tr -s ' ' | cut -c1-40)"
    done
}
item_sweep() {
    local slice part mode=--overwrite
    slice=$(echo "$slices" | cut -d';' -f"$1" -s)
    [ -n "$slice" ] || [ "$1" != 1 ] || slice=$slices # one entry without ';': round 1 runs it
    for part in $slice; do
        timeout 200 "$bin/lbm-cpu" --size "${part%/*}" --kernel pull,pull_nt,aa \
            --precision "${part#*/}" --reps 2 --warmup 2 \
            "$mode" \
            -o "$out/sweep-$1.csv" 2>>"$out/err-$1.txt"
        log "round $1 sweep $part rc=$?"
        mode=--append
    done
}

items=(stream lbm peer sweep)
for r in $(seq "$rounds"); do
    grep -E '^cpu ' /proc/stat >"$out/stat-$r-a.txt"
    for k in 0 1 2 3; do
        it=${items[$(((r - 1 + k) % 4))]}
        if [ $((SECONDS - t0)) -gt "$limit" ]; then
            log "round $r $it skipped: past LIMIT=$limit s"
            continue
        fi
        "item_$it" "$r"
    done
    grep -E '^cpu ' /proc/stat >"$out/stat-$r-b.txt"
    if [ -x "$bin/roofline" ]; then
        files=()
        for f in stream lbm sweep; do [ -s "$out/$f-$r.csv" ] && files+=("$out/$f-$r.csv"); done
        "$bin/roofline" "${files[@]}" -o "$out/roof-$r.csv" 2>>"$out/err-$r.txt"
        log "round $r roofline rc=$?"
    fi
done
log "done"
