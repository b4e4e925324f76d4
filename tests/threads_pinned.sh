#!/usr/bin/env bash
# threads_pinned.sh BIN -- ARGS...: --threads under the pinning users set up, and the thread
# counts the OpenMP environment asks for (last section). libgomp pins the
# initial thread to the first place before main (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY),
# likwid-pin pins it to the first CPU of its list, so that thread's affinity mask names one CPU;
# --threads up to the CPUs of the process must still run, one row a count, and one more than
# those must be refused (exit 2, one line, no file). Skipped (77) with fewer than 2 CPUs.
set -u
bin=$1
shift
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "threads_pinned: $*" >&2; exit 1; }
n=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) # GNU nproc honours both
[ "$n" -ge 2 ] || { echo "needs 2 CPUs"; exit 77; }
# the CPUs this shell may use, from its affinity list ("0-3,8" -> 0 1 2 3 8)
cpus=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status | tr ',' '\n' |
    awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }' | head -n 2 | tr '\n' ' ')
read -r a b <<<"$cpus"

# runs BIN under `env SETTINGS`, --threads 1,2: exit 0 and rows for 1 and 2 threads
pinned() {
    env "$@" "$bin" "${args[@]}" --threads 1,2 -o "$tmp/out.csv" --overwrite 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] || { cat "$tmp/err" >&2; fail "'$*': exit status $rc"; }
    got=$(awk -v want=threads -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv" | tr '\n' ' ')
    [ "$got" = "1 2 " ] || fail "'$*': threads column '$got', expected '1 2'"
    echo "ok: $* --threads 1,2"
}
args=("$@")
pinned OMP_PROC_BIND=close OMP_PLACES=cores
pinned OMP_PROC_BIND=spread
pinned OMP_PLACES=threads
pinned GOMP_CPU_AFFINITY="$a $b"
# likwid-pin's set-up without likwid: the process on its first CPU, LIKWID_PIN naming both
if command -v taskset >/dev/null; then
    pinned taskset -c "$a" env LIKWID_PIN="$b,$a"
fi

# one thread more than the process's CPUs, pinned: refused before any row
rm -f "$tmp/out.csv"
env OMP_PROC_BIND=close "$bin" "${args[@]}" --threads $((n + 1)) -o "$tmp/out.csv" \
    >"$tmp/stdout" 2>"$tmp/err"
rc=$?
lines=$(wc -l <"$tmp/err")
[ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -e "$tmp/out.csv" ] && [ ! -s "$tmp/stdout" ] ||
    { cat "$tmp/err" >&2; fail "--threads $((n + 1)): rc=$rc, $lines stderr lines"; }
grep -q "threads $((n + 1)): .* $n CPU" "$tmp/err" || { cat "$tmp/err" >&2; fail "message"; }
echo "ok: --threads $((n + 1)) refused: $(cat "$tmp/err")"

# a process confined to one CPU (taskset), no pinning runtime: two threads refused
if command -v taskset >/dev/null; then
    rm -f "$tmp/out.csv"
    taskset -c "$a" "$bin" "${args[@]}" --threads 2 -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ ! -e "$tmp/out.csv" ] && grep -q " 1 CPU" "$tmp/err" ||
        { cat "$tmp/err" >&2; fail "taskset -c $a --threads 2: rc=$rc"; }
    echo "ok: taskset -c $a --threads 2 refused"
fi

# the OpenMP environment: OMP_NUM_THREADS above the CPUs refused as --threads is; OMP_THREAD_LIMIT
# bounds --threads (OMP_DYNAMIC, turned off by the backend, is not tested: libgomp shrinks teams
# only under load)
refused() { # ENV=VALUE [more arguments]
    local setting=$1
    shift
    rm -f "$tmp/out.csv"
    env "$setting" "$bin" "${args[@]}" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/out.csv" ] ||
        { cat "$tmp/err" >&2; fail "'$setting $*': rc=$rc, expected 2 and one line"; }
    echo "ok: $setting $* refused: $(cat "$tmp/err")"
}
refused OMP_NUM_THREADS=$((n + 1))
refused OMP_THREAD_LIMIT=1 --threads 2
