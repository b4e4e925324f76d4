#!/usr/bin/env bash
# same_state_kernels.sh LBM CSV_CHECK ARGS...: one run of LBM with ARGS on one rank; every row
# must verify and the rows of one case must end in one state whatever the kernel, pad, align or
# thread count (csv_check --same-state on one grid): the row loops' blocks, partial blocks and
# element-wise remainders compute each cell as the same arithmetic.
set -u
bin=$1 check=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/mpi_launcher.sh" # same_state_flags: the one rule for runs compared by state
mapfile -t quiet < <(same_state_flags "$bin")
"$bin" "$@" "${quiet[@]}" -o "$tmp/out.csv" 2>"$tmp/stderr" ||
    { rc=$?; cat "$tmp/stderr" >&2; echo "same_state_kernels: exit status $rc for $*" >&2; exit 1; }
"$check" "$tmp/out.csv" --bench lbm --backend cpu --same-state 1 --min-grids 1 || exit 1
echo "same_state_kernels: $(($(wc -l <"$tmp/out.csv") - 1)) rows verified, one state per case"
