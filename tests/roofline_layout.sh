#!/usr/bin/env bash
# roofline_layout.sh ROOFLINE FIXTURES LBM_CPU STREAM_CPU: the layout column in the gate and the
# summary. A run of --layout soa,rows holds two rows per case: the gate compares each layout with
# the same layout of the baseline, and with the one unlabelled case of a baseline written before
# the column; --table and --summary say which layout gave the figure they report. First on
# hand-made rows whose answers are known, then on real lbm-cpu and stream-cpu rows.
set -u
rl=$1 fx=$2 lbm=$3 stream=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# the gate's verdicts of a file, one "layout:status" per case, in its order
verdicts() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s:%s ", $c["layout"], $c["status"] }' "$1"; }
# a report as written before the layout column: the columns from layout on dropped (the in-place
# ceiling's came after it)
unlabel() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "layout") k = i; if (!k) exit 1 }
             { line = $1; for (i = 2; i < k; i++) line = line "," $i; print line }' "$1" >"$2" ||
        { echo "roofline_layout: no layout column in $1" >&2; exit 1; }
}
base="$fx/layout-base.csv" cur="$fx/layout-cur.csv" legacy="$fx/layout-legacy-base.csv"

# 1. soa and rows in both runs; only soa dropped (79% -> 59%): soa regressed, rows not
"$rl" --baseline "$base" --tolerance 3 "$cur" >"$tmp/g.csv" 2>"$tmp/g.err"; rc=$?
v=$(verdicts "$tmp/g.csv")
[ $rc -eq 1 ] && [ "$v" = "soa:regressed rows:ok " ] && grep -q "2 case(s) compared, 1 regressed" "$tmp/g.err" &&
    ok "each layout against its own: $v" || bad "layouts gated: rc $rc, '$v', $(cat "$tmp/g.csv" "$tmp/g.err")"
head -1 "$tmp/g.csv" | grep -q ',energy_status,geometry,layout,threads,procs,overlap,halo$' && ok "the gate's variant columns come last" || bad "gate header: $(head -1 "$tmp/g.csv")"
# the same from the baseline's roofline.csv, which carries the layout
"$rl" "$base" -o "$tmp/base-report.csv" 2>/dev/null || bad "report of the baseline"
"$rl" --baseline "$tmp/base-report.csv" --tolerance 3 "$cur" >"$tmp/gr.csv" 2>/dev/null; rc=$?
v=$(verdicts "$tmp/gr.csv")
[ $rc -eq 1 ] && [ "$v" = "soa:regressed rows:ok " ] && ok "roofline.csv baseline, by layout: $v" || bad "roofline.csv baseline: rc $rc, '$v'"
# only the rows layout now: the soa case is missing, not hidden behind rows
grep -v ',soa$' "$cur" >"$tmp/cur-rows.csv"
"$rl" --baseline "$base" --tolerance 3 "$tmp/cur-rows.csv" >"$tmp/gm.csv" 2>/dev/null; rc=$?
v=$(verdicts "$tmp/gm.csv")
[ $rc -eq 0 ] && [ "$v" = "rows:ok soa:missing " ] && ok "a layout not run again: missing ($v)" || bad "missing layout: rc $rc, '$v'"
"$rl" --baseline "$base" --tolerance 3 "$tmp/cur-rows.csv" 2>&1 >/dev/null | grep -q "; 1 missing (in the baseline only), 0 new" &&
    ok "the gate's line counts the missing case" || bad "gate line: $("$rl" --baseline "$base" "$tmp/cur-rows.csv" 2>&1 >/dev/null)"

# 2. a baseline written before the column (one layout, unlabelled): both layouts match it
"$rl" --baseline "$legacy" --tolerance 3 "$cur" >"$tmp/gl.csv" 2>"$tmp/gl.err"; rc=$?
v=$(verdicts "$tmp/gl.csv")
[ $rc -eq 1 ] && [ "$v" = "soa:regressed rows:ok " ] && grep -q "2 case(s) compared" "$tmp/gl.err" &&
    ok "legacy raw baseline: both layouts compared with it ($v)" || bad "legacy baseline: rc $rc, '$v', $(cat "$tmp/gl.err")"
