#!/usr/bin/env bash
# mpi_energy_shared.sh MPIEXEC LBM_GPU: two ranks on ONE GPU (CUDA_VISIBLE_DEVICES=0) read the same
# NVML meter; a run's energy counts each device once: the 2-rank row's power limit is the one GPU's
# (the 1-rank row's), and its mean power stays under it (counted twice, both doubled: 772 W
# against a 700 W limit on an H100). Skipped (77) where no energy is measured (no NVML, no GPU).
set -u
mpiexec=$1 bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
source "$(dirname "$0")/mpi_launcher.sh"
mpi_launcher "$mpiexec"
export CUDA_VISIBLE_DEVICES=0
args=(--size 192 --kernel pull --precision sp --reps 3)
"$bin" "${args[@]}" -o "$tmp/one.csv" 2>"$tmp/one.err" || { cat "$tmp/one.err" >&2; exit 1; }
one=$(column power_W "$tmp/one.csv") lim1=$(column power_limit_W "$tmp/one.csv")
[ -n "$one" ] || { echo "mpi_energy_shared: no energy measured here (skipped)"; exit 77; }
"$mpiexec" "${mpi_flags[@]}" -np 2 "$bin" "${args[@]}" --procs 1x1x2 -o "$tmp/two.csv" 2>"$tmp/two.err" ||
    { cat "$tmp/two.err" >&2; exit 1; }
two=$(column power_W "$tmp/two.csv") lim2=$(column power_limit_W "$tmp/two.csv")
[ -n "$two" ] || { cat "$tmp/two.err" >&2; echo "mpi_energy_shared: the 2-rank row has no power" >&2; exit 1; }
[ "$lim2" = "$lim1" ] ||
    { echo "mpi_energy_shared: 2 ranks on one GPU: power limit $lim2 W, the GPU's is $lim1 W" >&2; exit 1; }
awk -v p="$two" -v l="$lim1" 'BEGIN { exit !(p <= 1.05 * l) }' ||
    { echo "mpi_energy_shared: 2 ranks on one GPU: $two W, above its $lim1 W limit" >&2; exit 1; }
echo "mpi_energy_shared: one GPU (limit $lim1 W), 1 rank $one W, 2 ranks $two W"
