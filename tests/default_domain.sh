#!/usr/bin/env bash
# default_domain.sh LBM_CPU: with no --size/--dims/--local, lbm-cpu runs the smallest cube, edge a
# multiple of 16, whose one lattice (19 values per cell, sp and dp in turn) is at least 4x the
# last-level cache (STREAM's rule, as stream-cpu sizes its arrays), and says why on stderr. Where
# the memory would not hold it, it must refuse (exit 2) and name --size.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "default_domain: $*" >&2; cat "$tmp/stderr" >&2; exit 1; }
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$tmp/out.csv"; }

for prec in sp dp; do
    es=$([ $prec = sp ] && echo 4 || echo 8)
    rm -f "$tmp/out.csv" # the run before's: -o refuses a file that is not empty
    "$bin" --kernel aa --precision $prec --collision bgk --steps 2 --warmup 0 --reps 1 \
        -o "$tmp/out.csv" 2>"$tmp/stderr"
    rc=$?
    if [ "$rc" -eq 2 ]; then
        grep -q "default domain .*--size" "$tmp/stderr" || fail "refused without naming --size"
        echo "default_domain: $prec refused here: $(tail -1 "$tmp/stderr")"
        continue
    fi
    [ "$rc" -eq 0 ] || fail "exit status $rc"
    grep -q "default domain .*last-level cache" "$tmp/stderr" || fail "the default's reason is not on stderr"
    edge=$(sed -n 's/.*default domain \([0-9]*\)^3.*/\1/p' "$tmp/stderr")
    [ -n "$edge" ] || fail "no 'default domain N^3' line on stderr"
    [ "$(column nx)" = "$edge" ] && [ "$(column nz)" = "$edge" ] || fail "the row's domain is not $edge^3"
    [ $((edge % 16)) -eq 0 ] || fail "edge $edge is not a multiple of 16"
    llc=$(column llc_bytes)
    if [ "$(column facts_source)" = sysfs ] && [ "${llc:-0}" -gt 0 ]; then
        # the sysfs cache the rule used; likwid's topology may count it differently (0: sysfs
        # named no cache, as on some VMs, and the rule fell back to the size on stderr)
        lattice() { echo $(($1 * $1 * $1 * 19 * es)); }
        [ "$(lattice "$edge")" -ge $((4 * llc)) ] || fail "$edge^3 $prec is below 4 x $llc bytes"
        [ "$edge" -eq 16 ] || [ "$(lattice $((edge - 16)))" -lt $((4 * llc)) ] ||
            fail "$((edge - 16))^3 $prec would already hold 4 x $llc bytes"
    fi
    echo "default_domain: $prec $edge^3 for a last-level cache of $llc bytes: $(grep 'default domain' "$tmp/stderr")"
done
