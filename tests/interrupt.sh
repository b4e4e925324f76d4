#!/usr/bin/env bash
# interrupt.sh BIN CSV_CHECK ROOFLINE BENCH SIGNAL ARGS...: starts a long sweep writing to a
# file, sends the signal once the first row is there, and expects exit status 130, a note on
# stderr, a file whose every row is complete and verified, and that roofline reads it.
set -u
bin=$1 check=$2 roofline=$3 bench=$4 sig=$5
shift 5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" "$@" -o "$tmp/out.csv" 2>"$tmp/err" &
pid=$!
for _ in $(seq 600); do # at most 60 s for the first row
    [ "$(wc -l <"$tmp/out.csv" 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.1
done
kill -"$sig" "$pid"
wait "$pid"
rc=$?
rows=$(($(wc -l <"$tmp/out.csv") - 1))
cat "$tmp/err"
[ "$rc" -eq 130 ] || { echo "exit status $rc, expected 130"; exit 1; }
grep -q "interrupted" "$tmp/err" || { echo "no note of the interruption on stderr"; exit 1; }
"$check" "$tmp/out.csv" --bench "$bench" || { echo "the rows left are not all complete and verified"; exit 1; }
"$roofline" --summary "$tmp/out.csv" >"$tmp/summary.csv" || { echo "roofline cannot read the file"; exit 1; }
echo "interrupt: SIG$sig after $rows complete row(s)"
