#!/usr/bin/env bash
# energy_check.sh BIN FIXTURES -- ARGS...: the energy columns end to end on a cpu executable.
# 1. no powercap (LBMR_POWERCAP_ROOT names no folder): exit 0, one stderr line saying why (in a
#    build with likwid, LBMR_TEST_LIKWID=ON, why likwid's power module read nothing either), every
#    energy column empty; or, where likwid reads RAPL, rows whose energy_source names likwid.
# 2. a powercap tree whose counters stand still (a fixture): exit 0, one stderr line saying they
#    did not advance, energy empty but the zones and the limit named, and
#    the timed repetitions raised so the window lasts ENERGY_MIN_WINDOW_S; powercap is preferred
#    to likwid where both could be read.
set -u
bin=$1 fixtures=$2
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "energy_check: $*" >&2; exit 1; }
column() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2" | sort -u | tr '\n' ' ' | sed 's/ $//'; }
energy_cols="energy_J power_W mflups_per_W GBs_per_W sm_clock_MHz mem_clock_MHz clock_events power_limit_W idle_power_W energy_polled_J energy_source"

LBMR_POWERCAP_ROOT=$tmp/none "$bin" "$@" -o "$tmp/none.csv" 2>"$tmp/none.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/none.err" >&2; fail "no powercap: exit $rc"; }
# together, in their order (the columns appended since follow them)
head -1 "$tmp/none.csv" | grep -Eq ",$(echo $energy_cols | tr ' ' ',')(,|\$)" ||
    fail "the header does not hold the energy columns in their order"
# likwid's own messages (its errors start "ERROR - [file:function:line]") never reach stderr
! grep -q "^ERROR - \[" "$tmp/none.err" || { cat "$tmp/none.err" >&2; fail "no powercap: likwid printed"; }
if [ "${LBMR_TEST_LIKWID:-OFF}" = ON ] && ! grep -q "likwid power: " "$tmp/none.err"; then
    # built with likwid on a host where it reads RAPL: the rows carry its energy and say so
    case "$(column energy_source "$tmp/none.csv")" in
    "likwid "*) echo "ok: no powercap, likwid's power module measured" ;;
    *) cat "$tmp/none.err" >&2; fail "no powercap: neither likwid's energy nor a reason" ;;
    esac
else
    n=$(grep -c "energy" "$tmp/none.err")
    [ "$n" -eq 1 ] || { cat "$tmp/none.err" >&2; fail "no powercap: $n stderr lines on energy, not 1"; }
    grep -q "energy not measured: no powercap" "$tmp/none.err" || fail "no powercap: no reason given"
    # built with likwid, the same line says why its power module measured nothing either
    if [ "${LBMR_TEST_LIKWID:-OFF}" = ON ]; then
        grep -q "energy not measured: no powercap (.*); likwid power: [^;]" "$tmp/none.err" ||
            { cat "$tmp/none.err" >&2; fail "no powercap: the line gives no reason for likwid"; }
    fi
    for c in $energy_cols; do
        v=$(column "$c" "$tmp/none.csv")
        # clock_events also carries the quiet wait's cpu_unsteady, which a noisy host sets
        [ "$c" = clock_events ] && v=$(echo "$v" | tr ' ' '\n' | grep -v '^cpu_unsteady$' | tr -d '\n')
        [ -z "$v" ] || fail "no powercap: column $c not empty ($v)"
    done
    echo "ok: no powercap${LBMR_TEST_LIKWID:+ (likwid $LBMR_TEST_LIKWID)}"
fi

LBMR_POWERCAP_ROOT=$fixtures/intel-2pkg/t0 "$bin" "$@" -o "$tmp/still.csv" 2>"$tmp/still.err"
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/still.err" >&2; fail "still counters: exit $rc"; }
n=$(grep -c "energy" "$tmp/still.err")
[ "$n" -eq 1 ] || { cat "$tmp/still.err" >&2; fail "still counters: $n stderr lines on energy"; }
grep -q "did not advance" "$tmp/still.err" || fail "still counters: no reason given"
for c in energy_J power_W mflups_per_W GBs_per_W energy_polled_J idle_power_W; do
    [ -z "$(column "$c" "$tmp/still.csv")" ] || fail "still counters: column $c not empty"
done
[ "$(column energy_source "$tmp/still.csv")" = "powercap package-0+dram+package-1+dram" ] ||
    fail "still counters: energy_source '$(column energy_source "$tmp/still.csv")'"
[ "$(column power_limit_W "$tmp/still.csv")" = "700" ] || fail "still counters: power_limit_W"
# every row's timed set was stretched to the window (1 s): more repetitions than asked, and the
# set's time bounded above by reps x steps x t_max_s reaches it (the median cannot tell: on a
# loaded machine a few slow repetitions can fill most of the window)
want_reps=$(printf '%s\n' "$@" | awk 'p { print; exit } $0 == "--reps" { p = 1 }')
awk -F, -v want="$want_reps" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { w = $c["reps"] * $c["steps"] * $c["t_max_s"]
      if ($c["reps"] <= want || w < 0.8) { print "reps " $c["reps"] ", window " w " s"; bad = 1 } }
    END { exit bad }' "$tmp/still.csv" || fail "still counters: a timed set not stretched"
echo "ok: counters that stand still"

# 3. LBMR_ENERGY=off: the meter is not opened, one line says so
LBMR_ENERGY=off LBMR_POWERCAP_ROOT=$fixtures/intel-2pkg/t0 "$bin" "$@" -o "$tmp/off.csv" 2>"$tmp/off.err"
rc=$?
[ "$rc" -eq 0 ] || fail "LBMR_ENERGY=off: exit $rc"
[ "$(grep -c "energy not measured: LBMR_ENERGY=off" "$tmp/off.err")" -eq 1 ] || fail "LBMR_ENERGY=off: no line"
[ -z "$(column energy_source "$tmp/off.csv")" ] || fail "LBMR_ENERGY=off: energy_source set"
echo "ok: LBMR_ENERGY=off"
