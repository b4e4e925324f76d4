#!/usr/bin/env bash
# roofline_fp16.sh ROOFLINE FIXTURES: a 16-bit LBM row takes its ceiling from the 2-byte copy
# (stream's fp16s rows), fp16c's too (the copy moves bits); where the input has no 2-byte copy the
# row gets no ceiling (flag no_ceiling) and stderr names the fp16s copy it lacks. The expected
# percent is computed from the fixtures' own columns: copy bw_dram_GBs / the row's dram_bytes.
set -u
rl=$1 fx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
col() { awk -F, -v want="$2" -v pat="$3" 'NR==1{for(i=1;i<=NF;i++) if($i==want) c=i; next} $0 ~ pat {print $c; exit}' "$1"; }
"$rl" "$fx/stream.csv" "$fx/stream-fp16.csv" "$fx/lbm-fp16.csv" >"$tmp/r.csv" 2>"$tmp/r.err"
rc=$?
[ $rc -eq 0 ] && ok "report exit 0" || bad "report exit $rc"
bw=$(col "$fx/stream-fp16.csv" bw_dram_GBs ',copy,.*,fp16s,')
for p in fp16s fp16c; do
    mf=$(col "$fx/lbm-fp16.csv" mflups "nodeA,.*,$p,")
    db=$(col "$fx/lbm-fp16.csv" dram_bytes "nodeA,.*,$p,")
    want=$(awk -v m="$mf" -v b="$bw" -v d="$db" 'BEGIN{printf "%.6g", 100 * m / (b * 1000 / d)}')
    got=$(col "$tmp/r.csv" pct_of_ceiling "nodeA,.*,$p,")
    awk -v a="$got" -v b="$want" 'BEGIN{exit !(a != "" && a - b < 1e-6 * b && b - a < 1e-6 * b)}' &&
        ok "$p: $got% of the fp16s copy" || bad "$p: pct_of_ceiling '$got', want $want"
    k=$(col "$tmp/r.csv" ceiling_kernel "nodeA,.*,$p,")
    [ "$k" = copy ] && ok "$p ceiling kernel copy" || bad "$p ceiling kernel '$k'"
done
v=$(col "$tmp/r.csv" flags "gpuhost,.*,fp16c,")
[ "$v" = no_ceiling ] && ok "fp16c without a 2-byte copy: no_ceiling" || bad "gpu fp16c flags '$v'"
grep -q "no stream copy rows for host gpuhost.*precision fp16s" "$tmp/r.err" &&
    ok "stderr names the missing fp16s copy" || bad "stderr: $(cat "$tmp/r.err")"
# no 2-byte copy in the input, its 4- and 8-byte copies given: the report and --table agree on
# each 16-bit row (no ceiling, flagged no_ceiling, exit 0) and say the same on stderr: the fp16s
# copy it lacks, once per machine and store kind
"$rl" "$fx/stream.csv" "$fx/lbm-fp16.csv" >"$tmp/n.csv" 2>"$tmp/n.err"
rc=$?
"$rl" --table "$fx/stream.csv" "$fx/lbm-fp16.csv" >"$tmp/n.txt" 2>"$tmp/nt.err"
rt=$?
[ $rc -eq 0 ] && [ $rt -eq 0 ] && ok "no 2-byte copy: report and --table exit 0" || bad "no 2-byte copy: report exit $rc, --table exit $rt: $(cat "$tmp/n.err")"
for p in fp16s fp16c; do
    v=$(col "$tmp/n.csv" flags "nodeA,.*,$p,")/$(col "$tmp/n.csv" ceiling_kernel "nodeA,.*,$p,")
    [ "$v" = no_ceiling/ ] && ok "report: $p no_ceiling" || bad "report: $p '$v'"
    grep -Eq "^ +pull +$p +100\.0 +- +- .* no_ceiling$" "$tmp/n.txt" && ok "--table: $p no_ceiling" ||
        bad "--table: $p: $(cat "$tmp/n.txt")"
done
[ "$(grep -c "no stream copy rows for host nodeA.*precision fp16s" "$tmp/n.err")" -eq 1 ] && cmp -s "$tmp/n.err" "$tmp/nt.err" &&
    ok "report and --table name the missing fp16s copy alike" || bad "stderr: report '$(cat "$tmp/n.err")', --table '$(cat "$tmp/nt.err")'"
# --summary's figures are sp and dp: a machine with 16-bit LBM rows only gets empty figures (its
# cells too) and one line on stderr saying where its rows are
"$rl" --summary "$fx/stream.csv" "$fx/stream-fp16.csv" "$fx/lbm-fp16.csv" >"$tmp/s.csv" 2>"$tmp/s.err"
rc=$?
v=$(col "$tmp/s.csv" lbm_cells "nodeA,")
[ $rc -eq 0 ] && [ -z "$v" ] && ok "summary of 16-bit rows only: no figures, no cells" ||
    bad "summary exit $rc, lbm_cells '$v'"
grep -q "nodeA.*16-bit precisions only" "$tmp/s.err" && ok "summary: stderr says the rows are 16-bit" ||
    bad "summary stderr: $(cat "$tmp/s.err")"
# 16-bit rows at a larger size take no sp headline away (no dp rows): sp at its own largest size
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["host"] == "nodeA" && $c["precision"] == "sp" && $c["nx"] == 256 { print
        $c["precision"] = "fp16s"; $c["nx"] = $c["ny"] = $c["nz"] = $c["pitch"] = 512
        $c["cells"] = $c["fluid_cells"] = 134217728; $c["prog_bytes"] = 76; $c["dram_bytes"] = 114; print }' \
    "$fx/lbm.csv" >"$tmp/lbm-sp16.csv"
"$rl" --summary "$fx/stream.csv" "$fx/stream-fp16.csv" "$tmp/lbm-sp16.csv" >"$tmp/s16.csv" 2>"$tmp/s16.err"
v=$(col "$tmp/s16.csv" kernel_sp nodeA)/$(col "$tmp/s16.csv" mflups_sp nodeA)/$(col "$tmp/s16.csv" lbm_cells nodeA)
[ "$v" = pull_nt/200/16777216 ] && ! grep -q "16-bit precisions only" "$tmp/s16.err" &&
    ok "summary: sp headline at its own size beside larger 16-bit rows ($v)" || bad "summary sp beside 16-bit rows: '$v', $(cat "$tmp/s16.err")"
[ $fails -eq 0 ] && echo "roofline_fp16: ok" || { echo "roofline_fp16: $fails failed" >&2; exit 1; }
