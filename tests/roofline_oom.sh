#!/usr/bin/env bash
# roofline_oom.sh ROOFLINE MALLOC_FAIL_SO FIXTURES: roofline --summary with each of its malloc
# and realloc calls failing in turn (malloc_fail.c, LD_PRELOAD). Whatever fails, the summary must
# not say something false: never "share no domain size" for a machine whose sp and dp share one
# (an out of memory in common_size once read as "none in common"), never "empty file" (a first
# line the reader could not hold), an exit 0 only with the whole summary (a line it could not
# hold once read as the end of the file, the rows after it dropped), and an exit 2 with no
# partial CSV.
# Exit 77 (skipped) where the module does not take (a static or sanitized build).
set -u
rl=$1 so=$2 fx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# nodeA: sp at 256^3 and 32^3, dp at 256^3 and 512^3 (lbm-current.csv): 256^3 in common
args=(--summary "$fx/stream.csv" "$fx/lbm.csv" "$fx/lbm-current.csv")
"$rl" "${args[@]}" >"$tmp/ref.csv" 2>"$tmp/ref.err" || { echo "roofline_oom: the summary itself fails" >&2; exit 1; }
if grep -q "share no domain size" "$tmp/ref.err"; then
    echo "roofline_oom: the fixture's sp and dp share no size: it tests nothing" >&2
    exit 1
fi
MALLOC_COUNT_FILE=$tmp/count LD_PRELOAD=$so "$rl" "${args[@]}" >/dev/null 2>&1
n=$(cat "$tmp/count" 2>/dev/null || echo 0)
if [ "$n" -eq 0 ]; then
    echo "roofline_oom: $so counted no malloc call (static or sanitized build?): skipped" >&2
    exit 77
fi
fails=0 oom=0
for ((i = 1; i <= n; i++)); do
    FAIL_N=$i LD_PRELOAD=$so "$rl" "${args[@]}" >"$tmp/o" 2>"$tmp/e"; rc=$?
    [ $rc -eq 2 ] && oom=$((oom + 1))
    if grep -q "share no domain size" "$tmp/e"; then
        echo "FAIL: malloc call $i failing: rc $rc, a false note: $(grep 'share no domain' "$tmp/e")" >&2
        fails=$((fails + 1))
    fi
    if grep -q "empty file" "$tmp/e"; then
        echo "FAIL: malloc call $i failing: rc $rc, a false note: $(grep 'empty file' "$tmp/e")" >&2
        fails=$((fails + 1))
    fi
    if [ $rc -eq 0 ] && ! cmp -s "$tmp/o" "$tmp/ref.csv"; then
        echo "FAIL: malloc call $i failing: exit 0 with a summary other than the whole one" >&2
        fails=$((fails + 1))
    fi
    if [ $rc -eq 2 ] && [ -s "$tmp/o" ]; then
        echo "FAIL: malloc call $i failing: exit 2 with $(wc -l <"$tmp/o") line(s) of CSV" >&2
        fails=$((fails + 1))
    fi
done
echo "roofline_oom: $n malloc calls failed in turn, $oom refused (exit 2), $fails failure(s)"
[ $fails -eq 0 ]