# its roofline.csv as an older report wrote it, without the layout column
"$rl" "$legacy" -o "$tmp/legacy-full.csv" 2>/dev/null || bad "report of the legacy baseline"
unlabel "$tmp/legacy-full.csv" "$tmp/legacy-report.csv"
"$rl" --baseline "$tmp/legacy-report.csv" --tolerance 3 "$cur" >"$tmp/glr.csv" 2>/dev/null; rc=$?
v=$(verdicts "$tmp/glr.csv")
[ $rc -eq 1 ] && [ "$v" = "soa:regressed rows:ok " ] && ! head -1 "$tmp/legacy-report.csv" | grep -q layout &&
    ok "legacy roofline.csv baseline: both layouts compared with it ($v)" || bad "legacy roofline.csv: rc $rc, '$v'"
# a current run written before the column against a labelled baseline of one layout
grep -v ',soa$' "$base" >"$tmp/base-rows.csv"
unlabel "$tmp/cur-rows.csv" "$tmp/cur-old.csv"
"$rl" --baseline "$tmp/base-rows.csv" --tolerance 3 "$tmp/cur-old.csv" >"$tmp/go.csv" 2>/dev/null; rc=$?
v=$(verdicts "$tmp/go.csv")
[ $rc -eq 0 ] && [ "$v" = ":ok " ] && ok "unlabelled current run against the baseline's only layout: ok" || bad "unlabelled current: rc $rc, '$v'"

# 3. the summary and the table say which layout gave the figure; each layout its own case
"$rl" --table "$cur" >"$tmp/t.txt" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -Eq '^ +pull rows +sp +85\.0 +85\.0 +copy +- +1 +85\.0' "$tmp/t.txt" &&
    ok "--table: pull rows, its case alone (1 round, lowest 85)" || bad "--table with layouts (rc $rc): $(cat "$tmp/t.txt")"
"$rl" --table "$tmp/cur-rows.csv" >"$tmp/t1.txt" 2>/dev/null
grep -Eq '^ +pull +sp +85\.0' "$tmp/t1.txt" && ok "--table: one layout, no label" || bad "--table one layout: $(cat "$tmp/t1.txt")"
"$rl" --summary "$cur" >"$tmp/s.csv" 2>/dev/null || bad "summary exit $?"
v=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["kernel_sp"] "/" $c["layout_sp"] "/" $c["mflups_sp"] "/" $c["rounds_sp"] }' "$tmp/s.csv")
[ "$v" = pull/rows/85/1 ] && ok "--summary: kernel_sp/layout_sp/mflups_sp/rounds_sp = $v" || bad "--summary layout: '$v'"

# 4. real rows: lbm-cpu in both layouts, stream-cpu's copy for the ceiling
"$lbm" --size 8 --kernel pull --layout soa,rows --precision sp --steps 2 --reps 1 --warmup 0 \
    -o "$tmp/lbm.csv" 2>"$tmp/lbm.err" || { cat "$tmp/lbm.err" >&2; bad "lbm-cpu exit $?"; }
"$stream" --size 64K --kernel copy --precision sp --reps 2 --warmup 0 -o "$tmp/stream.csv" 2>"$tmp/stream.err" ||
    { cat "$tmp/stream.err" >&2; bad "stream-cpu exit $?"; }
"$rl" --table "$tmp/stream.csv" "$tmp/lbm.csv" >"$tmp/rt.txt" 2>/dev/null
grep -Eq '^ +pull (soa|rows) +sp ' "$tmp/rt.txt" && ok "real rows: --table names the layout" || bad "real --table: $(cat "$tmp/rt.txt")"
cat "$tmp/stream.csv" "$tmp/lbm.csv" >"$tmp/rbase.csv"
"$rl" --baseline "$tmp/rbase.csv" "$tmp/stream.csv" "$tmp/lbm.csv" >"$tmp/rg.csv" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && [ "$(verdicts "$tmp/rg.csv")" = "soa:ok rows:ok " ] &&
    ok "real rows against themselves: soa ok, rows ok" || bad "real gate: rc $rc, $(cat "$tmp/rg.csv")"
