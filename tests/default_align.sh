#!/usr/bin/env bash
# default_align.sh LBM_BIN PULL_ALIGN AA_ALIGN SPLIT_X_ALIGN [MPIEXEC [SPLIT_X_NT_ALIGN]]: without
# --align the rows of pull and aa carry the backend's default row alignment for each kernel (gpu:
# 32 bytes for pull, 128 for the in-place aa, data/lbm/gpu-aa-align-h100-2026-11-23; cpu: 64 for
# both); an explicit --align applies to every kernel. With MPIEXEC, pull's rows on a grid split
# along x (2 ranks, 2x1x1) carry SPLIT_X_ALIGN (gpu 128: a row's fluid after its ghost cell starts
# on a line; cpu 0: rows without an alignment), on a z split PULL_ALIGN, and --align
# still wins; with SPLIT_X_NT_ALIGN too, pull_nt's rows carry that on 2x1x1 (cpu 64: its line
# steps need rows on lines) and PULL_ALIGN on 1x1x2.
set -u
bin=$1 want_pull=$2 want_aa=$3 want_split=$4 mpiexec=${5:-} want_split_nt=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "default_align: $*" >&2; cat "$tmp/stderr" >&2; exit 1; }
# "kernel=align" per row
aligns() {
    paste -d= <(awk -v want=kernel -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv") \
        <(awk -v want=align -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv") | tr '\n' ' '
}
run() {
    rm -f "$tmp/out.csv"
    "$bin" --size 24 --kernel pull,aa --precision sp --steps 2 --warmup 0 --reps 1 "$@" \
        -o "$tmp/out.csv" 2>"$tmp/stderr" || fail "exit status $? for $*"
}
run
[ "$(aligns)" = "pull=$want_pull aa=$want_aa " ] ||
    fail "default aligns: $(aligns)(want pull=$want_pull aa=$want_aa)"
for a in 0 32 128; do
    run --align $a
    [ "$(aligns)" = "pull=$a aa=$a " ] || fail "--align $a: $(aligns)(want $a for both)"
done
said="pull=$want_pull aa=$want_aa by default, --align 0/32/128 for both"
[ -n "$mpiexec" ] || { echo "default_align: $said"; exit 0; }

# grid=align per row of a 2-rank pull run over 2x1x1 and 1x1x2
source "$(dirname "$0")/mpi_launcher.sh"
mpi_launcher "$mpiexec"
split() { # split KERNEL [ARGS]
    local k=$1
    shift
    rm -f "$tmp/out.csv"
    "$mpiexec" "${mpi_flags[@]}" -np 2 "$bin" --dims 40x6x5 --procs 2x1x1,1x1x2 --kernel "$k" \
        --precision sp --steps 2 --warmup 0 --reps 1 "$@" -o "$tmp/out.csv" 2>"$tmp/stderr" ||
        fail "2 ranks: exit status $? for $*"
    paste -d= <(awk -v want=procs -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv") \
        <(awk -v want=align -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv") | tr '\n' ' '
}
got=$(split pull)
[ "$got" = "2x1x1=$want_split 1x1x2=$want_pull " ] ||
    fail "split defaults: $got(want 2x1x1=$want_split 1x1x2=$want_pull)"
got=$(split pull --align 32)
[ "$got" = "2x1x1=32 1x1x2=32 " ] || fail "split with --align 32: $got"
said="$said; pull on 2x1x1 $want_split, on 1x1x2 $want_pull"
if [ -n "$want_split_nt" ]; then
    got=$(split pull_nt)
    [ "$got" = "2x1x1=$want_split_nt 1x1x2=$want_pull " ] ||
        fail "pull_nt's split defaults: $got(want 2x1x1=$want_split_nt 1x1x2=$want_pull)"
    said="$said; pull_nt on 2x1x1 $want_split_nt"
fi
echo "default_align: $said"
