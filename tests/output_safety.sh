#!/usr/bin/env bash
# output_safety.sh BIN CSV_CHECK BENCH ARGS... -- LONG_ARGS...: hostile destinations for -o.
# ARGS: a quick run of several rows (more than fit in 4 KiB); LONG_ARGS: a run that lasts until
# it is interrupted. Expected: exit 3 and one stderr line naming the file when it cannot be
# written (/dev/full, a file size limit, a full tmpfs where one can be mounted), the file cut back
# to its last complete row; exit 2 and the file untouched for an existing file without
# --overwrite/--append, for --append onto another header, and while another run holds the file;
# a run interrupted before its first row leaves an old file as it was (--overwrite) and no file
# it made; --append takes a file of CRLF lines; any path works; -o - is stdout; --help and
# --version go to stdout with exit 0.
set -u
bin=$1 check=$2 bench=$3
shift 3
args=() long=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift
long=("$@")
tmp=$(mktemp -d)
mnt=""
cleanup() {
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; sed 's/^/    stderr: /' "$tmp/err" 2>/dev/null; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# errlines: the stderr lines of the last run, less the one note a host without an energy meter
# gets once per run (the energy columns stay empty there; not an error)
errlines() { grep -vc ': energy not measured: ' "$tmp/err"; }

# run EXPECTED_RC DESCRIPTION ARGS...: exit status and exactly one stderr line when it is not 0
run() {
    local want=$1 what=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines
    lines=$(errlines)
    if [ "$rc" -ne "$want" ]; then
        fail "$what: exit status $rc, expected $want"
        return 1
    fi
    if [ "$want" -ne 0 ] && [ "$lines" -ne 1 ]; then
        fail "$what: $lines stderr lines, expected one"
        return 1
    fi
    return 0
}

# complete FILE: ends with a newline, every row complete and verified, at least one row
complete() {
    local f=$1
    [ -s "$f" ] && [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] &&
        [ "$(wc -l <"$f")" -ge 2 ] && "$check" "$f" --bench "$bench" >/dev/null 2>&1
}

# 1. /dev/full: nothing can be written
if run 3 "-o /dev/full" "${args[@]}" -o /dev/full; then
    grep -q "/dev/full" "$tmp/err" && ok "-o /dev/full: exit 3: $(cat "$tmp/err")" ||
        fail "-o /dev/full: the message does not name the file"
fi

# 2. a fresh file, then the same file again: refused, untouched
f="$tmp/a.csv"
run 0 "a fresh -o file" "${args[@]}" -o "$f" && complete "$f" || fail "a fresh -o file is not complete"
rows=$(($(wc -l <"$f") - 1))
sum=$(cksum <"$f")
if run 2 "an existing file" "${args[@]}" -o "$f"; then
    [ "$(cksum <"$f")" = "$sum" ] && ok "existing file refused and untouched: $(cat "$tmp/err")" ||
        fail "an existing file was changed although refused"
fi

# 3. --append adds rows under the one header; --overwrite starts afresh
if run 0 "--append" "${args[@]}" -o "$f" --append; then
    n=$(($(wc -l <"$f") - 1))
    heads=$(grep -c '^schema,' "$f")
    [ "$n" -eq $((2 * rows)) ] && [ "$heads" -eq 1 ] && complete "$f" &&
        ok "--append: $rows + $rows rows under one header" ||
        fail "--append: $n rows and $heads headers, expected $((2 * rows)) and 1"
fi
if run 0 "--overwrite" "${args[@]}" -o "$f" --overwrite; then
    [ $(($(wc -l <"$f") - 1)) -eq "$rows" ] && complete "$f" && ok "--overwrite: $rows rows" ||
        fail "--overwrite did not start the file afresh"
fi
if run 2 "--overwrite with --append" "${args[@]}" -o "$f" --overwrite --append; then
    grep -q "exclude" "$tmp/err" && ok "--overwrite --append refused: $(cat "$tmp/err")" ||
        fail "--overwrite --append refused for another reason"
fi

# 4. --append onto another header, or onto a file that ends in a partial row: refused, untouched
g="$tmp/other.csv"
printf 'schema,version,when\n1,x,y\n' >"$g"
sum=$(cksum <"$g")
if run 2 "--append onto another header" "${args[@]}" -o "$g" --append; then
    [ "$(cksum <"$g")" = "$sum" ] && grep -q "header" "$tmp/err" && ok "--append onto another header refused: $(cat "$tmp/err")" ||
        fail "--append changed a file of another header"
fi
# a file of an older version (this header less its last column), and a header line not ended:
# each said as what it is, not as a column that differs from itself
head -1 "$f" | sed 's/,[^,]*$//' >"$tmp/older.csv"
if run 2 "--append onto an older header" "${args[@]}" -o "$tmp/older.csv" --append; then
    grep -q "header ends after column" "$tmp/err" && ok "--append onto an older header: $(cat "$tmp/err")" ||
        fail "--append onto an older header: $(cat "$tmp/err")"
fi
head -1 "$f" | tr -d '\n' >"$tmp/unended.csv"
if run 2 "--append onto an unended header" "${args[@]}" -o "$tmp/unended.csv" --append; then
    grep -q "does not end" "$tmp/err" && ok "--append onto an unended header: $(cat "$tmp/err")" ||
        fail "--append onto an unended header: $(cat "$tmp/err")"
fi
cp "$f" "$tmp/partial.csv"
printf '1,0.1.0,2026' >>"$tmp/partial.csv"
sum=$(cksum <"$tmp/partial.csv")
if run 2 "--append onto a partial row" "${args[@]}" -o "$tmp/partial.csv" --append; then
    [ "$(cksum <"$tmp/partial.csv")" = "$sum" ] && grep -q "complete row" "$tmp/err" &&
        ok "--append onto a partial row refused: $(cat "$tmp/err")" ||
        fail "--append changed a file that ends in a partial row"
fi

# 4b. --append onto a file of CRLF lines with the same header: taken, its new rows CRLF too
tr -d '\r' <"$f" | sed 's/$/\r/' >"$tmp/crlf.csv"
if run 0 "--append onto CRLF lines" "${args[@]}" -o "$tmp/crlf.csv" --append; then
    lines=$(wc -l <"$tmp/crlf.csv")
    [ "$lines" -eq $((2 * rows + 1)) ] && [ "$(grep -c $'\r$' "$tmp/crlf.csv")" -eq "$lines" ] &&
        [ "$(grep -c '^schema,' "$tmp/crlf.csv")" -eq 1 ] &&
        ok "--append onto CRLF lines: $rows rows added, CRLF like the rest" ||
        fail "--append onto CRLF lines: $lines lines, $(grep -c $'\r$' "$tmp/crlf.csv") of them CRLF"
fi

printf 'schema,when\r\n1,x\r\n' >"$tmp/crlf-other.csv"
if run 2 "--append onto another header of CRLF lines" "${args[@]}" -o "$tmp/crlf-other.csv" --append; then
    grep -q "('when' in the file" "$tmp/err" && ok "--append onto another CRLF header: $(cat "$tmp/err")" ||
        fail "--append onto another CRLF header: the column not named as in the file"
fi

# locked FILE PID: waits until the run PID holds FILE's lock, at most 60 s; 1 (said) if it never
# does or ends first. The file's existence is not the state: a run makes the file, then locks
# it, then claims it. --check -o FILE --overwrite is refused for the lock alone (the folder
# exists; any file is taken) and tests the lock without taking it, so asking disturbs no run.
locked() {
    local file=$1 pid=$2 end=$((SECONDS + 60))
    while [ "$SECONDS" -lt "$end" ]; do
        kill -0 "$pid" 2>/dev/null || { fail "the long run ended before it held $(basename "$file")'s lock"; return 1; }
        "$bin" "${args[@]}" --check -o "$file" --overwrite >/dev/null 2>"$tmp/lock_err" ||
            { grep -q "another run is writing" "$tmp/lock_err" && return 0; }
        sleep 0.1
    done
    fail "the long run held no lock on $(basename "$file") within 60 s: $(cat "$tmp/lock_err")"
    return 1
}

# stop SIG PID: sends the signal, and returns the run's exit status (130 expected) once it ended;
# KILL after 30 s (a signal before the run's handler is lost: a background job ignores SIGINT)
stop() {
    kill -"$1" "$2" 2>/dev/null
    for _ in $(seq 300); do # it stops within an update; at most 30 s before it is killed
        kill -0 "$2" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$2" 2>/dev/null && { fail "the long run ignored SIG$1"; kill -KILL "$2"; }
    wait "$2"
}

# 5. a second writer while a run holds the file: refused, the first run's file intact
h="$tmp/locked.csv"
"$bin" "${long[@]}" -o "$h" 2>"$tmp/long_err" >/dev/null &
pid=$!
if locked "$h" "$pid"; then
    ok "--check sees the lock the long run holds: $(cat "$tmp/lock_err")"
    for mode in --append --overwrite; do
        if run 2 "a second writer ($mode)" "${args[@]}" -o "$h" $mode; then
            grep -q "another run" "$tmp/err" && ok "second writer $mode refused: $(cat "$tmp/err")" ||
                fail "second writer $mode: refused for another reason"
        fi
    done
fi
stop TERM "$pid"
rc=$?
[ "$rc" -eq 130 ] || { cp "$tmp/long_err" "$tmp/err"; fail "the long run: exit status $rc, expected 130"; }
# the long run made the file and wrote no row: it removes it, and the refused writers left none
[ ! -e "$h" ] && ok "the first run's file, made and given no row, removed; nothing else left" ||
    fail "the first run's file is still there ($(wc -c <"$h") bytes) though it has no row"

# 5a. interrupted before the first row: --overwrite leaves the old file as it was, a fresh file
# is removed (no header-only file for the next plain -o to refuse). The signal goes once the run
# holds the lock, when its handler is in place and it has claimed the file (--overwrite: to be
# emptied at the first row), and the run must say it stopped with no row: a signal before the
# handler ends it at once (exit 130 too, where SIGINT is not ignored) or is lost (where it is),
# before any claim, and the old file then stays as it was whatever the claim does.
interrupt_early() { # interrupt_early FILE ARGS...: the long run, SIGINT once it holds FILE's lock
    local file=$1
    shift
    "$bin" "${long[@]}" -o "$file" "$@" 2>"$tmp/err" >/dev/null &
    pid=$!
    locked "$file" "$pid" || { stop TERM "$pid"; return 255; }
    stop INT "$pid"
}
# early_stop WHAT RC: 0 when the run stopped by its handler in the sweep, before any row
early_stop() {
    [ "$2" -eq 255 ] && return 1 # said by locked
    [ "$2" -eq 130 ] && grep -q "interrupted: 0 of [0-9]* cases measured" "$tmp/err" && return 0
    fail "$1: exit $2, expected 130 and 'interrupted: 0 of N cases measured' on stderr"
    return 1
}
cp "$f" "$tmp/keep.csv"
sum=$(cksum <"$tmp/keep.csv")
interrupt_early "$tmp/keep.csv" --overwrite
rc=$?
if early_stop "--overwrite interrupted before its first row" "$rc"; then
    [ "$(cksum <"$tmp/keep.csv")" = "$sum" ] &&
        ok "--overwrite interrupted before its first row: exit 130, the old file as it was" ||
        fail "--overwrite interrupted before its first row: $(wc -l <"$tmp/keep.csv") lines left of $((rows + 1))"
fi
interrupt_early "$tmp/fresh.csv"
rc=$?
if early_stop "a fresh file interrupted before its first row" "$rc"; then
    [ ! -e "$tmp/fresh.csv" ] &&
        ok "a fresh file interrupted before its first row: exit 130, no file left" ||
        fail "a fresh file interrupted before its first row: $(wc -c <"$tmp/fresh.csv" 2>&1) bytes left"
fi
run 0 "-o the interrupted run's file" "${args[@]}" -o "$tmp/fresh.csv" && complete "$tmp/fresh.csv" &&
    ok "the next plain -o takes the same path" || fail "the next plain -o refused the interrupted run's path"

# 5b. a reader that goes away (`| head -c 10`): exit 3 and one line, not a silent SIGPIPE
"$bin" "${args[@]}" 2>"$tmp/err" | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 3 ]; then
    fail "a closed pipe: exit status $rc, expected 3"
