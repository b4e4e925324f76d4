#!/usr/bin/env bash
# main-job-repeat.sh OUTDIR [N]: the main job (./suite.sh, as a newcomer runs it) N times back to
# back on one machine (default 3), built once by the first run. Keeps each run's summary.csv and
# terminal output as OUTDIR/summary-I.csv and OUTDIR/run-I.err, writes OUTDIR/runs.csv (per run:
# its CPU rounds, SUITE_ROUNDS or the suite's default, its wall time in s and the 1-minute load
# average before it, for a machine shared with other work) and OUTDIR/spread.csv: per device and
# headline column, the lowest, highest and median value over the runs, the spread
# (highest - lowest) / median in percent, and the headline kernels the runs reported; and
# OUTDIR/clocks.csv: what the cpu clock probe read during each run's rows (per run, bench, kernel
# and precision: rows, repetitions made and disturbed, rows marked cpu_unsteady, lowest and
# highest MHz).
set -u -o pipefail
out=${1:?usage: main-job-repeat.sh OUTDIR [N]}
n=${2:-3}
src=$(cd "$(dirname "$0")/../.." && pwd)
export BUILD_DIR=${BUILD_DIR:-$src/build-repeat} SUITE_OFFLINE=${SUITE_OFFLINE:-1}
mkdir -p "$out/runs" || exit 2
echo "run,rounds,seconds,load_1min" >"$out/runs.csv"
echo "run,bench,kernel,precision,rows,reps,reps_disturbed,unsteady_rows,cpu_clock_low_MHz,cpu_clock_MHz" >"$out/clocks.csv"
for i in $(seq "$n"); do
    echo "== main job, run $i of $n" >&2
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
    t0=$(date +%s)
    SUITE_RESULTS="$out/runs" bash "$src/suite.sh" 2>"$out/run-$i.err" || {
        tail -20 "$out/run-$i.err" >&2
        exit 1
    }
    t1=$(date +%s)
    export SUITE_SKIP_BUILD=1
    dir=$(ls -dt "$out"/runs/*/ | head -1)
    cp "$dir/summary.csv" "$out/summary-$i.csv"
    # the rounds the run made: "CPU round R of N" on its stderr, one round without such lines
    r=$(grep -o 'CPU round [0-9]* of [0-9]*' "$out/run-$i.err" | tail -1 | awk '{print $NF}')
    echo "$i,${r:-1},$((t1 - t0)),$load" >>"$out/runs.csv"
    # the cpu clock the run's rows read (--quiet-wait): per kernel and precision over its rounds,
    # the repetitions made and set aside as disturbed, the rows that said cpu_unsteady, the lowest
    # and highest readings; columns found by name, empty where the rows have none
    awk -F, -v OFS=, -v run="$i" '
        FNR == 1 { delete col; for (c = 1; c <= NF; c++) col[$c] = c; next }
        $col["backend"] == "cpu" {
            k = $col["bench"] OFS $col["kernel"] OFS $col["precision"]
            if (!(k in n)) keys[++nk] = k
            n[k]++; reps[k] += $col["reps"]
            if ("reps_disturbed" in col) dist[k] += $col["reps_disturbed"]
            if ("clock_events" in col && index($col["clock_events"], "cpu_unsteady")) un[k]++
            if ("cpu_clock_low_MHz" in col && $col["cpu_clock_low_MHz"] != "" && (!(k in lo) || $col["cpu_clock_low_MHz"] + 0 < lo[k])) lo[k] = $col["cpu_clock_low_MHz"] + 0
            if ("cpu_clock_MHz" in col && $col["cpu_clock_MHz"] != "" && $col["cpu_clock_MHz"] + 0 > hi[k]) hi[k] = $col["cpu_clock_MHz"] + 0 }
        END { for (j = 1; j <= nk; j++) { k = keys[j]
                printf "%s,%s,%d,%d,%d,%d,%s,%s\n", run, k, n[k], reps[k], dist[k], un[k],
                    (k in lo) ? sprintf("%.0f", lo[k]) : "", (k in hi) ? sprintf("%.0f", hi[k]) : "" } }' \
        "$dir/stream.csv" "$dir/lbm.csv" >>"$out/clocks.csv"
done
cat "$out/runs.csv" >&2
# The headline columns of summary.csv, found by name (columns are only ever appended).
awk -F, -v OFS=, '
    FNR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
    { key = $col["host"] "|" $col["device"] "|" $col["backend"]
      if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
      split("copy_dram_GBs mflups_sp mflups_dp", h, " ")
      split("copy_kernel kernel_sp kernel_dp", kc, " ")
      for (j = 1; j <= 3; j++) if ($col[h[j]] != "") {
          v[key, h[j], ++cnt[key, h[j]]] = $col[h[j]] + 0
          kn = $col[kc[j]]
          if (index(" " kern[key, h[j]] " ", " " kn " ") == 0) kern[key, h[j]] = kern[key, h[j]] (kern[key, h[j]] == "" ? "" : " ") kn } }
    END {
      print "host", "device", "backend", "column", "runs", "lowest", "median", "highest", "spread_pct", "kernels"
      split("copy_dram_GBs mflups_sp mflups_dp", h, " ")
      for (k = 1; k <= nk; k++) for (j = 1; j <= 3; j++) {
          m = cnt[keys[k], h[j]]; if (!m) continue
          for (a = 1; a <= m; a++) x[a] = v[keys[k], h[j], a]
          for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (x[b] < x[a]) { t = x[a]; x[a] = x[b]; x[b] = t }
          med = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
          split(keys[k], p, "|")
          printf "%s,\"%s\",%s,%s,%d,%.1f,%.1f,%.1f,%.2f,%s\n", p[1], p[2], p[3], h[j], m, x[1], med, x[m], (x[m] - x[1]) / med * 100, kern[keys[k], h[j]] }
    }' "$out"/summary-*.csv >"$out/spread.csv"
cat "$out/spread.csv" >&2
