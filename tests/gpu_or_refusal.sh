#!/usr/bin/env bash
# gpu_or_refusal.sh BIN CSV_CHECK BENCH ARGS...: where no GPU is visible, a gpu executable must
# refuse with one line and exit status 2 and write no CSV; where one is, the run must verify.
set -u
bin=$1 check=$2 bench=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    "$bin" "$@" -o "$tmp/out.csv" 2>"$tmp/stderr" || { cat "$tmp/stderr"; exit 1; }
    "$check" "$tmp/out.csv" --bench "$bench" --backend gpu || exit 1
    echo "gpu_or_refusal: GPU present, run verified"
else
    "$bin" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    cat "$tmp/stderr"
    [ "$rc" -eq 2 ] || { echo "expected exit 2 without a GPU, got $rc"; exit 1; }
    [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || { echo "expected one line on stderr"; exit 1; }
    grep -q "no CUDA device" "$tmp/stderr" || { echo "message does not say there is no GPU"; exit 1; }
    [ -s "$tmp/stdout" ] && { echo "stdout not empty"; exit 1; }
    [ -e "$tmp/out.csv" ] && { echo "a CSV file was written"; exit 1; }
    echo "gpu_or_refusal: no GPU, refused cleanly"
fi