elif [ "$(errlines)" -ne 1 ] || ! grep -q 'Broken pipe' "$tmp/err"; then
    fail "a closed pipe: not one line naming it"
else
    ok "a closed pipe: exit 3: $(grep -v ': energy not measured: ' "$tmp/err")"
fi

# 6. a path with spaces, quotes and a dollar sign
p="$tmp/dir with space/\"quoted\" 'single' \$HOME;*.csv"
mkdir -p "$tmp/dir with space"
run 0 "an odd path" "${args[@]}" -o "$p" && complete "$p" && ok "odd path: $(basename "$p")" ||
    fail "a path with spaces, quotes and \$ does not work"

# 7. -o - is stdout, with nothing else on it
if run 0 "-o -" "${args[@]}" -o -; then
    [ "$(head -c 7 "$tmp/out")" = "schema," ] && complete "$tmp/out" &&
        [ ! -e ./- ] && ok "-o - writes CSV to stdout" || fail "-o - does not write CSV to stdout"
fi

# 7b. stderr closed: the -o file must not take descriptor 2, or every message lands in the CSV
f="$tmp/closed-stderr.csv"
"$bin" "${args[@]}" -o "$f" 2>&-
complete "$f" && ok "stderr closed: the CSV holds rows only" ||
    fail "stderr closed: the CSV holds more than rows: $(grep -v '^schema' "$f" | grep -v '^[0-9]' | head -1)"

