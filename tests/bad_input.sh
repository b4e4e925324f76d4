#!/usr/bin/env bash
# bad_input.sh BIN -- ARGS... [-- ARGS...]: each argument set must give exit status 2, exactly one
# line on stderr, nothing on stdout, and no output file.
set -u
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 cases=0
run_case() {
    cases=$((cases + 1))
    "$bin" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    lines=$(wc -l <"$tmp/stderr")
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/stdout" ] || [ -e "$tmp/out.csv" ]; then
        echo "bad_input: '$*': rc=$rc, $lines stderr lines, stdout $(wc -c <"$tmp/stdout") bytes, file $([ -e "$tmp/out.csv" ] && echo written || echo absent)" >&2
        sed 's/^/    /' "$tmp/stderr" >&2
        failures=$((failures + 1))
    else
        echo "ok: $* -> $(cat "$tmp/stderr")"
    fi
    rm -f "$tmp/out.csv"
}
args=()
for a in "$@"; do
    if [ "$a" = "--" ]; then
        [ ${#args[@]} -gt 0 ] && run_case "${args[@]}"
        args=()
    else
        args+=("$a")
    fi
done
[ ${#args[@]} -gt 0 ] && run_case "${args[@]}"
echo "bad_input: $cases cases, $failures failed"
[ "$failures" -eq 0 ]