unlabel "$tmp/rbase.csv" "$tmp/rbase-old.csv"
"$rl" --baseline "$tmp/rbase-old.csv" "$tmp/stream.csv" "$tmp/lbm.csv" >"$tmp/rl.csv" 2>"$tmp/rl.err"; rc=$?
[ $rc -le 1 ] && [ "$(wc -l <"$tmp/rl.csv")" -eq 3 ] && ! grep -q ',new,\|,missing,' "$tmp/rl.csv" &&
    grep -q "2 case(s) compared" "$tmp/rl.err" && ok "real rows against their unlabelled selves: both compared" ||
    bad "real legacy gate: rc $rc, $(cat "$tmp/rl.csv" "$tmp/rl.err")"

# 5. the rest of a case's variant: a thread count (or a rank grid, overlap, halo path) is a case of
# its own, so a slower one is not hidden behind the key's fastest. The run's soa row as a 1-thread
# row and a 2-thread row at half its rate; the current run's 2-thread row at a quarter of that
# (the key's best median unchanged: the gate before passed it)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["layout"] == "soa" {
        $c["t_min_s"] = $c["t_max_s"] = $c["t_med_s"]; $c["threads"] = 1; print
        $c["threads"] = 2; $c["mflups"] /= 2; $c["mflups_med"] /= 2; print }' \
    "$tmp/lbm.csv" >"$tmp/th.csv"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["threads"] == 2 { $c["mflups"] /= 4; $c["mflups_med"] /= 4 } 1' "$tmp/th.csv" >"$tmp/th-slow.csv"
# (a tolerance of 0.001 points: the real rows' percentages are small and machine-dependent)
"$rl" --baseline <(cat "$tmp/stream.csv" "$tmp/th.csv") --tolerance 0.001 "$tmp/stream.csv" "$tmp/th-slow.csv" >"$tmp/tg.csv" 2>/dev/null; rc=$?
v=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s:%s ", $c["threads"], $c["status"] }' "$tmp/tg.csv")
[ $rc -eq 1 ] && [ "$v" = "1:ok 2:regressed " ] && ok "each thread count its own case: $v" ||
    bad "thread counts in the gate: rc $rc, '$v', $(cat "$tmp/tg.csv")"

# a roofline.csv names no rank grid: its one case per key is the best grid's. Against it the
# current run's best grid is compared and the slower grid is new, not a false regression
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["layout"] == "soa" {
        $c["procs"] = "1x1x2"; print; $c["procs"] = "2x1x1"; $c["mflups"] /= 2; $c["mflups_med"] /= 2; print }' \
    "$tmp/lbm.csv" >"$tmp/grids.csv"
"$rl" "$tmp/stream.csv" "$tmp/grids.csv" -o "$tmp/grids-report.csv" 2>/dev/null || bad "grids report"
"$rl" --baseline "$tmp/grids-report.csv" --tolerance 0.001 "$tmp/stream.csv" "$tmp/grids.csv" >"$tmp/gg.csv" 2>/dev/null; rc=$?
v=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s:%s ", $c["procs"], $c["status"] }' "$tmp/gg.csv")
[ $rc -eq 0 ] && [ "$v" = "1x1x2:ok 2x1x1:new " ] && ok "grids against a roofline.csv: the best compared, the other new ($v)" ||
    bad "grids against a roofline.csv: rc $rc, '$v'"
# one thread count on each side (another machine's default team): compared, and said
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["layout"] == "soa" { $c["threads"] = 16; $c["mflups"] /= 2; $c["mflups_med"] /= 2; print }' "$tmp/th.csv" >"$tmp/th16.csv"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["threads"] == 1 { $c["threads"] = 8; print }' \
    "$tmp/th.csv" >"$tmp/th8.csv"
"$rl" --baseline <(cat "$tmp/stream.csv" "$tmp/th8.csv") --tolerance 0.001 "$tmp/stream.csv" "$tmp/th16.csv" >"$tmp/tx.csv" 2>"$tmp/tx.err"; rc=$?
[ $rc -eq 1 ] && grep -q ",regressed," "$tmp/tx.csv" && grep -q "compared across variants: threads 8 -> 16" "$tmp/tx.err" &&
    ok "threads 8 against 16, once each: compared across variants, regressed" || bad "threads 8 -> 16: rc $rc, $(cat "$tmp/tx.err")"

echo "roofline_layout: $fails failure(s)"
[ $fails -eq 0 ]
