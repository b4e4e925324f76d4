#!/usr/bin/env bash
# quiet_wait.sh STREAM_CPU LBM_CPU ROOFLINE: cpu repetitions wait for a quiet clock. With the probe's
# readings scripted (LBMR_CLOCK_FAKE, the test hook of cpu/cpu_clock.h: one value per probe, the
# last repeated), each executable must repeat until it has --reps undisturbed repetitions, give up
# at 4x --reps and say so (cpu_unsteady), and write the clock columns; --quiet-wait off must run
# exactly --reps and leave them empty; roofline --table and --summary must flag the device whose
# clock moved, and only that one. Without the hook the real probe must read a clock.
set -u
stream=$1 lbm=$2 rl=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "quiet_wait: FAIL: $*" >&2; exit 1; }
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
# expect FILE COLUMN=VALUE...: the file's one row holds those values
expect() {
    local f=$1 kv v
    shift
    for kv in "$@"; do
        v=$(column "${kv%%=*}" "$f")
        [ "$v" = "${kv#*=}" ] || fail "$f: ${kv%%=*} is '$v', expected '${kv#*=}'"
    done
}
for exe in stream lbm; do
    if [ $exe = stream ]; then
        run=("$stream" --size 64K --kernel copy --precision sp --warmup 0 --reps 3)
    else
        run=("$lbm" --size 8 --steps 2 --kernel pull --precision sp --warmup 0 --reps 3)
    fi
    # probes: one before the set, then after each block of repetitions (common/quiet.h: these
    # short ones may share one, however the timing falls). The first block ends at 2000 and the
    # second starts there: both disturbed, made up for by later quiet ones
    LBMR_CLOCK_FAKE=3500,2000,3500 "${run[@]}" -o "$tmp/$exe-moved.csv" 2>"$tmp/err" ||
        { cat "$tmp/err"; fail "$exe: the run with a moving clock failed"; }
    expect "$tmp/$exe-moved.csv" cpu_clock_MHz=3500 cpu_clock_low_MHz=2000 clock_events= verified=pass
    r=$(column reps "$tmp/$exe-moved.csv") d=$(column reps_disturbed "$tmp/$exe-moved.csv")
    [ "$d" -ge 2 ] && [ $((r - d)) -ge 3 ] && [ "$r" -le 12 ] ||
        fail "$exe: a moving clock gave reps $r, reps_disturbed $d"
    # never quiet after the first probe: gives up at 4 x 3 attempts, times them all, says so
    LBMR_CLOCK_FAKE=3500,2000 "${run[@]}" -o "$tmp/$exe-never.csv" 2>/dev/null || fail "$exe: never quiet"
    expect "$tmp/$exe-never.csv" reps=12 reps_disturbed=12 cpu_clock_low_MHz=2000 \
        clock_events=cpu_unsteady verified=pass
    # steady: exactly --reps
    LBMR_CLOCK_FAKE=3500 "${run[@]}" -o "$tmp/$exe-steady.csv" 2>/dev/null || fail "$exe: steady"
    expect "$tmp/$exe-steady.csv" reps=3 reps_disturbed=0 cpu_clock_MHz=3500 cpu_clock_low_MHz=3500 \
        clock_events=
    # the old behaviour: no probe, exactly --reps, whatever the clock
    LBMR_CLOCK_FAKE=3500,2000 "${run[@]}" --quiet-wait off -o "$tmp/$exe-off.csv" 2>/dev/null ||
        fail "$exe: --quiet-wait off"
    expect "$tmp/$exe-off.csv" reps=3 reps_disturbed= cpu_clock_MHz= cpu_clock_low_MHz= clock_events=
    # the real probe reads a clock: positive, the lowest no higher than the highest
    "${run[@]}" -o "$tmp/$exe-real.csv" 2>/dev/null || fail "$exe: real probe"
    hi=$(column cpu_clock_MHz "$tmp/$exe-real.csv") lo=$(column cpu_clock_low_MHz "$tmp/$exe-real.csv")
    awk -v h="$hi" -v l="$lo" 'BEGIN { exit !(l > 0 && l <= h) }' ||
        fail "$exe: the real probe read '$lo'-'$hi' MHz"
done
# roofline: the device whose clock moved is flagged in --table (one line) and --summary
# (cpu_unsteady 1 with the range); the steady one is not
"$rl" --table "$tmp/stream-moved.csv" "$tmp/lbm-moved.csv" >"$tmp/t-moved.txt" 2>&1 || fail "--table of the moved rows"
grep -Eq 'cpu clock moved 2000-3500 MHz during the run \([0-9]+ of [0-9]+ timed repetitions disturbed\)' "$tmp/t-moved.txt" ||
    fail "--table does not flag the moved clock: $(cat "$tmp/t-moved.txt")"
"$rl" --table "$tmp/stream-steady.csv" "$tmp/lbm-steady.csv" >"$tmp/t-steady.txt" 2>&1 || fail "--table of the steady rows"
grep -q 'cpu clock moved' "$tmp/t-steady.txt" && fail "--table flags a steady clock: $(cat "$tmp/t-steady.txt")"
"$rl" --summary "$tmp/stream-moved.csv" "$tmp/lbm-moved.csv" >"$tmp/s-moved.csv" 2>/dev/null || fail "--summary of the moved rows"
expect "$tmp/s-moved.csv" cpu_unsteady=1 cpu_clock_low_MHz=2000 cpu_clock_MHz=3500
[ "$(column reps_disturbed "$tmp/s-moved.csv")" -ge 4 ] || fail "--summary: reps_disturbed below the rows' 4"
"$rl" --summary "$tmp/stream-steady.csv" "$tmp/lbm-steady.csv" >"$tmp/s-steady.csv" 2>/dev/null || fail "--summary of the steady rows"
expect "$tmp/s-steady.csv" cpu_unsteady=0 reps_disturbed=0
# rows without the columns (--quiet-wait off, gpu rows): empty, no flag
"$rl" --summary "$tmp/stream-off.csv" "$tmp/lbm-off.csv" >"$tmp/s-off.csv" 2>/dev/null || fail "--summary of the unprobed rows"
expect "$tmp/s-off.csv" cpu_unsteady= cpu_clock_MHz=
echo "quiet_wait: ok"
