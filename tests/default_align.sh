#!/usr/bin/env bash
# default_align.sh LBM_BIN PULL_ALIGN AA_ALIGN: without --align the rows of pull and aa carry the
# backend's default row alignment for each kernel (gpu: 32 bytes for pull, 128 for the in-place
# aa, data/lbm/gpu-aa-align-h100-2026-11-23; cpu: 0 for both); an explicit --align applies to
# every kernel.
set -u
bin=$1 want_pull=$2 want_aa=$3
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
echo "default_align: pull=$want_pull aa=$want_aa by default, --align 0/32/128 for both"
