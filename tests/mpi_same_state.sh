#!/usr/bin/env bash
# mpi_same_state.sh MPIEXEC LBM CSV_CHECK NP SAME ARGS...: runs LBM under MPIEXEC on NP ranks
# (more ranks than cores is fine: one OpenMP thread each) over the rank grids in ARGS; every row
# must verify and, with SAME = 1, one case must end in the bit-identical state on every grid
# (csv_check --same-state; weak scaling grows the domain with the ranks: SAME = 0 there).
# X_FACES_EXPECT=M (update or shells): every row of a grid split along x says M in x_faces,
# every other row nothing.
set -u
mpiexec=$1 bin=$2 check=$3 np=$4 same=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/mpi_launcher.sh"
mpi_launcher "$mpiexec"
backend=cpu
case ${bin##*/} in *gpu*) backend=gpu ;; esac
mapfile -t quiet < <(same_state_flags "$bin")
"$mpiexec" "${mpi_flags[@]}" -np "$np" "$bin" "$@" "${quiet[@]}" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/stderr" >&2; echo "mpi_same_state: exit status $rc" >&2; exit 1; }
[ -s "$tmp/stdout" ] && { echo "mpi_same_state: stdout not empty with -o" >&2; exit 1; }
"$check" "$tmp/out.csv" --bench lbm --backend "$backend" --same-state "$same" || exit 1
if [ -n "${X_FACES_EXPECT:-}" ]; then
    col() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv"; }
    bad=$(paste -d' ' <(col procs) <(col x_faces) |
        awk -v m="$X_FACES_EXPECT" '{ want = $1 ~ /^1x/ ? "" : m; if ($2 != want) print }')
    [ -z "$bad" ] || { echo "mpi_same_state: x_faces other than $X_FACES_EXPECT on x splits:" >&2; echo "$bad" >&2; exit 1; }
fi
echo "mpi_same_state: $(($(wc -l <"$tmp/out.csv") - 1)) rows verified$([ "$same" = 1 ] && echo ", one state per case on every grid")"
