#!/usr/bin/env bash
# roofline_check.sh ROOFLINE FIXTURES: the roofline tool on hand-made fixture rows whose answers
# are known: percent of ceiling, flags, the summary, every gate status (the energy gate too),
# energy per update and per W, plots with and without
# gnuplot, and malformed input (exit 2, file and line named, no CSV).
set -u
rl=$1 fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# field of the report row matching a pattern, by column name
col() { awk -F, -v want="$2" -v pat="$3" 'NR==1{for(i=1;i<=NF;i++) if($i==want) c=i; next} $0 ~ pat {print $c; exit}' "$1"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a-b < 0.05 && b-a < 0.05)}'; }

# 1. the report
"$rl" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/r.csv" 2>"$tmp/r.err"; rc=$?
[ $rc -eq 0 ] && ok "report exit 0" || bad "report exit $rc"
v=$(col "$tmp/r.csv" pct_of_ceiling 'cpu,pull,bgk,cavity,sp,256'); near "$v" 76.0 && ok "cpu pull sp 76.0% ($v)" || bad "cpu pull sp pct $v, want 76.0"
v=$(col "$tmp/r.csv" pct_of_ceiling_med 'cpu,pull,bgk,cavity,sp,256'); near "$v" 72.2 && ok "median 72.2% ($v)" || bad "median $v, want 72.2"
v=$(col "$tmp/r.csv" pct_of_copy19 'cpu,pull,bgk,cavity,sp,256'); near "$v" 80.0 && ok "copy19 80.0% ($v)" || bad "copy19 $v, want 80.0"
v=$(col "$tmp/r.csv" ceiling_kernel 'cpu,pull_nt'); [ "$v" = copy_nt ] && ok "pull_nt matched to copy_nt" || bad "pull_nt ceiling kernel $v"
v=$(col "$tmp/r.csv" pct_of_ceiling 'cpu,pull_nt'); near "$v" 76.0 && ok "pull_nt 76.0%" || bad "pull_nt pct $v"
v=$(col "$tmp/r.csv" pct_of_ceiling 'cpu,pull,bgk,cavity,dp'); near "$v" 76.0 && ok "dp 76.0% (456 B)" || bad "dp pct $v"
v=$(col "$tmp/r.csv" flags ',sp,32,'); [ "$v" = "above_ceiling cache_resident" ] && ok "32^3 flagged: $v" || bad "32^3 flags '$v'"
v=$(col "$tmp/r.csv" pct_of_ceiling 'gpu,pull,bgk,cavity,sp'); near "$v" 81.07 && ok "gpu sp 81.07%" || bad "gpu sp pct $v"
v=$(col "$tmp/r.csv" pct_of_peak 'gpu,pull,bgk,cavity,sp'); near "$v" 72.55 && ok "gpu pct of peak 72.55%" || bad "gpu peak pct $v"
v=$(col "$tmp/r.csv" flags 'gpu,pull,bgk,cavity,dp'); [ "$v" = no_ceiling ] && ok "gpu dp no_ceiling" || bad "gpu dp flags '$v'"
grep -q "no stream copy rows for host gpuhost.*precision dp" "$tmp/r.err" && ok "stderr names what is missing" || bad "no_ceiling not explained on stderr"

# a 2-rank GPU row: twice the updates on twice the devices is the same percent, not 162%
"$rl" "$fx/stream.csv" "$fx/lbm-ranks.csv" >"$tmp/rk.csv" 2>/dev/null || bad "ranks report exit $?"
v=$(col "$tmp/rk.csv" pct_of_ceiling 'gpu,pull,bgk,cavity,sp'); near "$v" 81.07 && ok "2-rank gpu sp 81.07% of 2 devices" || bad "2-rank gpu pct $v"
v=$(col "$tmp/rk.csv" pct_of_peak 'gpu,pull,bgk,cavity,sp'); near "$v" 72.55 && ok "2-rank pct of 2 peaks 72.55%" || bad "2-rank peak pct $v"

# 1b. the in-place ceiling: aa (one lattice, in place) against stream's update of the same store
# kind beside its copy_nt. copy_nt 20 GB/s, update 22 (sp only): aa at 105% of copy_nt and 95.5%
# of update is not above its ceilings; at 114% / 103.6% it is; pull_nt (two lattices) and aa dp
# (no update row) have no in-place ceiling and keep the copy's flag
"$rl" "$fx/stream-inplace.csv" "$fx/lbm-inplace.csv" >"$tmp/ip.csv" 2>/dev/null || bad "in-place report exit $?"
v=$(col "$tmp/ip.csv" pct_of_in_place 'cpu,aa,bgk,cavity,sp'); near "$v" 95.45 && ok "aa sp 95.45% of update" || bad "aa sp pct_of_in_place $v, want 95.45"
v=$(col "$tmp/ip.csv" in_place_kernel 'cpu,aa,bgk,cavity,sp'); [ "$v" = update ] && ok "aa's in-place ceiling is update" || bad "aa in_place_kernel '$v'"
v=$(col "$tmp/ip.csv" flags 'cpu,aa,bgk,cavity,sp'); [ -z "$v" ] && ok "aa at 105% of copy_nt, under update: no flag" || bad "aa sp flags '$v'"
v=$(col "$tmp/ip.csv" flags 'cpu,aa,trt,cavity,sp'); [ "$v" = above_ceiling ] && ok "aa above update too: above_ceiling" || bad "aa trt flags '$v'"
v=$(col "$tmp/ip.csv" pct_of_in_place 'cpu,aa,trt,cavity,sp'); near "$v" 103.64 && ok "aa trt 103.64% of update" || bad "aa trt pct_of_in_place $v"
for p in 'cpu,pull_nt,bgk,cavity,sp' 'cpu,aa,bgk,cavity,dp'; do
    v=$(col "$tmp/ip.csv" flags "$p"),$(col "$tmp/ip.csv" in_place_kernel "$p")
    [ "$v" = "above_ceiling," ] && ok "$p: no in-place ceiling, copy's flag" || bad "$p: '$v'"
done
# cache_resident counts the lattices a kernel has: with a 700 MB cache aa sp 256^3's one lattice
# (1.27 GB) fits in twice it, pull_nt's two (2.55 GB) do not
awk -F, -v OFS=, 'NR > 1 { $31 = 700000000 } 1' "$fx/lbm-inplace.csv" >"$tmp/ipc.csv"
"$rl" "$fx/stream-inplace.csv" "$tmp/ipc.csv" >"$tmp/ipc-r.csv" 2>/dev/null || bad "cache report exit $?"
v=$(col "$tmp/ipc-r.csv" flags 'cpu,aa,bgk,cavity,sp'),$(col "$tmp/ipc-r.csv" flags 'cpu,pull_nt,bgk,cavity,sp')
[ "$v" = "cache_resident,above_ceiling" ] && ok "aa's one lattice in twice the cache: cache_resident, pull_nt's two not" ||
    bad "cache_resident by lattices: aa,pull_nt flags '$v'"
"$rl" --table "$fx/stream-inplace.csv" "$fx/lbm-inplace.csv" >"$tmp/ipt.txt" 2>/dev/null || bad "in-place table exit $?"
grep -q "aa  *sp .* 105.0 .*copy_nt.*  95.5% of update$" "$tmp/ipt.txt" && ok "--table: aa's percent of update" || bad "--table lacks aa's percent of update: $(grep 'aa  *sp' "$tmp/ipt.txt")"
head -1 "$tmp/ip.csv" | grep -q ',layout,in_place_kernel,in_place_ceiling_mflups,pct_of_in_place,threads$' &&
    ok "in-place columns after layout, in order, then threads" || bad "report header: $(head -1 "$tmp/ip.csv")"
# the rows' threads (a thread sweep's rows told apart), empty where a file lacks the column
awk -F, -v OFS=, 'NR==1{print $0, "threads"; next} {print $0, 8}' "$fx/lbm.csv" >"$tmp/lbm-threads.csv"
"$rl" "$fx/stream.csv" "$tmp/lbm-threads.csv" >"$tmp/rt.csv" 2>/dev/null
v=$(col "$tmp/rt.csv" threads 'cpu,pull,bgk,cavity,sp,256'),$(col "$tmp/r.csv" threads 'cpu,pull,bgk,cavity,sp,256')
[ "$v" = "8," ] && ok "the report carries the row's threads ('$v')" || bad "report threads '$v'"
# a failed update row is no ceiling: aa keeps the copy's flag, and stderr says why, once
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") v = i } $6 == "update" { $v = "fail" } 1' \
    "$fx/stream-inplace.csv" >"$tmp/ipf.csv"
