#!/usr/bin/env bash
# cpu-host-rounds-summary.sh DIR [THRESHOLD]: the summary of a cpu-host-rounds.sh run (or of any
# folder with roof-<r>.csv from `roofline` and peer-<sp|dp>-<r>.txt from lbm-benchmark-kernels):
#  1. per kernel, precision and domain edge measured in more than one round: percent of the
#     round's own ceiling (best repetition, roofline's pct_of_ceiling) round by round, then the
#     median, min and max, and the same for MFLUP/s;
#  2. aa against the peer (its "P:" line, MFLUP/s) round by round, sp and dp, and in how many
#     rounds aa was ahead;
#  3. the sizes measured once (the sweep): each size's percent of ceiling, and every size that
#     the tool does not flag cache_resident (DRAM-bound) below THRESHOLD percent [80].
#  4. where stream-<r>.csv and lbm-<r>.csv are there too: aa's DRAM bandwidth (its rows at the
#     rounds' own size) against the same round's copy_nt and update (the in-place stream kernel,
#     aa's access pattern), round by round, sp and dp, with the medians of the ratios.
# Plain text on stdout. Exit 2 when DIR holds no roof-<r>.csv.
set -u -o pipefail
dir=${1:?usage: cpu-host-rounds-summary.sh DIR [THRESHOLD]}
thr=${2:-80}
shopt -s nullglob
roofs=("$dir"/roof-*.csv)
[ ${#roofs[@]} -gt 0 ] || { echo "cpu-host-rounds-summary.sh: no roof-<r>.csv in $dir" >&2; exit 2; }

# one line per lbm row: round kernel precision nx pct mflups resident
rows=$(for f in "${roofs[@]}"; do
    r=${f##*/roof-}
    r=${r%.csv}
    awk -F, -v r="$r" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print r, $c["kernel"], $c["precision"], $c["nx"], $c["pct_of_ceiling"], $c["mflups"],
                ($c["flags"] ~ /cache_resident/) ? "cache" : "dram" }' "$f"
done | sort -k2,2 -k3,3 -k4,4n -k1,1n)

# median, min, max of the numbers on one line
stats='function stats(a, n,   i, j, t, med) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    return sprintf("median %.1f (min %.1f, max %.1f), n=%d", med, a[1], a[n], n)
}'

echo "== percent of each round's ceiling (best rep) and MFLUP/s, sizes measured in more than one round"
echo "$rows" | awk "$stats"'
    { key = $2 " " $3 " " $4; n[key]++; p[key, n[key]] = $5; m[key, n[key]] = $6; r[key, n[key]] = $1
      if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END {
        for (i = 1; i <= k; i++) {
            key = order[i]; if (n[key] < 2) continue
            line = ""
            for (j = 1; j <= n[key]; j++) { line = line sprintf(" r%s %.0f (%.1f%%)", r[key, j], m[key, j], p[key, j]); a[j] = p[key, j]; b[j] = m[key, j] }
            print key ":" line
            print "   % of ceiling " stats(a, n[key]) "; MFLUP/s " stats(b, n[key])
        }
    }'

echo "== aa against lbm-benchmark-kernels (MFLUP/s per round; size: the rounds' own)"
for p in sp dp; do
    echo "$rows" | awk -v p="$p" -v dir="$dir" '
        $2 == "aa" && $3 == p { cnt[$4]++; ours[$4, $1] = $6; if (cnt[$4] > best) { best = cnt[$4]; nx = $4 } }
        END {
            if (!best) exit
            ahead = 0; total = 0; line = ""
            for (r = 1; r <= 99; r++) {
                if (!((nx, r) in ours)) continue
                f = dir "/peer-" p "-" r ".txt"; peer = ""
                while ((getline l < f) > 0) if (l ~ /^P:/) { split(l, w, " "); peer = w[2] }
                close(f)
                if (peer == "") { line = line sprintf(" r%d %.0f / -", r, ours[nx, r]); continue }
                total++; if (ours[nx, r] > peer) ahead++
                line = line sprintf(" r%d %.0f / %.0f (%+.0f%%)", r, ours[nx, r], peer, 100 * (ours[nx, r] / peer - 1))
            }
            if (total) printf "aa %s %s^3 ours / peer:%s\n   ahead in %d of %d rounds with a peer run\n", p, nx, line, ahead, total
        }'
done

echo "== sizes measured once (the sweep): percent of ceiling; DRAM-bound ones below $thr% marked *"
echo "$rows" | awk -v thr="$thr" '
    { key = $2 " " $3 " " $4; n[key]++; row[key] = $0 }
    END { for (key in n) if (n[key] == 1) print row[key] }' | sort -k2,2 -k3,3 -k4,4n |
    awk -v thr="$thr" '
        { key = $2 " " $3; if (key != last) { if (line != "") print line; line = sprintf("%-11s", key); last = key }
          mark = ($7 == "dram" && $5 < thr) ? "*" : ""; if (mark != "") low[++nl] = $2 " " $3 " " $4 " (" sprintf("%.1f", $5) "%)"
          line = line sprintf(" %s:%.0f%s", $4, $5, mark) }
        END { if (line != "") print line
              printf "DRAM-bound below %s%%: ", thr; if (!nl) print "none"; else { for (i = 1; i <= nl; i++) printf "%s%s", low[i], i < nl ? ", " : "\n" } }'

echo "== aa's DRAM GB/s against the round's copy_nt and update (best repetitions; rounds with all three)"
for p in sp dp; do
    for f in "$dir"/lbm-*.csv; do
        r=${f##*/lbm-}
        r=${r%.csv}
        [ -s "$dir/stream-$r.csv" ] || continue
        awk -F, -v p="$p" -v r="$r" '
            FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["precision"] != p { next }
            $c["bench"] == "lbm" && $c["kernel"] == "aa" && $c["verified"] == "pass" {
                if ($c["bw_dram_GBs"] > aa) { aa = $c["bw_dram_GBs"]; nx = $c["nx"] } }
            $c["bench"] == "stream" && $c["verified"] == "pass" && ($c["kernel"] == "copy_nt" || $c["kernel"] == "update") {
                if ($c["bw_dram_GBs"] > best[$c["kernel"]]) best[$c["kernel"]] = $c["bw_dram_GBs"] }
            END { if (aa > 0 && best["copy_nt"] > 0 && best["update"] > 0)
                      printf "%s %s %s %.4f %.4f %.4f\n", p, r, nx, aa, best["copy_nt"], best["update"] }' \
            "$dir/stream-$r.csv" "$f"
    done
done | sort -k1,1 -k2,2n | awk "$stats"'
    { n[$1]++; a[$1, n[$1]] = 100 * $4 / $5; b[$1, n[$1]] = 100 * $4 / $6; u[$1, n[$1]] = 100 * $6 / $5
      printf "aa %s r%s %s^3: aa %.1f GB/s, copy_nt %.1f, update %.1f: aa %.1f%% of copy_nt, %.1f%% of update\n", $1, $2, $3, $4, $5, $6, a[$1, n[$1]], b[$1, n[$1]] }
    END { for (p in n) {
              for (j = 1; j <= n[p]; j++) { x[j] = a[p, j]; y[j] = b[p, j]; z[j] = u[p, j] }
              print "   " p ": aa / copy_nt % " stats(x, n[p])
              print "   " p ": aa / update % " stats(y, n[p])
              print "   " p ": update / copy_nt % " stats(z, n[p]) } }'
