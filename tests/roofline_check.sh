#!/usr/bin/env bash
# roofline_check.sh ROOFLINE FIXTURES: the roofline tool on hand-made fixture rows whose answers
# are known: percent of ceiling, flags, the summary, every gate status, plots with and without
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

# 2. the summary
"$rl" --summary "$fx/stream.csv" "$fx/lbm.csv" >"$tmp/s.csv" 2>/dev/null || bad "summary exit $?"
[ "$(wc -l <"$tmp/s.csv")" -eq 3 ] && ok "summary: one row per device" || bad "summary rows $(wc -l <"$tmp/s.csv")"
v=$(col "$tmp/s.csv" mflups_sp 'nodeA'); near "$v" 200 && ok "summary best sp at the largest common size: $v" || bad "summary mflups_sp $v"
v=$(col "$tmp/s.csv" copy_prog_GBs 'nodeA'); near "$v" 40 && ok "summary copy GB/s $v" || bad "summary copy $v"

# 3. the gate
cat "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm.csv" >"$tmp/base.csv"
"$rl" --baseline "$tmp/base.csv" --tolerance 3 "$fx/stream.csv" "$fx/stream-gpu-dp.csv" "$fx/lbm-current.csv" >"$tmp/g.csv" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && ok "gate exit 1 on a regression" || bad "gate exit $rc, want 1"
for want in "cpu,lbm,pull,bgk,sp,256.*,regressed" "gpu,lbm,pull,bgk,sp,256.*,inconclusive" \
    "gpu,lbm,pull,bgk,dp,256.*,ok" "cpu,lbm,pull_nt,bgk,sp,256.*,ok" "cpu,lbm,pull,bgk,dp,512.*,new" \
    "cpu,lbm,pull,bgk,dp,256.*,missing" "cpu,lbm,pull,bgk,sp,32.*,missing"; do
    grep -q "$want\$" "$tmp/g.csv" && ok "gate: $want" || bad "gate lacks $want"
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
check_bad "unknown option" --bogus "$fx/lbm.csv"
check_bad "choose one" --summary --baseline "$fx/lbm.csv" "$fx/lbm.csv"
echo "roofline_check: $fails failure(s)"
[ $fails -eq 0 ]
