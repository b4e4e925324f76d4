#!/usr/bin/env bash
# check_only.sh BIN ARGS...: BIN ARGS --check makes and checks its cases and runs none: exit 0,
# nothing on stdout, no -o file, and stderr's last line says how many cases it accepted. The
# same with a bad argument added: exit 2, its one line (the main job checks SUITE_*_ARGS so):
# an unknown option inside a cluster, or an abbreviation of several, named as what it is.
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
# refused REASON ARGS...: --check exits 2 with one line holding REASON, stdout empty
refused() {
    local want=$1
    shift
    "$bin" "$@" --check >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q -- "$want" "$tmp/stderr" &&
        [ ! -s "$tmp/stdout" ] || fail "$*: exit $rc, expected 2 and '$want': $(cat "$tmp/stderr")"
}
refused "unknown option '-x' (in '-xyz'" "$@" -xyz
refused "'--o' is ambiguous: it may be " "$@" --o x
echo "check_only: accepted and refused as a run would be, nothing run"
