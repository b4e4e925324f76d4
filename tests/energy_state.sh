#!/usr/bin/env bash
# energy_state.sh LBM_CPU FIXTURES: a row's state_hash is that of warmup + reps x steps updates
# from the start, also where the energy meter asked for longer windows: with a powercap counter
# that advances (a copy of a fixture, bumped every 10 ms) and no warm-up (no estimate, so the
# first window is too short and is measured again with more repetitions), the row must hold the
# state that a run without the meter reaches with the row's reps.
set -u
bin=$1 fixtures=$2
tmp=$(mktemp -d)
bump=''
trap '[ -n "$bump" ] && kill "$bump" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "energy_state: $*" >&2; exit 1; }
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
cp -r "$fixtures/amd-1pkg/t0" "$tmp/pc"
counter=$(ls "$tmp"/pc/*/energy_uj | head -1)
(e=1000; while :; do e=$((e + 50000)); echo "$e" >"$counter.new" && mv "$counter.new" "$counter"; sleep 0.01; done) &
bump=$!
args=(--size 16 --steps 4 --warmup 0 --kernel pull --precision dp)
LBMR_POWERCAP_ROOT=$tmp/pc "$bin" "${args[@]}" --reps 2 -o "$tmp/on.csv" 2>"$tmp/on.err" ||
    { cat "$tmp/on.err"; fail "the metered run failed"; }
reps=$(column reps "$tmp/on.csv") hash=$(column state_hash "$tmp/on.csv")
[ -n "$(column energy_J "$tmp/on.csv")" ] || { cat "$tmp/on.err"; fail "the fixture's counter did not count"; }
[ "$reps" -gt 2 ] || fail "the window was not stretched (reps $reps)"
# exactly the row's reps (no waiting for a quiet clock, which would add repetitions)
LBMR_ENERGY=off "$bin" "${args[@]}" --reps "$reps" --quiet-wait off -o "$tmp/off.csv" 2>/dev/null || fail "the plain run failed"
off=$(column state_hash "$tmp/off.csv")
[ "$hash" = "$off" ] || fail "reps $reps: state_hash $hash with the meter, $off without"
echo "energy_state: reps $reps, state_hash $hash with and without the meter"
