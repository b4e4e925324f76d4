#!/usr/bin/env bash
# dram_peak.sh [FILE]: the host's theoretical DRAM bandwidth in GB/s (1e9 B/s) from the SMBIOS
# memory devices, printed alone on stdout; how it was worked out goes to stderr. FILE is the
# output of `dmidecode -t memory` (default: run dmidecode). Prints nothing and exits 1 where the
# tables are not readable (no dmidecode, not root, a VM without them) or name no speed.
#
# peak = populated modules x transfers per second x data width in bytes. It assumes one module
# per channel, the configuration bandwidth-minded hosts use: SMBIOS names slots in
# vendor-specific ways, so two modules sharing a channel cannot be told apart from two channels.
# With two per channel the figure is twice too high; the line on stderr shows the arithmetic.
set -u -o pipefail
if [ $# -ge 1 ]; then
    [ -r "$1" ] || { echo "dram_peak: cannot read $1" >&2; exit 1; }
    dmi=$(cat "$1")
else
    command -v dmidecode >/dev/null 2>&1 || { echo "dram_peak: dmidecode is not installed" >&2; exit 1; }
    dmi=$(dmidecode -t memory 2>/dev/null) || { echo "dram_peak: dmidecode could not read the tables (root needed)" >&2; exit 1; }
fi
# One line per populated module: speed in MT/s (the configured speed where given, else the rated
# one; older dmidecode writes MHz for the same number) and data width in bits.
printf '%s\n' "$dmi" | awk '
    function flush() {
        if (dev && populated && speed > 0 && width > 0) { n++; sum += speed * width / 8 / 1000;
            if (!s0) s0 = speed; if (speed != s0) mixed = 1; if (!w0) w0 = width }
        populated = 0; speed = 0; cfg = 0; width = 0 }
    /^Memory Device/ { flush(); dev = 1; next }
    /^Handle / { flush(); dev = 0; next }
    dev && /^[ \t]+Size:/ { populated = ($0 !~ /No Module Installed|Not Installed|Unknown/) && ($2 + 0 > 0) }
    dev && /^[ \t]+Data Width:/ { width = $3 + 0 }
    dev && /^[ \t]+Configured (Memory|Clock) Speed:/ && $4 + 0 > 0 { speed = $4 + 0; cfg = 1 }
    dev && /^[ \t]+Speed:/ && !cfg && $2 + 0 > 0 { speed = $2 + 0 }
    END { flush();
        if (n == 0) { print "dram_peak: the memory tables name no populated module with a speed" > "/dev/stderr"; exit 1 }
        printf "dram_peak: %d modules x %s MT/s x %d B = %.1f GB/s (one module per channel assumed)\n", \
            n, mixed ? "mixed" : s0, w0 / 8, sum > "/dev/stderr"
        printf "%.1f\n", sum }'