# 8. --help and --version: stdout, exit 0, nothing on stderr; --help | head shows the usage
for opt in --help --version; do
    if run 0 "$opt" "$opt"; then
        [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok "$opt on stdout, exit 0" ||
            fail "$opt: stdout $(wc -c <"$tmp/out") bytes, stderr $(wc -c <"$tmp/err") bytes"
    fi
done
first=$("$bin" --help 2>/dev/null | head -1)
case "$first" in usage:*) ok "--help | head -1: $first" ;; *) fail "--help | head -1 gave '$first'" ;; esac
for opt in --overwrite --append; do
    "$bin" --help 2>/dev/null | grep -q -- "$opt" || fail "--help does not list $opt"
done

# cut_back WHAT FILE RC: after a failed write, exit 3, one line naming the file, and the file
# holds its header and complete rows only; returns 1 on a failure
cut_back() {
    local what=$1 file=$2 rc=$3
    [ "$rc" -eq 3 ] || { fail "$what: exit status $rc, expected 3"; return 1; }
    [ "$(errlines)" -eq 1 ] || { fail "$what: $(errlines) stderr lines, expected one"; return 1; }
    grep -q "$(basename "$file")" "$tmp/err" || { fail "$what: the message does not name the file"; return 1; }
    complete "$file" && ok "$what: exit 3, cut back to $(($(wc -l <"$file") - 1)) complete rows ($(wc -c <"$file") bytes): $(cat "$tmp/err")" ||
        { fail "$what: the file does not end in a complete row"; return 1; }
}

