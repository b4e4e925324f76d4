#!/usr/bin/env bash
# columns_check.sh BIN RC [cpus=N] [stderr=TEXT] COLUMN=VALUES... -- ARGS...: runs BIN ARGS -o FILE,
# expects exit status RC, and for each COLUMN=VALUES that the column holds exactly those values,
# row by row ("threads=1 2 1 2"); stderr=TEXT: stderr must contain TEXT. cpus=N: skipped (77)
# where this process may use fewer than N CPUs (nproc).
set -u
bin=$1 want_rc=$2
shift 2
specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    specs+=("$1")
    shift
done
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "columns_check: $*" >&2; exit 1; }

for s in "${specs[@]}"; do
    case $s in
    cpus=*) [ "$(nproc)" -ge "${s#cpus=}" ] || { echo "needs ${s#cpus=} CPUs"; exit 77; } ;;
    esac
done
"$bin" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq "$want_rc" ] || { cat "$tmp/stderr" >&2; fail "exit status $rc, expected $want_rc"; }
[ -s "$tmp/stdout" ] && fail "stdout not empty with -o"
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv"; }
for s in "${specs[@]}"; do
    case $s in
    cpus=*) ;;
    stderr=*)
        grep -qF -- "${s#stderr=}" "$tmp/stderr" || { cat "$tmp/stderr" >&2; fail "stderr lacks '${s#stderr=}'"; } ;;
    *=*)
        name=${s%%=*}
        got=$(column "$name" | tr '\n' ' ' | sed 's/ $//')
        [ "$got" = "${s#*=}" ] || fail "column $name: '$got', expected '${s#*=}'"
        echo "ok: $name = $got" ;;
    *) fail "bad spec '$s'" ;;
    esac
done
echo "columns_check: $(($(wc -l <"$tmp/out.csv") - 1)) rows ok"
