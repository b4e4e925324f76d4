#!/usr/bin/env bash
# stream_run.sh BIN CSV_CHECK BACKEND [extra options]: a small run to a file and one to stdout;
# both must exit 0, the stdout run must print CSV only, and every row must check out.
set -u
bin=$1 check=$2 backend=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "stream_run: $*" >&2; exit 1; }

"$bin" --size 1M,3M --precision sp,dp --reps 3 --warmup 1 "$@" -o "$tmp/out.csv" \
    >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/stderr" >&2; fail "exit status $rc with -o"; }
[ -s "$tmp/stdout" ] && fail "stdout not empty with -o"
"$check" "$tmp/out.csv" --bench stream --backend "$backend" || fail "rows of -o file"

"$bin" --size 1M --reps 3 --warmup 1 "$@" >"$tmp/stdout.csv" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/stderr" >&2; fail "exit status $rc with stdout"; }
head -1 "$tmp/stdout.csv" | grep -q '^schema,version,timestamp,' || fail "stdout does not start with the header"
"$check" "$tmp/stdout.csv" --bench stream --backend "$backend" || fail "rows on stdout"
echo "stream_run: $(($(wc -l <"$tmp/out.csv") - 1)) + $(($(wc -l <"$tmp/stdout.csv") - 1)) rows ok"