# 9. a file size limit (ulimit -f, in KiB): the write fails with EFBIG part-way through a row
q="$tmp/limited.csv"
(
    ulimit -f 4
    "$bin" "${args[@]}" -o "$q" >"$tmp/out" 2>"$tmp/err"
)
cut_back "ulimit -f 4" "$q" $? && { [ "$(wc -c <"$q")" -le 4096 ] || fail "ulimit -f 4: the file is larger than the limit"; }

# 10. a full file system: a tmpfs of 8 KiB, where this user may mount one
mnt="$tmp/tmpfs"
mkdir -p "$mnt"
if mount -t tmpfs -o size=8k tmpfs "$mnt" 2>/dev/null; then
    t="$mnt/full.csv"
    "$bin" "${args[@]}" -o "$t" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ]; then # it fitted: append until it does not
        "$bin" "${args[@]}" -o "$t" --append >"$tmp/out" 2>"$tmp/err"
        rc=$?
    fi
    cut_back "full tmpfs" "$t" "$rc"
else
    mnt=""
    echo "skipped: a full tmpfs (mount refused here; the file size limit above covers EFBIG)"
fi

[ "$failures" -eq 0 ] && echo "output_safety: all cases passed" || echo "output_safety: $failures failed"
[ "$failures" -eq 0 ]
