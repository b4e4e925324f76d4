#!/usr/bin/env bash
# run_check.sh BIN CSV_CHECK BENCH BACKEND ARGS...: a run to a file (-o) and the same run to
# stdout; both must exit 0, stdout must carry CSV only, and every row must check out.
set -u
bin=$1 check=$2 bench=$3 backend=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "run_check: $*" >&2; exit 1; }

"$bin" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/stderr" >&2; fail "exit status $rc with -o"; }
[ -s "$tmp/stdout" ] && fail "stdout not empty with -o"
"$check" "$tmp/out.csv" --bench "$bench" --backend "$backend" || fail "rows of the -o file"

"$bin" "$@" >"$tmp/stdout.csv" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/stderr" >&2; fail "exit status $rc with stdout"; }
head -1 "$tmp/stdout.csv" | grep -q '^schema,version,timestamp,' || fail "stdout does not start with the header"
"$check" "$tmp/stdout.csv" --bench "$bench" --backend "$backend" || fail "rows on stdout"
echo "run_check: $(($(wc -l <"$tmp/out.csv") - 1)) + $(($(wc -l <"$tmp/stdout.csv") - 1)) rows ok"