"$rl" "$tmp/ipf.csv" "$fx/lbm-inplace.csv" >"$tmp/ipf-r.csv" 2>"$tmp/ipf.err" || bad "failed-update report exit $?"
v=$(col "$tmp/ipf-r.csv" flags 'cpu,aa,bgk,cavity,sp'),$(col "$tmp/ipf-r.csv" in_place_kernel 'cpu,aa,bgk,cavity,sp')
[ "$v" = "above_ceiling," ] && [ "$(grep -c "update rows .*failed verification (.*ipf.csv:3): aa's in-place ceiling left out" "$tmp/ipf.err")" -eq 1 ] &&
    ok "failed update: no in-place ceiling, said once" || bad "failed update: '$v', $(cat "$tmp/ipf.err")"
"$rl" --summary "$fx/stream-inplace.csv" "$fx/lbm-inplace.csv" >"$tmp/ips.csv" 2>/dev/null || bad "in-place summary exit $?"
v=$(col "$tmp/ips.csv" kernel_sp 'nodeI'),$(col "$tmp/ips.csv" mflups_sp 'nodeI')
[ "$v" = "aa,138.158" ] && ok "summary headline: aa within its in-place ceiling" || bad "summary headline '$v'"

# 1c. a copy whose arrays fit in the cache (1000 elements) sets no ceiling beside a larger one,
# however fast; alone it sets one, flagged ceiling_in_cache, and the summary takes no headline
# from it
awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; print; next}
    $c["kernel"]=="copy" && $c["precision"]=="sp" && $c["backend"]=="cpu" {
        print; $c["nx"]=1000; $c["bw_dram_GBs"]=90; $c["bw_prog_GBs"]=60; print }' \
    "$fx/stream.csv" >"$tmp/s-small.csv"
"$rl" "$tmp/s-small.csv" "$fx/lbm.csv" >"$tmp/r1c.csv" 2>/dev/null
v=$(col "$tmp/r1c.csv" pct_of_ceiling 'cpu,pull,bgk,cavity,sp,256'); f=$(col "$tmp/r1c.csv" flags 'cpu,pull,bgk,cavity,sp,256')
near "$v" 76.0 && [ -z "$f" ] && ok "an in-cache copy beside the default size: ceiling kept (76.0%)" ||
    bad "in-cache copy beside a larger one: pct $v, flags '$f'"
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; print; next} !($c["kernel"]=="copy" && $c["precision"]=="sp" && $c["backend"]=="cpu" && $c["nx"]!=1000)' \
    "$tmp/s-small.csv" >"$tmp/s-only-small.csv"
"$rl" "$tmp/s-only-small.csv" "$fx/lbm.csv" >"$tmp/r1c.csv" 2>/dev/null
v=$(col "$tmp/r1c.csv" pct_of_ceiling 'cpu,pull,bgk,cavity,sp,256'); f=$(col "$tmp/r1c.csv" flags 'cpu,pull,bgk,cavity,sp,256')
near "$v" 25.33 && [ "$f" = ceiling_in_cache ] && ok "only an in-cache copy: 25.33%, flagged $f" ||
    bad "only an in-cache copy: pct $v, flags '$f'"

# 2. the summary
"$rl" --summary "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/s.csv" 2>/dev/null || bad "summary exit $?"
[ "$(wc -l <"$tmp/s.csv")" -eq 3 ] && ok "summary: one row per device" || bad "summary rows $(wc -l <"$tmp/s.csv")"
v=$(col "$tmp/s.csv" mflups_sp 'nodeA'); near "$v" 200 && ok "summary best sp at the largest common size: $v" || bad "summary mflups_sp $v"
v=$(col "$tmp/s.csv" copy_prog_GBs 'nodeA'); near "$v" 40 && ok "summary copy GB/s $v" || bad "summary copy $v"
# sp and dp with no domain size in common (nodeA's dp at 128^3 only): each at its own largest
# size, dp's in lbm_cells_dp, and one line on stderr saying so; dp never dropped unsaid
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR > 1 && $c["host"] == "nodeA" && $c["precision"] == "dp" {
        $c["nx"] = $c["ny"] = $c["nz"] = $c["pitch"] = 128; $c["cells"] = $c["fluid_cells"] = 2097152 } 1' \
    "$fx/lbm.csv" >"$tmp/lbm-dp128.csv"
"$rl" --summary "$fx/stream.csv" "$tmp/lbm-dp128.csv" >"$tmp/s128.csv" 2>"$tmp/s128.err" || bad "summary (dp at 128^3) exit $?"
v=$(col "$tmp/s128.csv" mflups_dp nodeA)/$(col "$tmp/s128.csv" lbm_cells nodeA)/$(col "$tmp/s128.csv" lbm_cells_dp nodeA)/$(col "$tmp/s128.csv" mflups_sp nodeA)
[ "$v" = 50/16777216/2097152/200 ] && [ "$(grep -c "nodeA (Xeon X): sp and dp share no domain size" "$tmp/s128.err")" -eq 1 ] &&
    ! grep -q gpuhost "$tmp/s128.err" && ok "sp and dp at no common size: each at its own, said once ($v)" ||
    bad "sp and dp at no common size: '$v', stderr: $(cat "$tmp/s128.err")"
v=$(col "$tmp/s.csv" lbm_cells_dp nodeA); [ "$v" = 16777216 ] && ok "lbm_cells_dp at the common size" || bad "lbm_cells_dp '$v'"
# an lbm row that failed verification beside verified ones: the table's line counts it, the
# summary says so on stderr (neither takes it)
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") v = i; print; next }
    { print } NR == 2 { $v = "fail"; print }' "$fx/lbm.csv" >"$tmp/lbm-f.csv"
"$rl" --table "$fx/stream.csv" "$tmp/lbm-f.csv" 2>/dev/null | grep -q "1 row(s) failed verification" &&
    ok "--table counts a failed row beside verified ones" || bad "--table hides a failed row"
"$rl" --summary "$fx/stream.csv" "$tmp/lbm-f.csv" 2>&1 >/dev/null | grep -q "1 lbm row(s) failed verification and are left out" &&
    ok "--summary says a failed row is left out" || bad "--summary silent on a failed row"
# one machine's rows from two builds (two lent VMs both named 'vm' read so): a warning line
awk -F, -v OFS=, 'NR > 1 { $33 = "other-build" } 1' "$fx/lbm.csv" >"$tmp/lbm-build.csv"
"$rl" --table "$fx/stream.csv" "$tmp/lbm-build.csv" 2>&1 >/dev/null | grep -q "host nodeA, device Xeon X (cpu): rows of 2 builds" &&
    ok "rows of two builds on one machine: warned" || bad "no warning for two builds on one machine"
