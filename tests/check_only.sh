#!/usr/bin/env bash
# check_only.sh BIN ARGS...: BIN ARGS --check makes and checks its cases and runs none: exit 0,
# nothing on stdout, no -o file, and stderr's last line says how many cases it accepted. The
# same with a bad argument added: exit 2, its one line (the main job checks SUITE_*_ARGS so). The
# output's refusals too, as a run gives them, with the file made, emptied and written in no way:
# --append to stdout, a missing folder, an existing file, --append onto another header; the lock
# tested, not taken (seen through strace where it can trace). And an
# unknown option inside a cluster, or an abbreviation of several, named as what it is.
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
refused "not to stdout" "$@" --append
refused "unknown option '-x' (in '-xyz'" "$@" -xyz
refused "'--o' is ambiguous: it may be " "$@" --o x
refused "not to stdout" "$@" --overwrite
refused "No such file or directory" "$@" -o "$tmp/no/such/folder/out.csv"
[ -e "$tmp/no" ] && fail "a missing folder was made"
printf 'schema,version,when\n1,x,y\n' >"$tmp/other.csv"
sum=$(cksum <"$tmp/other.csv")
refused "exists and is not empty" "$@" -o "$tmp/other.csv"
refused "header differs" "$@" -o "$tmp/other.csv" --append
"$bin" "$@" --check -o "$tmp/other.csv" --overwrite >"$tmp/stdout" 2>"$tmp/stderr" ||
    fail "--overwrite --check: exit $?: $(cat "$tmp/stderr")"
[ "$(cksum <"$tmp/other.csv")" = "$sum" ] || fail "--check changed an existing -o file"
# the lock tested, never taken: a check holding it even for microseconds refuses a run that
# starts then. strace shows the calls (the run's own lock would be F_OFD_SETLK, or flock before)
# (LeakSanitizer cannot run under ptrace: a sanitizer build's leak check is off for this run)
if strace -f -o /dev/null true 2>/dev/null; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        strace -f -qq -e trace=flock,fcntl -o "$tmp/trace" \
        "$bin" "$@" --check -o "$tmp/other.csv" --overwrite >"$tmp/stdout" 2>"$tmp/stderr" ||
        fail "--overwrite --check under strace: exit $?: $(cat "$tmp/stderr")"
    took=$(grep -E 'flock\([0-9]+, LOCK_(EX|SH)|F_(OFD_)?SETLKW?\b' "$tmp/trace")
    [ -n "$took" ] && fail "--check took the -o file's lock: $took"
    grep -Eq 'F_(OFD_)?GETLK\b' "$tmp/trace" || fail "--check did not test the -o file's lock"
else
    echo "skipped: --check's lock calls (strace cannot trace here)"
fi
: >"$tmp/empty.csv"
"$bin" "$@" --check -o "$tmp/empty.csv" --append >"$tmp/stdout" 2>"$tmp/stderr" ||
    fail "--append --check onto an empty file: exit $?: $(cat "$tmp/stderr")"
[ -s "$tmp/empty.csv" ] && fail "--check wrote into an empty -o file"
echo "check_only: accepted and refused as a run would be, nothing run"
