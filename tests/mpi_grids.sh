#!/usr/bin/env bash
# mpi_grids.sh MPIEXEC LBM: what a CPU run over two ranks does with its rank grids and its node.
# - A grid split along x alone: pull's and pull_nt's rows carry no x ghost cell.
# - A 1-rank grid listed after another runs first, so the other row has its efficiency.
# - A grid named twice runs once.
# - Ranks started with different arguments: refused, one line, exit 2.
# - Two ranks that would run more threads than their node's CPUs (mpiexec --bind-to none, a
#   thread a CPU each): refused with one line and exit 2, no CSV; with LBMR_OVERSUBSCRIBE=1 run,
#   the rows' binding saying node_threads=T/C.
# - A repetition disturbed on any rank is disturbed for the row (--quiet-wait on; the probe's
#   readings scripted per rank through LBMR_CLOCK_FAKE, the test hook of cpu/cpu_clock.h): the ranks
#   repeat together, rank 0's row times only repetitions quiet on every rank and counts the others
#   in reps_disturbed, and its clock columns span every rank's readings.
set -u
mpiexec=$1 bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/mpi_launcher.sh"
mpi_launcher "$mpiexec"
# the CPUs this process may use (nproc without the OpenMP variables mpi_launcher sets)
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
fail() { echo "mpi_grids: $*" >&2; exit 1; }
col() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
run() { "$mpiexec" "${mpi_flags[@]}" -np 2 "$bin" --local 12x10x8 --kernel pull --precision dp \
    --steps 2 --warmup 1 --reps 2 --quiet-wait off "$@"; }

run --ranks 2,1 -o "$tmp/order.csv" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "--ranks 2,1 failed"; }
[ "$(col procs "$tmp/order.csv" | tr '\n' ' ')" = "1x1x1 1x1x2 " ] ||
    fail "--ranks 2,1: grids $(col procs "$tmp/order.csv" | tr '\n' ' '), not 1x1x1 first"
[ -n "$(col efficiency "$tmp/order.csv" | sed -n 2p)" ] || fail "--ranks 2,1: no efficiency on 1x1x2"

run --procs 1x1x2,1x1x1,1x1x2 -o "$tmp/twice.csv" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "--procs twice failed"; }
[ "$(col procs "$tmp/twice.csv" | tr '\n' ' ')" = "1x1x1 1x1x2 " ] ||
    fail "--procs 1x1x2,1x1x1,1x1x2 ran $(col procs "$tmp/twice.csv" | tr '\n' ' ')"

# an x split: pull's and pull_nt's rows hold the rank's nx cells, no ghost cell beside them (the
# end cells read the received face), where x is the only split axis; 64 sp cells a rank are whole
# lines, so a ghost cell would add a line (pitch 80)
"$mpiexec" "${mpi_flags[@]}" -np 2 "$bin" --dims 128x6x5 --procs 2x1x1 --kernel pull,pull_nt \
    --precision sp --align 64 --steps 2 --reps 1 --quiet-wait off -o "$tmp/xsplit.csv" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "2x1x1 failed"; }
[ "$(col pitch "$tmp/xsplit.csv" | tr '\n' ' ')" = "64 64 " ] ||
    fail "2x1x1 rows of 64 cells: pitch $(col pitch "$tmp/xsplit.csv" | tr '\n' ' '), not 64 64"

# ranks started with different arguments (an MPMD launch): refused on every rank at once, not a
# hang (a bad argument on one rank only) or a crash (two domains)
for other in "--size 16x" "--size 24"; do
    # shellcheck disable=SC2086
    timeout 60 "$mpiexec" "${mpi_flags[@]}" -np 1 "$bin" --size 16 --kernel pull --precision dp \
        --steps 2 --reps 1 --quiet-wait off : -np 1 "$bin" $other --kernel pull --precision dp \
        --steps 2 --reps 1 --quiet-wait off >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || { cat "$tmp/err" >&2; fail "ranks with --size 16 and $other: exit $rc, not 2"; }
    grep -q "^${bin##*/}: error: the job's ranks were started with different arguments" "$tmp/err" ||
        { cat "$tmp/err" >&2; fail "ranks with --size 16 and $other: not refused as different"; }
    [ -s "$tmp/out" ] && fail "ranks with --size 16 and $other: a CSV on stdout"