# the same rows under another file name are one round, not two
cp "$fx/lbm.csv" "$tmp/lbm-again.csv"
v=$("$rl" --summary "$fx/stream.csv" "$fx/lbm.csv" "$tmp/lbm-again.csv" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s ", $c["rounds_sp"] }')
[ "$v" = "1 1 " ] && ok "rows given again under another name: one round" || bad "rounds of repeated rows '$v'"
# a device's headline is a one-rank row where it has one (the 2-rank 32000 is two GPUs'); the
# table names a multi-rank figure's grid, and each grid is a case of its own (not two rounds)
# (the 2-rank row made strong scaling of the one-rank row's 256^3, so that both are the largest size)
awk -F, -v OFS=, 'NR > 1 { $12 = 256; $16 = $17 = 16777216; $39 = 128 } 1' "$fx/lbm-ranks.csv" >"$tmp/lbm-strong.csv"
v=$("$rl" --summary "$fx/stream.csv" "$fx/lbm.csv" "$tmp/lbm-strong.csv" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["host"] == "gpuhost" { print $c["mflups_sp"] }')
near "$v" 16000 && ok "summary headline from the one-rank row ($v), not the 2-rank job" || bad "summary headline with ranks '$v'"
awk -F, -v OFS=, 'NR > 1 { print; $36 = "2x1x1"; $28 = $28 / 2; $29 = $29 / 2 } 1' "$fx/lbm-ranks.csv" >"$tmp/lbm-grids.csv"
"$rl" --table "$fx/stream.csv" "$tmp/lbm-grids.csv" 2>/dev/null | grep -Eq '^ +pull 1x1x2 +sp +32000\.0 .* 1 +32000\.0' &&
    ok "--table: the grid named, its own case (1 round)" || bad "--table grids: $("$rl" --table "$fx/stream.csv" "$tmp/lbm-grids.csv" 2>&1)"
# version and timestamp are the headline row's, not a copy row's written later
awk -F, -v OFS=, 'NR > 1 { $33 = "copy-build"; $34 = "2026-11-23T00:00:00Z" } 1' "$fx/stream.csv" >"$tmp/s-later.csv"
"$rl" --summary "$tmp/s-later.csv" "$fx/lbm.csv" >"$tmp/sv.csv" 2>/dev/null || bad "summary (later copy) exit $?"
v=$(col "$tmp/sv.csv" version 'nodeA'),$(col "$tmp/sv.csv" timestamp 'nodeA')
[ "$v" = "t,2026-11-22T00:00:00Z" ] && ok "summary version/timestamp of the headline row: $v" || bad "summary provenance '$v'"

# 3. the gate
cat "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm.csv" >"$tmp/base.csv"
"$rl" --baseline "$tmp/base.csv" --tolerance 3 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv" >"$tmp/g.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && ok "gate exit 1 on a regression" || bad "gate exit $rc, want 1"
# the baseline from a pipe (--baseline <(...)), which cannot be rewound: the same verdicts
"$rl" --baseline <(cat "$tmp/base.csv") --tolerance 3 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv" >"$tmp/gp.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && cmp -s "$tmp/g.csv" "$tmp/gp.csv" && ok "--baseline from a pipe: the same gate" || bad "--baseline from a pipe: rc $rc"
# gpu sp: the current median (65.9%) lies 14 points below the baseline's slowest repetition
# (80.1%): regressed, however wide the current run's own repetitions spread
for want in "cpu,lbm,pull,bgk,sp,256.*,regressed," "gpu,lbm,pull,bgk,sp,256.*,regressed," \
    "gpu,lbm,pull,bgk,dp,256.*,ok," "cpu,lbm,pull_nt,bgk,sp,256.*,ok," "cpu,lbm,pull,bgk,dp,512.*,new," \
    "cpu,lbm,pull,bgk,dp,256.*,missing," "cpu,lbm,pull,bgk,sp,32.*,missing,"; do
    grep -q "$want" "$tmp/g.csv" && ok "gate: $want" || bad "gate lacks $want"
done
"$rl" --baseline "$tmp/base.csv" --tolerance 20 "$fx/stream.csv" "$fx/lbm-current.csv" >/dev/null 2>&1
[ $? -eq 0 ] && ok "gate exit 0 within tolerance 20" || bad "gate with tolerance 20 not 0"

# 4. plots: without gnuplot the files are written and the report still succeeds
env PATH=/nonexistent "$rl" --plot "$tmp/plots" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>"$tmp/p.err"; rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/plots/roofline.gp" ] && [ -s "$tmp/plots/roofline.dat" ] && [ -s "$tmp/plots/size.gp" ] &&
    grep -q "gnuplot not found" "$tmp/p.err" && ok "plots without gnuplot: .gp/.dat written, said so" || bad "plots without gnuplot (rc $rc)"
if command -v gnuplot >/dev/null 2>&1; then
    "$rl" --plot "$tmp/svg" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/p.csv" 2>/dev/null || bad "plot run failed"
    for f in roofline size padding; do
        head -c 200 "$tmp/svg/$f.svg" 2>/dev/null | grep -q "<svg" && ok "$f.svg rendered" || bad "$f.svg missing"
    done
    head -1 "$tmp/p.csv" | grep -q '^host,device' && ok "stdout stays CSV while plotting" || bad "stdout polluted"
else
    echo "note: gnuplot not installed here; SVG rendering not exercised"
fi

# 5. bad input: exit 2, one line naming file and line, no CSV
check_bad() {
    local want=$1; shift
    "$rl" "$@" -o "$tmp/out.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q -- "$want" "$tmp/e" && [ ! -s "$tmp/o" ] && [ ! -e "$tmp/out.csv" ]; then
        ok "bad input: $(cat "$tmp/e")"
    else
        bad "bad input '$*': rc=$rc, stderr: $(cat "$tmp/e")"
    fi
    rm -f "$tmp/out.csv"
}
check_bad "bad-number.csv:3: column nx" "$fx/stream.csv" "$fx/bad-number.csv"
check_bad "bad-fields.csv:3: 2 fields where the header has 3" "$fx/bad-fields.csv"
check_bad "no-schema.csv:1: not a result file" "$fx/no-schema.csv"
check_bad "cannot open" "$fx/does-not-exist.csv"
check_bad "no lbm rows" "$fx/stream.csv"
check_bad "no lbm row has stream copy rows" "$fx/lbm.csv"
check_bad "no input files"
check_bad "--tolerance" --tolerance -1 "$fx/lbm.csv"
check_bad "--tolerance PCT is the gate's" --tolerance 3 "$fx/stream.csv" "$fx/lbm.csv"
check_bad "is a folder" "$fx" "$fx/lbm.csv"
check_bad "--baseline $fx is a folder" --baseline "$fx" "$fx/stream.csv" "$fx/lbm.csv"
check_bad "unknown option" --bogus "$fx/lbm.csv"
check_bad "unknown option '-l' (in '-lead.csv'" "$fx/lbm.csv" -lead.csv
check_bad "'--t' is ambiguous: it may be --table or --tolerance" --t "$fx/lbm.csv"
check_bad "choose one" --summary --baseline "$fx/lbm.csv" "$fx/lbm.csv"

# 6. the gate must be able to fail on a noisy host (repetitions spread 35%)
nb="$fx/gate-noisy-base.csv" nc="$fx/gate-noisy-cur.csv"
"$rl" --baseline "$nb" --tolerance 3 "$nc" >"$tmp/gn.csv" 2>"$tmp/gn.err"; rc=$?
[ $rc -eq 1 ] && ok "noisy gate exit 1" || bad "noisy gate exit $rc, want 1"
# pull dp 84% -> 8.4% of ceiling: far below the baseline's slowest repetition
grep -q "Xeon N,cpu,lbm,pull,bgk,dp,256.*,regressed," "$tmp/gn.csv" && ok "10x slower on a noisy host: regressed" || bad "10x drop not regressed: $(grep pull,bgk,dp "$tmp/gn.csv")"
# pull sp 76% -> 68.4%: beyond the tolerance, but within the baseline's own spread (61.9%)
grep -q "Xeon N,cpu,lbm,pull,bgk,sp,256.*,inconclusive," "$tmp/gn.csv" && ok "drop within the spread: inconclusive" || bad "within-spread drop: $(grep pull,bgk,sp "$tmp/gn.csv")"
grep -q "Xeon N,cpu,lbm,pull_nt,bgk,sp,256.*,failed," "$tmp/gn.csv" && ok "verified=fail: failed" || bad "failed verification not 'failed': $(grep pull_nt "$tmp/gn.csv")"
# a failed verification alone fails the gate
grep -v ',pull,bgk,dp,\|,pull,bgk,sp,' "$nc" >"$tmp/only-fail.csv"
"$rl" --baseline "$nb" --tolerance 3 "$tmp/only-fail.csv" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && ok "failed verification alone: exit 1" || bad "failed verification alone: exit $rc"
# an earlier roofline.csv is a baseline too, with the same verdicts
"$rl" "$nb" -o "$tmp/base-report.csv" 2>/dev/null || bad "report of the noisy baseline"
"$rl" --baseline "$tmp/base-report.csv" --tolerance 3 "$nc" >"$tmp/gr.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && cmp -s <(cut -d, -f1-16 "$tmp/gn.csv") <(cut -d, -f1-16 "$tmp/gr.csv") &&
    ok "roofline.csv as the baseline: same verdicts" || bad "roofline.csv baseline: rc $rc, $(diff "$tmp/gn.csv" "$tmp/gr.csv")"
# its numbers follow the raw rows' rule (plain decimal, as written): hex, blanks, a '+' refused
for c_v in "pct_of_ceiling_med|0x54" "nx| 256" "pct_of_ceiling_med|+84" "threads|0x8" "mflups_per_W|Infinity"; do
    c=${c_v%%|*} v=${c_v#*|}
    awk -F, -v OFS=, -v c="$c" -v v="$v" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i} NR==2{$k=v} 1' "$tmp/base-report.csv" >"$tmp/plain-base.csv"
    check_bad "plain-base.csv:2: column $c: value '$v' is not a" --baseline "$tmp/plain-base.csv" --tolerance 3 "$nc"
done
"$rl" --help 2>/dev/null | grep -q "roofline.csv" && "$rl" --help 2>/dev/null | grep -q "raw stream and lbm rows" &&
    [ -z "$("$rl" --help 2>&1 >/dev/null)" ] && ok "--help says what a baseline is, on stdout" || bad "--help does not say what the baseline holds"
"$rl" --help 2>/dev/null | grep -q -- "--baseline - reads it from standard input" &&
    ok "--help says --baseline - reads standard input" || bad "--help does not say --baseline - reads standard input"

# 7. nothing compared, or nothing current, is bad input; a refused gate writes no plot either
# (--plot into a new folder and into one that is there, gnuplot absent or not: nothing made)
gate_bad() {
    local want=$1; shift
    "$rl" "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q -- "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; then
        ok "gate refuses: $(cat "$tmp/e")"
    else
        bad "gate '$*': rc=$rc, stderr: $(cat "$tmp/e"), stdout $(wc -c <"$tmp/o") bytes"
    fi
    mkdir -p "$tmp/gp-there"
    for p in "$PATH" /nonexistent; do
        PATH=$p "$rl" "$@" --plot "$tmp/gp-new" >"$tmp/o" 2>"$tmp/e"; rc=$?
        PATH=$p "$rl" "$@" --plot "$tmp/gp-there" >>"$tmp/o" 2>>"$tmp/e"; rc=$rc$?
        [ "$p" = /nonexistent ] && p="PATH without gnuplot" || p="PATH as given"
        if [ $rc = 22 ] && [ "$(wc -l <"$tmp/e")" -eq 2 ] && [ ! -e "$tmp/gp-new" ] && [ -z "$(ls "$tmp/gp-there")" ] && [ ! -s "$tmp/o" ]; then
            ok "refused gate with --plot ($p): no plot written"
        else
            bad "gate '$*' --plot ($p): rc=$rc, stderr: $(cat "$tmp/e"), plots: $(ls "$tmp/gp-new" "$tmp/gp-there" 2>&1 | tr '\n' ' ')"
        fi
        rm -rf "$tmp/gp-new" "$tmp/gp-there"/*
    done
}
gate_bad "baseline.*lbm.csv has no usable case" --baseline "$fx/lbm.csv" --tolerance 3 "$fx/stream.csv" "$fx/lbm.csv"
gate_bad "hold no lbm rows" --baseline "$tmp/base.csv" "$fx/stream.csv"
gate_bad "has a stream copy ceiling" --baseline "$tmp/base.csv" "$fx/lbm-current.csv"
gate_bad "nothing compared" --baseline "$nb" "$fx/stream.csv" "$fx/lbm.csv"
# a case of another geometry is another case: the same rows relabelled periodic compare with none
awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++) if($i=="geometry") g=i; print; next} {$g="periodic"; print}' \
    "$fx/lbm-current.csv" >"$tmp/lbm-periodic.csv"
gate_bad "nothing compared" --baseline "$tmp/base.csv" "$fx/stream.csv" "$tmp/lbm-periodic.csv"

# 8. exit 3 for an output that cannot be written; --plot refuses a bad folder before any CSV
if [ -w /dev/full ]; then
    "$rl" "$fx/stream.csv" "$fx/lbm.csv" -o /dev/full 2>"$tmp/e"; rc=$?
    [ $rc -eq 3 ] && grep -q "cannot write /dev/full" "$tmp/e" && ok "-o /dev/full: exit 3 ($(tail -1 "$tmp/e"))" || bad "-o /dev/full: exit $rc"
    "$rl" --summary "$fx/stream.csv" "$fx/lbm.csv" >/dev/full 2>/dev/null; rc=$?
    [ $rc -eq 3 ] && ok "stdout on /dev/full: exit 3" || bad "stdout on /dev/full: exit $rc"
fi
# -o never costs a file: one of the inputs is refused (exit 2, the input intact); a report that
# fails leaves the file that was there as it was; one that succeeds replaces it whole, and no
# temporary file stays behind
mkdir "$tmp/o8" && cp "$fx/stream.csv" "$fx/lbm.csv" "$tmp/o8/"
"$rl" "$tmp/o8/stream.csv" "$tmp/o8/lbm.csv" -o "$tmp/o8/lbm.csv" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && cmp -s "$fx/lbm.csv" "$tmp/o8/lbm.csv" && grep -q "an input of this report" "$tmp/e" &&
    ok "-o an input: exit 2, input intact" || bad "-o an input: rc $rc, $(cat "$tmp/e")"
# nor a file of the plots: -o on one of them (or on the folder), whether the folder is there yet
# or not, under any spelling or through a link, is refused before any plot or CSV is written
(cd "$tmp/o8" && PATH=/nonexistent "$rl" stream.csv lbm.csv --plot pl -o pl/roofline.dat) 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -e "$tmp/o8/pl" ] && grep -q "roofline.dat of --plot pl" "$tmp/e" &&
    ok "-o a plot file of a new folder: exit 2, nothing written ($(cat "$tmp/e"))" || bad "-o a plot file: rc $rc, $(cat "$tmp/e")"
PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o8/pl" >/dev/null 2>&1 && cp "$tmp/o8/pl/size.dat" "$tmp/size.dat" &&
    ln -s pl/padding.gp "$tmp/o8/pad-link" || bad "plots for the -o checks"
for o in "$tmp/o8/pl//size.dat" "$tmp/o8/./pl/energy.svg" "$tmp/o8/pad-link" "$tmp/o8/pl/"; do
    PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o8/pl" -o "$o" >"$tmp/o" 2>"$tmp/e"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -s "$tmp/o" ] && cmp -s "$tmp/size.dat" "$tmp/o8/pl/size.dat" &&
        ok "-o $o: exit 2, plots intact ($(cat "$tmp/e"))" || bad "-o $o: rc $rc, $(cat "$tmp/e")"
done
PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o8/pl" -o "$tmp/o8/pl/report.csv" 2>/dev/null &&
    cmp -s "$tmp/o8/pl/report.csv" "$tmp/r.csv" && ok "-o beside the plots, not one of them: written" || bad "-o beside the plots"
rm -rf "$tmp/o8/pl" "$tmp/o8/pad-link"
# a refused run writes nothing: an -o that cannot be opened is refused before any plot is written
# (no plot folder made, none written into one that is there), and so is a report that has nothing
# to say; yet -o in a plot folder this run makes is written, with the plots
mkdir -p "$tmp/o1/ep"
PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o1/np" -o "$tmp/no-such-dir/r.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -e "$tmp/o1/np" ] && [ ! -s "$tmp/o" ] &&
    ok "-o that cannot be opened, --plot a new folder: exit 2, one line, no folder" || bad "-o refused with --plot: rc $rc, $(cat "$tmp/e"), $(ls "$tmp/o1/np" 2>&1)"
PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o1/ep" -o "$tmp/no-such-dir/r.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ -z "$(ls "$tmp/o1/ep")" ] && [ ! -s "$tmp/o" ] &&
    ok "-o that cannot be opened, --plot a folder that is there: exit 2, nothing in it" || bad "-o refused, folder there: rc $rc, $(cat "$tmp/e"), $(ls "$tmp/o1/ep")"
PATH=/nonexistent "$rl" --plot "$tmp/o1/rp" "$fx/lbm.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -e "$tmp/o1/rp" ] && [ ! -s "$tmp/o" ] &&
    ok "a report refused with --plot: exit 2, one line, no plots ($(cat "$tmp/e"))" || bad "refused report with --plot: rc $rc, $(cat "$tmp/e"), $(ls "$tmp/o1/rp" 2>&1)"
PATH=/nonexistent "$rl" "$fx/stream.csv" "$fx/lbm.csv" --plot "$tmp/o1/nf" -o "$tmp/o1/nf/report.csv" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/o1/nf/report.csv" "$tmp/r.csv" && [ -s "$tmp/o1/nf/roofline.gp" ] &&
    ok "-o in the plot folder this run makes: written, plots too" || bad "-o in a new plot folder: rc $rc, $(ls "$tmp/o1/nf" 2>&1)"
rm -rf "$tmp/o1"
echo keep >"$tmp/o8/old.csv"
"$rl" "$tmp/o8/stream.csv" -o "$tmp/o8/old.csv" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/o8/old.csv")" = keep ] && ok "failed report: the old -o file kept" ||
    bad "failed report: rc $rc, old file now '$(head -c 40 "$tmp/o8/old.csv")'"
"$rl" "$tmp/o8/stream.csv" "$tmp/o8/lbm.csv" -o "$tmp/o8/old.csv" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/o8/old.csv" "$tmp/r.csv" && [ "$(ls "$tmp/o8" | wc -l)" -eq 3 ] &&
    ok "report replaces the old -o file whole, no temporary left" || bad "replace: rc $rc, $(ls "$tmp/o8")"
"$rl" "$fx/stream.csv" "$fx/lbm.csv" -o "$tmp/no-such-dir/r.csv" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && ok "-o in a missing folder: exit 2 as the executables" ||
    bad "-o in a missing folder: rc $rc"
(cd "$tmp/o8" && "$rl" stream.csv lbm.csv -o - >"$tmp/o" 2>/dev/null) && cmp -s "$tmp/o" "$tmp/r.csv" &&
    [ ! -e "$tmp/o8/-" ] && ok "-o - is stdout" || bad "-o -: not the report on stdout"
"$rl" "$fx/stream.csv" "$fx/lbm.csv" -o "$tmp/o8/closed.csv" 2>&-
cmp -s "$tmp/o8/closed.csv" "$tmp/r.csv" && ok "stderr closed: the report file holds the report only" ||
    bad "stderr closed: the report file differs from the report"
"$rl" --plot "$fx/lbm.csv/plots" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && ok "--plot into a file: exit 2, no CSV" || bad "--plot bad folder: rc $rc, $(wc -c <"$tmp/o") bytes of CSV"
# plots that cannot be written whole (a file size limit of 1 KiB: EFBIG, SIGXFSZ ignored): exit 3,
# one line, no CSV and no half-written .dat/.gp pair left
(ulimit -f 1; PATH=/nonexistent "$rl" --plot "$tmp/pl" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/o" 2>"$tmp/e"); rc=$?
[ $rc -eq 3 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ -z "$(ls "$tmp/pl")" ] &&
    ok "--plot files that cannot be written: exit 3, nothing half-written ($(cat "$tmp/e"))" ||
    bad "--plot write failure: rc $rc, $(cat "$tmp/e"), left: $(ls "$tmp/pl" | tr '\n' ' ')"

# 9. numbers checked when read: file:line, column, value, exit 2
for v in -5 0 inf 1e+308; do
    awk -F, -v OFS=, -v v="$v" 'NR==2{$27=v} 1' "$fx/stream.csv" >"$tmp/bw$v.csv"
    check_bad "bw$v.csv:2: column bw_dram_GBs: value $v" "$tmp/bw$v.csv" "$fx/lbm.csv"
done
# a number field is a plain decimal number, as the suite writes it: hex, blanks, a '+' and
# strtod's words are refused where the reader refuses any malformed field (file:line, column, text)
for c_v in "bw_dram_GBs|0x1e" "bw_dram_GBs| 30" "nx| 100000000" "bw_prog_GBs|+20" "bw_dram_GBs|Infinity"; do
    c=${c_v%%|*} v=${c_v#*|}
    awk -F, -v OFS=, -v c="$c" -v v="$v" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i} NR==2{$k=v} 1' "$fx/stream.csv" >"$tmp/plain.csv"
    check_bad "plain.csv:2: column $c: '$v' is not a" "$tmp/plain.csv" "$fx/lbm.csv"
done
awk -F, -v OFS=, 'NR==3{$28="nan"} 1' "$fx/lbm.csv" >"$tmp/nan.csv"
check_bad "nan.csv:3: column mflups is empty or not a number" "$fx/stream.csv" "$tmp/nan.csv"
# two generations of files concatenated (a later one with a column appended, its header BOM'd):
# the rows after the second header are read by its columns, as the files apart would be
{ cat "$fx/stream.csv"; printf '\357\273\277'; head -1 "$fx/stream.csv" | sed 's/$/,a_later_column/'
    tail -n +2 "$fx/stream.csv" | sed 's/$/,x/'; } >"$tmp/gen.csv"
"$rl" --table "$tmp/gen.csv" "$fx/lbm.csv" >"$tmp/gen.txt" 2>"$tmp/gen.err" && cmp -s "$tmp/gen.txt" <("$rl" --table "$fx/stream.csv" "$fx/lbm.csv" 2>/dev/null) &&
    ok "two generations concatenated: read by each header's columns" || bad "concatenated generations: $(cat "$tmp/gen.err")"
awk -F, -v OFS=, 'NR==3{$28=""} 1' "$fx/lbm.csv" >"$tmp/empty.csv"
check_bad "empty.csv:3: column mflups is empty or not a number" "$fx/stream.csv" "$tmp/empty.csv"
# a UTF-8 byte order mark before the header (Excel writes one) is accepted
{ printf '\357\273\277'; cat "$fx/stream.csv"; } >"$tmp/bom.csv"
"$rl" "$tmp/bom.csv" "$fx/lbm.csv" >"$tmp/bom.out" 2>/dev/null && cmp -s "$tmp/bom.out" "$tmp/r.csv" &&
    ok "UTF-8 BOM accepted" || bad "UTF-8 BOM: $("$rl" "$tmp/bom.csv" "$fx/lbm.csv" 2>&1 >/dev/null)"
# failed stream rows are named as such
sed 's/,pass,/,fail,/' "$fx/stream.csv" >"$tmp/sfail.csv"
check_bad "failed verification (.*sfail.csv:2)" "$tmp/sfail.csv" "$fx/lbm.csv"
# the same file twice: one warning, rows counted once
"$rl" "$fx/stream.csv" "$fx/lbm.csv" "$fx/lbm.csv" >"$tmp/twice.csv" 2>"$tmp/e"
cmp -s "$tmp/twice.csv" "$tmp/r.csv" && [ "$(grep -c 'given again' "$tmp/e")" -eq 1 ] &&
    ok "a file given twice: warned once, counted once" || bad "file given twice: $(wc -l <"$tmp/twice.csv") lines, stderr: $(cat "$tmp/e")"
# '-' reads standard input, from a file or a pipe, once: the same report as the file named; its
# rows are named (stdin) in messages; a second '-' (--baseline - too) is refused; -o on the file
# stdin reads is refused as on any input
"$rl" "$fx/stream.csv" - <"$fx/lbm.csv" >"$tmp/stdin.csv" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/stdin.csv" "$tmp/r.csv" && cmp -s "$tmp/e" "$tmp/r.err" &&
    ok "- reads standard input" || bad "- from a file: rc $rc, $(cat "$tmp/e")"
cat "$fx/lbm.csv" | "$rl" - "$fx/stream.csv" --summary >"$tmp/stdin-s.csv" 2>/dev/null &&
    cmp -s "$tmp/stdin-s.csv" <("$rl" --summary "$fx/lbm.csv" "$fx/stream.csv" 2>/dev/null) &&
    ok "- reads a pipe" || bad "- from a pipe: $(cat "$tmp/stdin-s.csv")"
check_bad "(stdin):3: column nx" "$fx/stream.csv" - <"$fx/bad-number.csv"
check_bad "'-' (standard input) is given more than once" "$fx/stream.csv" - - <"$fx/lbm.csv"
check_bad "'-' (standard input) is given more than once" --baseline - "$fx/stream.csv" - <"$fx/lbm.csv"
cp "$fx/lbm.csv" "$tmp/lbm-in.csv"
"$rl" "$fx/stream.csv" - -o "$tmp/lbm-in.csv" <"$tmp/lbm-in.csv" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && cmp -s "$tmp/lbm-in.csv" "$fx/lbm.csv" && grep -q "that is (stdin), an input" "$tmp/e" &&
    ok "-o on the file - reads: exit 2, input intact" || bad "-o on stdin's file: rc $rc, $(cat "$tmp/e")"
"$rl" --baseline - --tolerance 3 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv" <"$tmp/base.csv" >"$tmp/gs.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && cmp -s "$tmp/g.csv" "$tmp/gs.csv" && ok "--baseline -: the same gate" || bad "--baseline -: rc $rc"
# standard input read in part already (a file at a nonzero offset, a pipe): '-' and --baseline -
# both read on from where it stands, never from the file's start
{ echo "a line read before the run"; cat "$tmp/base.csv"; } >"$tmp/base-off.csv"
for src in file pipe; do
    if [ $src = file ]; then exec 3<"$tmp/base-off.csv"; else exec 3< <(cat "$tmp/base-off.csv"); fi
    read -r _ <&3
    "$rl" --baseline - --tolerance 3 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv" <&3 >"$tmp/gso.csv" 2>"$tmp/e"; rc=$?
    exec 3<&-
    [ $rc -eq 1 ] && cmp -s "$tmp/g.csv" "$tmp/gso.csv" && ok "--baseline - from a $src read in part: read on from there" ||
        bad "--baseline - from a $src at an offset: rc $rc, $(cat "$tmp/e")"
done
{ echo "a line read before the run"; cat "$fx/lbm.csv"; } >"$tmp/lbm-off.csv"
(read -r _; "$rl" "$fx/stream.csv" -) <"$tmp/lbm-off.csv" >"$tmp/stdin-off.csv" 2>/dev/null &&
    cmp -s "$tmp/stdin-off.csv" "$tmp/r.csv" && ok "- from a file read in part: read on from there" || bad "- from a file at an offset"
# a closed standard input is no empty file: '-' and --baseline - say it cannot be read
check_bad "(stdin): cannot read standard input: it is closed" "$fx/stream.csv" - <&-
check_bad "(stdin): cannot read standard input: it is closed" --baseline - "$fx/stream.csv" "$fx/lbm.csv" <&-
check_bad "(stdin): cannot read standard input: it is open for writing only" "$fx/stream.csv" - 0>"$tmp/wo"
check_bad "(stdin): cannot read standard input: it is open for writing only" --baseline - "$fx/stream.csv" "$fx/lbm.csv" 0>"$tmp/wo"
check_bad "does-not-exist.csv: cannot open: No such file or directory" --baseline "$fx/does-not-exist.csv" "$fx/stream.csv"

# 10. the summary a buyer reads: headline from DRAM-bound rows, kernel, flags, spread, provenance
"$rl" --summary "$fx/summary-flags.csv" >"$tmp/sf.csv" 2>/dev/null || bad "summary of summary-flags.csv"
v=$(col "$tmp/sf.csv" lbm_cells nodeC); [ "$v" = 2097152 ] && ok "headline skips the above-ceiling 256^3 rows: 128^3" || bad "headline cells $v"
v=$(col "$tmp/sf.csv" mflups_sp nodeC); near "$v" 100 && ok "headline sp 100" || bad "headline sp $v"
v=$(col "$tmp/sf.csv" kernel_sp nodeC); [ "$v" = pull ] && ok "kernel behind the headline" || bad "kernel_sp '$v'"
v=$(col "$tmp/sf.csv" mflups_min_sp nodeC); near "$v" 80 && ok "spread: slowest repetition 80" || bad "mflups_min_sp $v"
v=$(col "$tmp/sf.csv" mflups_med_sp nodeC); near "$v" 95 && ok "spread: median 95" || bad "mflups_med_sp $v"
v=$(col "$tmp/sf.csv" sp_updates_per_copy_kB nodeC); near "$v" 3.333 && ok "updates per kB of copy 3.333" || bad "sp_updates_per_copy_kB $v"
v=$(col "$tmp/sf.csv" timestamp nodeC); [ "$v" = 2026-11-22T02:00:00Z ] && ok "timestamp of the headline" || bad "timestamp '$v'"
v=$(col "$tmp/sf.csv" version nodeC); [ "$v" = v2 ] && ok "version of the headline" || bad "version '$v'"
v=$(col "$tmp/sf.csv" other_stream_prog_GBs nodeC); [ "$v" = "add=33.3 triad=35.5" ] && ok "other stream kernels: $v" || bad "other_stream_prog_GBs '$v'"
v=$(col "$tmp/sf.csv" copy_kernel nodeC); [ "$v" = copy ] && ok "triad is never the ceiling" || bad "copy_kernel '$v'"
# an above-ceiling headline is flagged when it is all there is
grep -v ',128,128,128,' "$fx/summary-flags.csv" >"$tmp/only-above.csv"
"$rl" --summary "$tmp/only-above.csv" >"$tmp/sa.csv" 2>/dev/null
v=$(col "$tmp/sa.csv" flags_sp nodeC); [ "$v" = above_ceiling ] && ok "flags_sp: $v" || bad "flags_sp '$v'"
# unknown precisions (hp) and new stream kernels: the report still matches copy, per precision
"$rl" "$fx/summary-flags.csv" >"$tmp/hp.csv" 2>/dev/null || bad "report with hp rows"
v=$(col "$tmp/hp.csv" pct_of_ceiling ',hp,128'); near "$v" 76 && ok "hp row: 76% of the hp copy" || bad "hp pct $v"
v=$(col "$tmp/hp.csv" ceiling_kernel ',dp,256'); [ "$v" = copy ] && ok "dp ceiling copy, not triad" || bad "dp ceiling kernel $v"

# 10b. several rows of one case (the main job's rounds): the best row is the case's figure,
# classified once; the rows' number, lowest and median beside it; every row's ceiling the best
# copy of its precision and store kind across the rounds
rf="$fx/rounds.csv"
"$rl" --summary "$rf" >"$tmp/rs.csv" 2>/dev/null || bad "summary of rounds.csv"
# aa sp: 300 in round 1, 340 in round 2 against a ceiling of 50 GB/s / 152 B = 328.9: its best
# row is above the ceiling, so aa is not the headline, nor is its slower round (300)
v=$(col "$tmp/rs.csv" kernel_sp nodeR)/$(col "$tmp/rs.csv" mflups_sp nodeR)
[ "$v" = pull_nt/280 ] && ok "rounds: aa's best round above its ceiling, headline pull_nt 280" || bad "rounds: headline sp '$v', want pull_nt/280"
v=$(col "$tmp/rs.csv" rounds_sp nodeR)/$(col "$tmp/rs.csv" mflups_rounds_min_sp nodeR)/$(col "$tmp/rs.csv" mflups_rounds_med_sp nodeR)
[ "$v" = 2/270/275 ] && ok "rounds: sp headline's 2 rows, lowest 270, median 275" || bad "rounds sp spread '$v', want 2/270/275"
v=$(col "$tmp/rs.csv" kernel_dp nodeR)/$(col "$tmp/rs.csv" mflups_dp nodeR)/$(col "$tmp/rs.csv" rounds_dp nodeR)/$(col "$tmp/rs.csv" mflups_rounds_min_dp nodeR)/$(col "$tmp/rs.csv" mflups_rounds_med_dp nodeR)
[ "$v" = aa/155/2/150/152.5 ] && ok "rounds: dp headline aa, best of 2 rounds: $v" || bad "rounds dp '$v', want aa/155/2/150/152.5"
v=$(col "$tmp/rs.csv" copy_dram_GBs nodeR)/$(col "$tmp/rs.csv" copy_rounds nodeR)/$(col "$tmp/rs.csv" copy_dram_GBs_rounds_min nodeR)/$(col "$tmp/rs.csv" copy_dram_GBs_rounds_med nodeR)
[ "$v" = 50/2/40/45 ] && ok "rounds: copy best 50 of 2 rounds, lowest 40, median 45" || bad "rounds copy '$v', want 50/2/40/45"
# the same rows in another order give the same summary (a case is a set of rows, not a sequence)
{ head -1 "$rf"; tail -n +2 "$rf" | sort -r; } >"$tmp/rounds-rev.csv"
"$rl" --summary "$tmp/rounds-rev.csv" >"$tmp/rs2.csv" 2>/dev/null
cmp -s "$tmp/rs.csv" "$tmp/rs2.csv" && ok "rounds: row order does not change the summary" || bad "rounds: order changes the summary: $(diff "$tmp/rs.csv" "$tmp/rs2.csv")"
# the table: each kernel's best round with its flags, the rounds and the lowest beside it
"$rl" --table "$rf" >"$tmp/rt.txt" 2>/dev/null
grep -Eq '^ +aa +sp +340\.0 +103\.4 +copy_nt +- +2 +300\.0 +above_ceiling$' "$tmp/rt.txt" &&
    grep -Eq '^ +copy_nt +sp +50\.0 +50\.0 +- +- +2 +40\.0$' "$tmp/rt.txt" &&
    ok "rounds: --table shows the best round, its flags, the rounds and the lowest" || bad "rounds --table: $(cat "$tmp/rt.txt")"
# the report: every row, the round-1 ones too, against the best copy across the rounds
"$rl" "$rf" >"$tmp/rr.csv" 2>/dev/null || bad "report of rounds.csv"
v=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kernel"] == "aa" && $c["precision"] == "sp" { printf "%s:%s:%s ", $c["mflups"], $c["ceiling_bw_GBs"], $c["flags"] }' "$tmp/rr.csv")
[ "$v" = "300:50: 340:50:above_ceiling " ] && ok "rounds: each aa sp row against the best copy of both rounds" || bad "rounds report aa sp '$v'"

# 11. --table: a short plain-text table per device
"$rl" --table "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/t.txt" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -q '^Xeon X (cpu on host nodeA)' "$tmp/t.txt" && ! grep -q ',' "$tmp/t.txt" &&
    grep -Eq '^ +copy_nt +sp +40\.0 +40\.0' "$tmp/t.txt" && grep -Eq '^ +pull +sp +100\.0 +76\.0 +copy' "$tmp/t.txt" &&
    grep -Eq '^ +pull +dp +8900\.0 .*no_ceiling' "$tmp/t.txt" && ! grep -qi 'nan' "$tmp/t.txt" &&
    ok "--table" || bad "--table (rc $rc): $(cat "$tmp/t.txt")"

# an unknown theoretical bandwidth (empty peak_bw_GBs) reads "-", never "nan"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "peak_bw_GBs") c = i } NR > 1 { $c = "" } 1' \
    "$fx/stream.csv" >"$tmp/nopeak.csv"
"$rl" --table "$tmp/nopeak.csv" "$fx/lbm.csv" >"$tmp/t2.txt" 2>/dev/null
grep -Eq '^ +copy_nt +sp +40\.0 +40\.0 +- ' "$tmp/t2.txt" && ! grep -qi 'nan' "$tmp/t2.txt" &&
    ok "--table: an unknown peak is -" || bad "--table without a peak: $(cat "$tmp/t2.txt")"
# a run stopped before its lbm step (stream rows only): the device says so, no empty heading
"$rl" --table "$fx/stream.csv" >"$tmp/t3.txt" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -q '^  lbm: no rows for this device$' "$tmp/t3.txt" && ! grep -q 'MFLUP/s' "$tmp/t3.txt" &&
    grep -Eq '^ +copy_nt +sp +40\.0' "$tmp/t3.txt" &&
    ok "--table of stream rows alone: no lbm heading" || bad "--table, stream only (rc $rc): $(cat "$tmp/t3.txt")"

# 12. plots: no shell, gnuplot failures reported, moved folders render, readable charts
mkdir "$tmp/cwd" "$tmp/fakebin"
weird="$tmp/p'; touch pwned; echo '\$HOME \"x\""
# a gnuplot that succeeds: through a shell, the folder name would run `touch pwned`
printf '#!/bin/sh\nexit 0\n' >"$tmp/fakebin/gnuplot"; chmod +x "$tmp/fakebin/gnuplot"
(cd "$tmp/cwd" && env PATH="$tmp/fakebin:$PATH" "$rl" --plot "$weird" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>&1); rc=$?
[ $rc -eq 0 ] && [ ! -e "$tmp/cwd/pwned" ] && [ ! -e "$tmp/pwned" ] && [ -s "$weird/roofline.gp" ] &&
    ok "a folder name with quotes, spaces and \$ is just a name" || bad "weird --plot folder: rc $rc, pwned: $(ls "$tmp/cwd" "$tmp" | grep -c pwned)"
if command -v gnuplot >/dev/null 2>&1; then
    (cd "$tmp/cwd" && "$rl" --plot "$weird" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>&1) &&
        head -c 200 "$weird/roofline.svg" | grep -q "<svg" && [ ! -e "$tmp/cwd/pwned" ] &&
        ok "rendered into that folder by the real gnuplot" || bad "no SVG in the weird folder, or pwned"
fi
printf '#!/bin/sh\nexit 1\n' >"$tmp/fakebin/gnuplot"; chmod +x "$tmp/fakebin/gnuplot"
env PATH="$tmp/fakebin:$PATH" "$rl" --plot "$tmp/pf" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q "gnuplot failed" "$tmp/e" && [ ! -s "$tmp/o" ] && ok "gnuplot failing: exit 3, one line" || bad "gnuplot failing: rc $rc, $(cat "$tmp/e")"
printf '#!/bin/sh\nkill -9 $$\n' >"$tmp/fakebin/gnuplot"
env PATH="$tmp/fakebin:$PATH" "$rl" --plot "$tmp/pk" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc -eq 3 ] && grep -q "killed by signal 9" "$tmp/e" && ok "gnuplot killed: exit 3" || bad "gnuplot killed: rc $rc, $(cat "$tmp/e")"
gp="$weird/roofline.gp"
# one roof per ceiling used: cpu sp copy and copy_nt, cpu dp copy, gpu sp copy (gpu dp has none)
[ "$(grep -c "title 'roof: " "$gp")" -eq 4 ] && ok "four roofs, one per ceiling used" || bad "roofs: $(grep -o "roof: [^']*" "$gp" | tr '\n' ';')"
# each kernel x precision x device its own colour and legend entry, its roof in the same family
pts=$(grep -o "with points [^']*'[^']*' title '[^']*'" "$gp" | sort -u | wc -l)
cols=$(grep -o "with points [^']*lc rgb '[^']*'" "$gp" | sort -u | wc -l)
[ "$pts" -eq 5 ] && [ "$cols" -eq 5 ] && ok "five series, five colours" || bad "series $pts, colours $cols"
grep -q "'roofline.dat'" "$gp" && grep -q "set output 'roofline.svg'" "$gp" && ! grep -q "$tmp" "$weird"/*.gp &&
    ok ".gp files name their files relative to themselves" || bad ".gp files hold absolute paths"
grep -q "no data" "$weird/padding.gp" && ! grep -Eq "plot .*[^N]1 notitle|with lines" "$weird/padding.gp" &&
    ok "empty chart says no data, draws no line" || bad "empty padding chart: $(tail -2 "$weird/padding.gp")"
# the size chart: each dashed ceiling the colour of its series
grep -q "dashtype.*lc rgb" "$weird/size.gp" &&
    awk '/dashtype/ {n = split($0, a, "lc rgb "); for (i = 3; i <= n; i++) if (substr(a[i], 1, 9) != substr(a[2], 1, 9)) bad = 1} END {exit bad}' "$weird/size.gp" &&
    ok "each dashed ceiling in its series' colour" || bad "size chart colours: $(cat "$weird/size.gp")"
if command -v gnuplot >/dev/null 2>&1; then
    mv "$weird" "$tmp/moved"
    (cd "$tmp/moved" && rm -f ./*.svg && gnuplot roofline.gp size.gp padding.gp 2>/dev/null) &&
        [ -s "$tmp/moved/roofline.svg" ] && [ -s "$tmp/moved/padding.svg" ] && ok "a moved results folder renders" || bad "moved folder does not render"
fi

# 13. linear-logarithmic time: 100k lbm rows through every mode (quadratic code needs minutes)
awk -F, -v OFS=, 'NR==1{print; next} NR==2{for(i=0;i<100000;i++){$10=64+i%50000; $33="r" i; print}}' "$fx/lbm.csv" >"$tmp/big.csv"
cat "$fx/stream.csv" "$tmp/big.csv" >"$tmp/big-base.csv"
for mode in "" --summary --table "--baseline $tmp/big-base.csv"; do
    timeout 120 "$rl" $mode "$fx/stream.csv" "$tmp/big.csv" >"$tmp/big.out" 2>/dev/null; rc=$?
    [ $rc -eq 0 ] && ok "100k rows '$mode' done" || bad "100k rows '$mode': rc $rc (124: over 120 s)"
done
# 14. energy: nJ per update and W in the report, per-W columns in --summary and --table, the
# energy plot, --gate-energy, and every energy number checked when read
es="$fx/energy-stream.csv" el="$fx/energy-lbm.csv"
"$rl" "$es" "$el" >"$tmp/er.csv" 2>/dev/null || bad "energy report exit $?"
# pull sp: 50 J over 1e6 fluid cells x 10 steps x 20 reps = 2e8 updates: 250 nJ each
v=$(col "$tmp/er.csv" energy_nJ_per_update 'gpu,pull,bgk,cavity,sp'); near "$v" 250 && ok "pull sp 250 nJ per update (steps x reps counted)" || bad "pull sp nJ/update '$v', want 250"
# pull dp: 40 J over 1e6 x 5 x 16 = 8e7 updates: 500 nJ
v=$(col "$tmp/er.csv" energy_nJ_per_update 'gpu,pull,bgk,cavity,dp'); near "$v" 500 && ok "pull dp 500 nJ per update" || bad "pull dp nJ/update '$v', want 500"
v=$(col "$tmp/er.csv" power_W 'gpu,pull,bgk,cavity,sp'); near "$v" 25 && ok "pull sp power 25 W" || bad "pull sp power_W '$v'"
v=$(col "$tmp/er.csv" mflups_per_W 'gpu,pull,bgk,cavity,dp'); near "$v" 2 && ok "pull dp 2 MFLUP/s per W" || bad "pull dp mflups_per_W '$v'"
v=$(col "$tmp/er.csv" energy_polled_dev_pct 'gpu,pull,bgk,cavity,sp'); near "$v" 2 && ok "polled energy 2% above the counter" || bad "energy_polled_dev_pct '$v'"
v=$(col "$tmp/er.csv" energy_nJ_per_update 'gpu,aa,bgk,cavity,sp')$(col "$tmp/er.csv" power_W 'gpu,aa,bgk,cavity,sp')
[ -z "$v" ] && grep -q 'gpu,aa,bgk,cavity,sp' "$tmp/er.csv" && ok "no energy: empty fields" || bad "aa sp without energy shows '$v'"
# the recorded H100 and H200 rows: nJ per update from energy_J agrees with the executables'
# mflups_per_W (1000 / nJ), row by row
ed="$fx/../../data/energy"
"$rl" "$ed"/gpu-energy-clocks-h100-*/gpu-*.csv "$ed"/gpu-energy-clocks-h200-*/gpu-*.csv >"$tmp/ereal.csv" 2>/dev/null || bad "report of the recorded energy rows"
n=$(awk -F, 'NR==1{for(i=1;i<=NF;i++) {if($i=="energy_nJ_per_update") a=i; if($i=="mflups_per_W") b=i}; next}
    $a != "" && $b != "" {d = $a * $b / 1000 - 1; if (d < 1e-6 && d > -1e-6) n++} END {print n+0}' "$tmp/ereal.csv")
[ "$n" -eq 8 ] && ok "recorded rows: nJ per update x MFLUP/s per W = 1000 on all 8" || bad "recorded rows consistent: $n of 8"

"$rl" --summary "$es" "$el" "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/es.csv" 2>/dev/null || bad "energy summary exit $?"
v=$(col "$tmp/es.csv" mflups_per_W_sp nodeE); near "$v" 4 && ok "summary: headline sp 4 MFLUP/s per W" || bad "mflups_per_W_sp '$v'"
v=$(col "$tmp/es.csv" mflups_per_W_dp nodeE); near "$v" 2 && ok "summary: headline dp 2 MFLUP/s per W" || bad "mflups_per_W_dp '$v'"
v=$(col "$tmp/es.csv" copy_dram_GBs_per_W nodeE); near "$v" 2 && ok "summary: copy 2 GB/s per W" || bad "copy_dram_GBs_per_W '$v'"
v=$(col "$tmp/es.csv" mflups_per_W_sp nodeA)$(col "$tmp/es.csv" copy_dram_GBs_per_W nodeA)
[ -z "$v" ] && grep -q '^nodeA' "$tmp/es.csv" && ok "summary: a device without energy leaves them empty" || bad "nodeA per-W '$v'"
"$rl" --table "$es" "$el" >"$tmp/et.txt" 2>/dev/null
grep -q 'MFLUP/s/W' "$tmp/et.txt" && grep -Eq '^ +pull +sp +100\.0 +[0-9.]+ +copy +4\.00' "$tmp/et.txt" &&
    grep -Eq '^ +aa +sp +90\.0 +[0-9.]+ +copy +-' "$tmp/et.txt" && grep -Eq '^ +copy +sp +1000\.0 +1000\.0 +1200 +2\.00' "$tmp/et.txt" &&
    ok "--table: MFLUP/s per W and GB/s per W where known" || bad "--table energy: $(cat "$tmp/et.txt")"

# the energy plot: one series per kernel x precision with energy; none: "no data"
env PATH=/nonexistent "$rl" --plot "$tmp/ep" "$es" "$el" >/dev/null 2>"$tmp/e"
[ "$(grep -c "'energy.dat' index" "$tmp/ep/energy.gp")" -eq 2 ] && [ "$(grep -c '^# ' "$tmp/ep/energy.dat")" -eq 2 ] &&
    grep -q "set output 'energy.svg'" "$tmp/ep/energy.gp" && grep -q "power limit 300 W" "$tmp/ep/energy.gp" &&
    grep -q "energy.gp" "$tmp/e" && ok "energy plot: two series with energy, the power limit" || bad "energy plot: $(cat "$tmp/ep/energy.gp")"
awk '!/^#/ && NF == 3 {d = $2 / $1 - $3; if (d > 1e-9 || d < -1e-9) bad = 1; n++} END {exit bad || n != 2}' "$tmp/ep/energy.dat" &&
    ok "energy.dat: each point's slope is its MFLUP/s per W" || bad "energy.dat: $(cat "$tmp/ep/energy.dat")"
env PATH=/nonexistent "$rl" --plot "$tmp/ep0" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>&1
grep -q "no data" "$tmp/ep0/energy.gp" && ! grep -q "with points" "$tmp/ep0/energy.gp" &&
    ok "energy plot without energy rows says no data" || bad "energy plot without data: $(cat "$tmp/ep0/energy.gp")"
if command -v gnuplot >/dev/null 2>&1; then
    "$rl" --plot "$tmp/esvg" "$es" "$el" >/dev/null 2>&1 && head -c 200 "$tmp/esvg/energy.svg" | grep -q "<svg" &&
        "$rl" --plot "$tmp/esvg0" "$fx/stream.csv" "$fx/lbm.csv" >/dev/null 2>&1 && head -c 200 "$tmp/esvg0/energy.svg" | grep -q "<svg" &&
        ok "energy.svg rendered, with and without energy" || bad "energy.svg not rendered"
fi

# the energy gate: off by default (exit and statuses as before), --gate-energy PCT turns it on
eb="$fx/energy-gate-base.csv" ec="$fx/energy-gate-cur.csv"
"$rl" --baseline "$eb" "$ec" >"$tmp/eg0.csv" 2>/dev/null; rc=$?
# (the gate's last columns are the geometry, the layout, the threads, the rank grid, the overlap
# and the halo path)
[ $rc -eq 0 ] && [ -z "$(awk -F, 'NR>1 && $(NF - 6) != ""' "$tmp/eg0.csv")" ] && head -1 "$tmp/eg0.csv" | grep -q ',energy_status,geometry,layout,threads,procs,overlap,halo$' &&
    ok "energy gate off: exit 0, energy_status empty" || bad "energy gate off: rc $rc, $(cat "$tmp/eg0.csv")"
"$rl" --baseline "$eb" --gate-energy 5 "$ec" >"$tmp/eg.csv" 2>"$tmp/e"; rc=$?
[ $rc -eq 1 ] && grep -q "1 regressed beyond 5%" "$tmp/e" && ok "energy regression alone: exit 1" || bad "--gate-energy 5: rc $rc, $(cat "$tmp/e")"
# pull sp 4 -> 3.2 MFLUP/s per W: -20%, beyond 5% + the meters' 2% + 1%
# pull dp 2 -> 1.85: -7.4%, beyond 5% but within 5% + 2% + 4%
V='[^,]*,[^,]*,[^,]*,[^,]*,[^,]*$' # after the geometry: layout, threads, procs, overlap, halo
for want in "pull,bgk,sp,100,.*,ok,.*,-20,3,regressed,cavity,$V" "pull,bgk,dp,100,.*,-7.4[0-9]*,6,inconclusive,cavity,$V" \
    "aa,bgk,sp,100,.*,improved,cavity,$V" "aa,bgk,dp,100,.*,-1.2[0-9]*,,ok,cavity,$V" "pull,bgk,sp,50,.*,ok,.*,12.5,,,,,cavity,$V"; do
    grep -q "$want" "$tmp/eg.csv" && ok "energy gate: $want" || bad "energy gate lacks $want: $(cat "$tmp/eg.csv")"
done
cmp -s <(cut -d, -f1-18 "$tmp/eg0.csv") <(cut -d, -f1-18 "$tmp/eg.csv") && ok "the time verdicts do not depend on --gate-energy" || bad "time verdicts changed"
"$rl" --baseline "$eb" --gate-energy 25 "$ec" >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && ok "--gate-energy 25: a 20% drop passes" || bad "--gate-energy 25: rc $rc"
# an earlier roofline.csv with energy is a baseline for it too
"$rl" "$eb" -o "$tmp/eb-report.csv" 2>/dev/null
"$rl" --baseline "$tmp/eb-report.csv" --gate-energy 5 "$ec" >"$tmp/egr.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && cmp -s <(cut -d, -f1-11,16,19- "$tmp/eg.csv") <(cut -d, -f1-11,16,19- "$tmp/egr.csv") &&
    ok "roofline.csv as the energy baseline: same verdicts" || bad "roofline.csv energy baseline: rc $rc, $(diff "$tmp/eg.csv" "$tmp/egr.csv")"
gate_bad "--gate-energy: no compared case has mflups_per_W" --baseline "$tmp/base.csv" --gate-energy 5 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv"
check_bad "--gate-energy PCT judges the gate's cases" --gate-energy 5 "$es" "$el"
check_bad "--gate-energy" --gate-energy -3 --baseline "$eb" "$ec"

# every energy number is checked when read: file:line, column, value, exit 2
for c_v in "energy_J:-5" "energy_J:inf" "power_W:0" "mflups_per_W:-1" "energy_polled_J:inf" "power_limit_W:-700"; do
    c=${c_v%%:*} v=${c_v#*:}
    awk -F, -v OFS=, -v c="$c" -v v="$v" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i} NR==3{$k=v} 1' "$el" >"$tmp/e-$c.csv"
    check_bad "e-$c.csv:3: column $c: value $v" "$es" "$tmp/e-$c.csv"
done
for c_v in "GBs_per_W:inf" "energy_J:-4" "power_W:-200"; do
    c=${c_v%%:*} v=${c_v#*:}
    awk -F, -v OFS=, -v c="$c" -v v="$v" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i} NR==2{$k=v} 1' "$es" >"$tmp/s-$c.csv"
    check_bad "s-$c.csv:2: column $c: value $v" "$tmp/s-$c.csv" "$el"
done
# energy per update divides by steps x reps: an lbm row with energy_J needs them
awk -F, -v OFS=, 'NR==2{$19=""} 1' "$el" >"$tmp/e-reps.csv"
check_bad "e-reps.csv:2: column reps: value (empty)" "$es" "$tmp/e-reps.csv"
# and in a baseline: raw rows, or an earlier roofline.csv
awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++) if($i=="mflups_per_W") k=i} NR==4{$k=-1} 1' "$eb" >"$tmp/eb-bad.csv"
check_bad "eb-bad.csv:4: column mflups_per_W: value -1" --baseline "$tmp/eb-bad.csv" "$ec"
awk -F, -v OFS=, 'NR==1{for(i=1;i<=NF;i++) if($i=="mflups_per_W") k=i} NR==2{$k="inf"} 1' "$tmp/eb-report.csv" >"$tmp/ebr-bad.csv"
check_bad "ebr-bad.csv:2: column mflups_per_W: value 'inf'" --baseline "$tmp/ebr-bad.csv" "$ec"

echo "roofline_check: $fails failure(s)"
[ $fails -eq 0 ]
