#!/usr/bin/env bash
# interrupt.sh BIN CSV_CHECK ROOFLINE BENCH SIGNAL WHEN ARGS...: starts a sweep writing to a
# file and sends the signal: WHEN=row once the first row is there, WHEN=only during the only
# case's timed repetitions (ARGS then name one case whose repetitions last far longer than the
# time allowed), WHEN=setup while the only case's arrays or lattices are still being allocated
# and written (exit within 1 s), WHEN=append as for row,
# twice: the second process adds to the first one's file with --append, as the main job's rounds
# do. Expected: exit status 130 within EXIT_S seconds of the signal, a note of the interruption
# on stderr, a file whose every row is complete and verified (roofline reads it), and for
# WHEN=only and WHEN=setup no file at all: the unfinished case is dropped, and the file the run
# made and wrote no row to is removed (its header goes out with the first row); for
# WHEN=append one header, the first process's rows kept and the second's added. only and setup
# wait for the program's own mark of the phase (LBMR_TEST_PHASES, progress.h) rather than a
# sleep, and setup fails if the timed repetitions had begun: either way the signal's outcome is
# the same, so a guessed moment could pass without the path it names.
set -u
bin=$1 check=$2 roofline=$3 bench=$4 sig=$5 when=$6
shift 6
exit_s=5 # "stop within about a second", with room for a loaded machine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$when" in row | append) need=2 ;; only | setup) need=0 ;; *) echo "interrupt.sh: WHEN is row, only, setup or append"; exit 2 ;; esac
[ "$when" = setup ] && exit_s=${INTERRUPT_SETUP_EXIT_S:-1} # a sanitizer build: more (its free)
mode=()
if [ "$when" = append ]; then # the first round: interrupted after its first row, checked below
    bash "$0" "$bin" "$check" "$roofline" "$bench" "$sig" row "$@" --keep "$tmp/out.csv" || exit 1
    cp "$tmp/out.csv" "$tmp/first.csv"
    before=$(($(wc -l <"$tmp/out.csv") - 1))
    need=$((before + 2)) mode=(--append)
fi
keep=
if [ $# -ge 2 ] && [ "${*: -2:1}" = --keep ]; then # the file outlives this run, for append
    keep=${*: -1}
    set -- "${@:1:$(($# - 2))}"
fi
phase=
[ "$when" = only ] && phase=timed
[ "$when" = setup ] && phase=setup
LBMR_TEST_PHASES="$tmp/phases" "$bin" "$@" "${mode[@]}" -o "$tmp/out.csv" 2>"$tmp/err" &
pid=$!
reached() { # the row count (row, append) or the phase's mark (only, setup) is there
    if [ -n "$phase" ]; then grep -qx "$phase" "$tmp/phases" 2>/dev/null; return; fi
    [ "$({ wc -l <"$tmp/out.csv"; } 2>/dev/null || echo -1)" -ge "$need" ]
}
for _ in $(seq 600); do # at most 60 s for the first row or the phase
    reached && break
    kill -0 "$pid" 2>/dev/null || break # it ended (or refused) before that: said below
    sleep 0.02
done
# a machine without the memory the case needs: the executable refuses before any row (exit 2)
if ! kill -0 "$pid" 2>/dev/null && grep -q "are available" "$tmp/err"; then
    cat "$tmp/err"
    echo "skipped: this machine lacks the memory of the case"
    exit 77
fi
kill -0 "$pid" 2>/dev/null || { cat "$tmp/err"; echo "the run ended before the signal"; exit 1; }
[ -z "$phase" ] || reached || { cat "$tmp/err"; echo "no '$phase' mark within 60 s"; exit 1; }
t0=${EPOCHREALTIME/,/.}
kill -"$sig" "$pid"
for _ in $(seq $((exit_s * 20))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
t1=${EPOCHREALTIME/,/.}
if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid"
    cat "$tmp/err"
    echo "still running ${exit_s} s after SIG$sig (killed)"
    exit 1
fi
wait "$pid"
rc=$?
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
cat "$tmp/err"
[ "$rc" -eq 130 ] || { echo "exit status $rc, expected 130"; exit 1; }
grep -q "interrupted" "$tmp/err" || { echo "no note of the interruption on stderr"; exit 1; }
if [ "$when" = setup ] && grep -qx timed "$tmp/phases"; then
    echo "the timed repetitions began before the signal took effect: set-up not tested"
    exit 1
fi
if [ "$when" = only ] || [ "$when" = setup ]; then
    [ -e "$tmp/out.csv" ] && { echo "a file without rows left behind: $(wc -l <"$tmp/out.csv") line(s)"; exit 1; }
    rows=0
else
    rows=$(($(wc -l <"$tmp/out.csv") - 1))
    [ "$(tail -c 1 "$tmp/out.csv" | od -An -c | tr -d ' ')" = '\n' ] || { echo "the file ends in a partial row"; exit 1; }
    "$check" "$tmp/out.csv" --bench "$bench" || { echo "the rows left are not all complete and verified"; exit 1; }
    "$roofline" --summary "$tmp/out.csv" >"$tmp/summary.csv" || { echo "roofline cannot read the file"; exit 1; }
fi
if [ "$when" = append ]; then
    [ "$(grep -c '^schema,' "$tmp/out.csv")" -eq 1 ] || { echo "more than one header after --append"; exit 1; }
    head -n $((before + 1)) "$tmp/out.csv" | cmp -s - "$tmp/first.csv" || { echo "the first round's rows changed"; exit 1; }
    [ "$rows" -gt "$before" ] || { echo "the second round added no row to the first's $before"; exit 1; }
    echo "interrupt: the first round's $before row(s) kept, $((rows - before)) added under the one header"
fi
[ -n "$keep" ] && cp "$tmp/out.csv" "$keep"
echo "interrupt: SIG$sig ($when) after $rows complete row(s), exit 130 after $secs s"
