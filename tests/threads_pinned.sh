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

# refused PREFIX... -- ARGS...: BIN ARGS run under the command prefix (env settings, taskset)
# exits 2 with one line on stderr, no output file and nothing on stdout; the line in $tmp/err
refused() {
    local prefix=()
    while [ "$1" != -- ]; do
        prefix+=("$1")
        shift
    done
    shift
    rm -f "$tmp/out.csv"
    "${prefix[@]}" "$bin" "${args[@]}" "$@" -o "$tmp/out.csv" >"$tmp/stdout" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/out.csv" ] &&
        [ ! -s "$tmp/stdout" ] ||
        { cat "$tmp/err" >&2; fail "'${prefix[*]} $*': rc=$rc, expected 2 and one line"; }
    echo "ok: ${prefix[*]} $* refused: $(cat "$tmp/err")"
}

# one thread more than the process's CPUs, pinned: refused before any row
refused env OMP_PROC_BIND=close -- --threads $((n + 1))
grep -q "threads $((n + 1)): .* $n CPU" "$tmp/err" || { cat "$tmp/err" >&2; fail "message"; }

# a process confined to one CPU (taskset), no pinning runtime: two threads refused
if command -v taskset >/dev/null; then
    refused taskset -c "$a" -- --threads 2
    grep -q " 1 CPU" "$tmp/err" || { cat "$tmp/err" >&2; fail "taskset -c $a --threads 2"; }
fi

# the OpenMP environment: OMP_NUM_THREADS above the CPUs refused as --threads is; OMP_THREAD_LIMIT
# bounds --threads (OMP_DYNAMIC, turned off by the backend, is not tested: libgomp shrinks teams
# only under load)
refused env OMP_NUM_THREADS=$((n + 1)) --
refused env OMP_THREAD_LIMIT=1 -- --threads 2
