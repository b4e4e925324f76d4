#!/usr/bin/env bash
# bench_scale.sh ROOFLINE [ROWS] [OUTDIR]: the roofline tool at scale: ROWS synthetic lbm rows
# (default 1000000) plus 1000 stream rows, through each mode (report, --summary, --baseline),
# printing wall seconds and peak resident memory beside the input size. A benchmark, not a test.
set -eu
rl=$1 rows=${2:-1000000} dir=${3:-$(mktemp -d)}
mkdir -p "$dir"
# templates: the first stream and lbm rows of a recorded study, as the executables write them
# (every column), varied by column name below
src=$(cd "$(dirname "$0")/.." && pwd)/data/lbm/sweep-collisions-h100-2026-11-22
gen='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
function set(name, v) { $c[name] = v }
{ for (i = 0; i < rows; i++) {
    host = i % 10; p = int(i / 10) % 2; k = int(i / 20) % 2; s = p ? 8 : 4; wa = 1 - k
    set("host", "host" host); set("device", "Xeon " host); set("precision", p ? "dp" : "sp")
    set("write_allocate", wa); set("timestamp", sprintf("2026-11-23T%02d:%02d:%02dZ", int(i / 3600) % 24, int(i / 60) % 60, i % 60))
    if ($c["bench"] == "stream") {
      set("kernel", k ? "copy_nt" : "copy"); set("prog_bytes", 2 * s); set("dram_bytes", (2 + wa) * s)
      set("bw_dram_GBs", 30 + host + (i % 100) / 100); set("bw_prog_GBs", (30 + host) * 2 / (2 + wa))
    } else {
      n = 32 + 8 * (int(i / 40) % 100)
      set("kernel", k ? "pull_nt" : "pull"); set("nx", n); set("ny", n); set("nz", n); set("pitch", n)
      set("cells", n * n * n); set("fluid_cells", n * n * n); set("prog_bytes", 38 * s); set("dram_bytes", (38 + 19 * wa) * s)
      set("mflups", 100 + i % 97); set("mflups_med", 97 + i % 97)
    }
    print } exit }'
head -2 "$src/cpu-stream.csv" | awk -F, -v OFS=, -v rows=1000 "$gen" >"$dir/stream.csv"
head -2 "$src/cpu-lbm-sweep.csv" | awk -F, -v OFS=, -v rows="$rows" "$gen" >"$dir/lbm.csv"
cp "$dir/lbm.csv" "$dir/lbm-base.csv" # the same run as its own baseline: every case compared
cat "$dir/stream.csv" "$dir/lbm-base.csv" >"$dir/base.csv"
cur_bytes=$(($(stat -c %s "$dir/stream.csv") + $(stat -c %s "$dir/lbm.csv")))
echo "input: $rows lbm rows + $(($(wc -l <"$dir/stream.csv") - 1)) stream rows, $cur_bytes bytes (--baseline: as much again)"
for mode in report summary baseline; do
    case $mode in
    report) args=() in_bytes=$cur_bytes ;;
    summary) args=(--summary) in_bytes=$cur_bytes ;;
    baseline) args=(--baseline "$dir/base.csv") in_bytes=$((2 * cur_bytes)) ;;
    esac
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -v "$rl" "${args[@]}" "$dir/stream.csv" "$dir/lbm.csv" -o "$dir/$mode.out" 2>"$dir/$mode.time" || true
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/$mode.time")
        rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/$mode.time")
        echo "$mode: wall $wall (m:ss), peak RSS $rss KiB = $(awk -v r="$rss" -v b="$in_bytes" 'BEGIN{printf "%.2f", r * 1024 / b}') x the input, $(wc -l <"$dir/$mode.out") output lines"
    else
        start=$(date +%s.%N)
        "$rl" "${args[@]}" "$dir/stream.csv" "$dir/lbm.csv" -o "$dir/$mode.out" 2>/dev/null || true
        echo "$mode: wall $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f", e - s}') s (no /usr/bin/time: RSS not measured)"
    fi
done
