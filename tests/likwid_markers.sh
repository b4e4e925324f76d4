#!/usr/bin/env bash
# likwid_markers.sh BIN: where likwid-perfctr can count, the marker regions of a CPU executable
# appear under `likwid-perfctr -m`; where it cannot (not installed, CPU unknown to this likwid,
# counters hidden by a virtual machine), the test reports itself skipped (exit 77) and says why.
set -u
bin=$1
command -v likwid-perfctr >/dev/null 2>&1 || { echo "SKIP: likwid-perfctr not installed"; exit 77; }
probe=$(likwid-perfctr -C 0 -g INSTR_RETIRED_ANY:FIXC0 true 2>&1)
if [ $? -ne 0 ] || echo "$probe" | grep -qE "Unsupported Processor|Cannot get access to MSRs|ERROR"; then
    echo "SKIP: likwid-perfctr cannot count here: $(echo "$probe" | grep -E "Unsupported|MSR|ERROR" | head -2 | tr '\n' ' ')"
    exit 77
fi
out=$(OMP_NUM_THREADS=1 likwid-perfctr -C 0 -g INSTR_RETIRED_ANY:FIXC0 -m "$bin" --size 4M --kernel copy --precision sp --reps 3 -o /dev/null 2>&1)
echo "$out" | grep -q "Region stream_copy" || { echo "no region stream_copy in:"; echo "$out"; exit 1; }
echo "likwid_markers: region stream_copy measured"
