#!/usr/bin/env bash
# check_only.sh BIN ARGS...: BIN ARGS --check makes and checks its cases and runs none: exit 0,
# nothing on stdout, no -o file, and stderr's last line says how many cases it accepted. The
# same with a bad argument added: exit 2, its one line (the main job checks SUITE_*_ARGS so).
set -u
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_only: $*" >&2; exit 1; }
"$bin" "$@" --check -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
cat "$tmp/stderr"
[ "$rc" -eq 0 ] || fail "exit $rc"
[ -s "$tmp/stdout" ] && fail "stdout not empty"
[ -e "$tmp/out.csv" ] && fail "the -o file was made"
tail -n 1 "$tmp/stderr" | grep -Eq -- "--check: [1-9][0-9]* case\(s\), every one accepted; none run" ||
    fail "stderr's last line does not count the cases"
"$bin" "$@" --reps 0 --check >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] || fail "--reps 0 --check: exit $rc, $(cat "$tmp/stderr")"
echo "check_only: accepted and refused as a run would be, nothing run"