done

# every rank all CPUs, a thread a CPU each: twice the CPUs. Each launcher's way of leaving its
# ranks unbound (Open MPI binds to cores by default for two ranks, Intel MPI pins; MPICH does not)
bind=()
if "$mpiexec" --version 2>/dev/null | grep -Eq "Open MPI|OpenRTE"; then
    bind=(--bind-to none)
elif "$mpiexec" --version 2>/dev/null | grep -q "HYDRA"; then
    bind=(-bind-to none)
fi
crowd() { # crowd ALLOW ARGS...: ALLOW 1 sets LBMR_OVERSUBSCRIBE=1, else it is unset
    local allow=()
    [ "$1" = 1 ] && allow=(LBMR_OVERSUBSCRIBE=1)
    shift
    env -u LBMR_OVERSUBSCRIBE "${allow[@]}" I_MPI_PIN=0 OMP_NUM_THREADS="$cpus" "$mpiexec" \
        "${mpi_flags[@]}" "${bind[@]}" -np 2 "$bin" --local 8 --kernel pull --precision dp --steps 2 \
        --warmup 1 --reps 2 --quiet-wait off "$@"
}
crowd 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || { cat "$tmp/err" >&2; fail "crowded node: exit $rc, not 2"; }
[ -s "$tmp/out" ] && fail "crowded node: a CSV on stdout"
n=$(grep -c "^${bin##*/}: " "$tmp/err")
[ "$n" -eq 1 ] || { cat "$tmp/err" >&2; fail "crowded node: $n lines from ${bin##*/}, not 1"; }
grep -q "would run $((2 * cpus)) threads on $cpus CPUs" "$tmp/err" || { cat "$tmp/err" >&2; fail "crowded node: the line does not say the counts"; }
crowd 1 -o "$tmp/crowd.csv" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "LBMR_OVERSUBSCRIBE=1 failed"; }
col binding "$tmp/crowd.csv" | grep -q "node_threads=$((2 * cpus))/$cpus" ||
    fail "LBMR_OVERSUBSCRIBE=1: binding $(col binding "$tmp/crowd.csv" | head -1) lacks node_threads"
# rank 0 steady at 3500 MHz, rank 1 at 2000 after its first probe (never quiet) or for one block
# (moved): the row is rank 1's as much as rank 0's
quiet() { # quiet NAME RANK1_FAKE: the row of a 2-rank run, rank 1's clock scripted
    local args=("$bin" --size 12 --procs 1x1x2 --kernel pull --precision sp --steps 2 --warmup 0
        --reps 3)
    timeout 120 "$mpiexec" "${mpi_flags[@]}" -np 1 env LBMR_CLOCK_FAKE=3500 "${args[@]}" : \
        -np 1 env LBMR_CLOCK_FAKE="$2" "${args[@]}" >"$tmp/$1.csv" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; fail "quiet $1: the run failed"; }
    [ "$(col procs "$tmp/$1.csv")" = 1x1x2 ] || fail "quiet $1: no 1x1x2 row"
}
quiet never 3500,2000
for kv in reps=12 reps_disturbed=12 clock_events=cpu_unsteady cpu_clock_MHz=3500 cpu_clock_low_MHz=2000; do
    [ "$(col "${kv%%=*}" "$tmp/never.csv")" = "${kv#*=}" ] ||
        fail "rank 1 never quiet: ${kv%%=*} is '$(col "${kv%%=*}" "$tmp/never.csv")', expected '${kv#*=}'"
done
quiet moved 3500,2000,3500
r=$(col reps "$tmp/moved.csv") d=$(col reps_disturbed "$tmp/moved.csv")
[ "$d" -ge 2 ] && [ $((r - d)) -ge 3 ] && [ "$r" -le 12 ] && [ -z "$(col clock_events "$tmp/moved.csv")" ] ||
    fail "rank 1's clock moved for one block: reps $r, reps_disturbed $d, clock_events '$(col clock_events "$tmp/moved.csv")'"
[ "$(col cpu_clock_low_MHz "$tmp/moved.csv")" = 2000 ] || fail "rank 1's clock moved: cpu_clock_low_MHz not 2000"
echo "mpi_grids: 1-rank grid first, a grid named twice once, different arguments refused, a crowded node refused and marked, a rank's disturbed repetition the row's"
