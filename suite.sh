#!/usr/bin/env bash
# suite.sh: the suite's two entry points on a fresh machine.
#   ./suite.sh        build, then run the main job: STREAM and LBM on the CPU, and on the GPU
#                     when one is present, then the roofline report, summary and plots;
#                     results in results/<host>-<UTC time>/
#   ./suite.sh test   build, then run the tests (the gpu-labelled ones only where a GPU is present;
#                     installs MPI for the distributed tests unless SUITE_NO_MPI=1)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD_DIR:-$here/build}
mode=${1:-run}
say() { echo "suite: $*" >&2; }

case "$mode" in run | test) ;; *)
    echo "suite: unknown mode '$mode'; accepted: run (default), test" >&2
    exit 2
    ;;
esac

# The main job's CPU steps run as alternated rounds (stream-cpu#1, lbm-cpu#1, stream-cpu#2, ...),
# each a new process adding its rows to the same files: a host's memory bandwidth moves in steps
# that last tens of seconds (between processes, not between repetitions), so the rounds sample
# several moments; roofline takes the best row of each case across them, STREAM's rule, and
# reports their spread. GPUs repeat to well under 1% in one process: one round there.
rounds=${SUITE_ROUNDS:-5}
case $mode/$rounds in run/*[!0-9]* | run/0*)
    say "SUITE_ROUNDS='$rounds': give a whole number of CPU rounds from 1 up (default 5)"
    exit 2
    ;;
esac

# Set-up: what the build needs, installed from the distribution where we may.
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || command -v ninja >/dev/null 2>&1 || missing+=(make)
# MPI: the tests run one case on 1, 2 and 4 ranks; the main job runs on one process without it
if [ "$mode" = test ] && [ -z "${SUITE_NO_MPI:-}" ]; then
    command -v mpicc >/dev/null 2>&1 && command -v mpiexec >/dev/null 2>&1 ||
        missing+=(libopenmpi-dev openmpi-bin)
fi
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]}"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
            { say "could not install ${missing[*]}"; exit 2; }
    else
        say "missing ${missing[*]}: install them (Debian: apt-get install ${missing[*]})"
        exit 2
    fi
fi

# Optional: gnuplot renders the plots (without it the .gp files are written); likwid adds
# Marker API regions and topology facts. The suite builds and runs the same without either.
# (SUITE_OFFLINE=1 skips them; on a machine without a network they give up within 5 minutes:
# apt-get update 60 s at most, apt-get install 120 s, and one retry of the install after an
# update.)
apt_update() { timeout 60 apt-get update -qq >/dev/null 2>&1; }
apt_install() { DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -qq "$@" >/dev/null 2>&1; }
opt_install() { # opt_install PACKAGE...: the package lists refreshed first where none was
    # fetched within a day, else only when the install fails (they name versions a mirror dropped)
    local fresh
    fresh=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)
    [ -n "$fresh" ] || apt_update
    apt_install "$@" && return
    [ -n "$fresh" ] && apt_update && apt_install "$@"
}
if [ -z "${SUITE_OFFLINE:-}" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    opt=()
    command -v gnuplot >/dev/null 2>&1 || opt+=(gnuplot-nox)
    [ "$mode" = run ] && ! command -v dmidecode >/dev/null 2>&1 && opt+=(dmidecode)
    [ -e /usr/include/likwid-marker.h ] || opt+=(likwid)
    if [ ${#opt[@]} -gt 0 ]; then
        opt_install "${opt[@]}" ||
            say "could not install ${opt[*]} (optional): continuing without"
    fi
fi

gpu_present() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }

if [ -n "${SUITE_SKIP_BUILD:-}" ]; then # the executables already in $build (the tests use this)
    [ -x "$build/stream-cpu" ] || { say "SUITE_SKIP_BUILD: no executables in $build"; exit 2; }
else
    say "building in $build"
    # SUITE_CMAKE_ARGS: extra configure options, e.g. "-DLBMR_SANITIZE=ON -DLBMR_CUDA=OFF", split
    # on whitespace as the SUITE_<EXE>_ARGS are (below): no quotes honoured, no globbing
    read -rd '' -a cmake_args <<<"${SUITE_CMAKE_ARGS:-}"
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release "${cmake_args[@]}" >"$build.configure.log" 2>&1 ||
        { cat "$build.configure.log" >&2; exit 1; }
    grep -m1 'lbm-roofline-suite:' "$build.configure.log" | sed 's/^-- /suite: /' >&2
    cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build.build.log" 2>&1 ||
        { tail -40 "$build.build.log" >&2; exit 1; }
fi

if [ "$mode" = test ]; then
    if gpu_present; then
        (cd "$build" && ctest --output-on-failure)
    else
        say "no GPU here: running the tests not labelled gpu"
        (cd "$build" && ctest --output-on-failure -LE gpu)
    fi
    exit $?
fi

# The main job. Threads are pinned unless the user chose otherwise. Domains: the executables'
# defaults (CPU: lattices at least 4x the last-level cache, STREAM's rule; GPU: far above L2), so
# the headline comes from DRAM-bound rows. SUITE_<EXE>_ARGS add options to one executable
# (SUITE_LBM_CPU_ARGS="--size 64" for a quick look; cache-resident rows are flagged, not headlines).
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
# Each SUITE_<EXE>_ARGS is split on whitespace (newlines too), and only there: no quotes
# honoured, no globbing (read -a), so "--size 8:64:4 --kernel *" reaches the executable as four
# words. (read -d '' ends at the end of the input with status 1: nothing wrong.)
read -rd '' -a stream_cpu_args <<<"${SUITE_STREAM_CPU_ARGS:-}"
read -rd '' -a lbm_cpu_args <<<"${SUITE_LBM_CPU_ARGS:-}"
read -rd '' -a stream_gpu_args <<<"${SUITE_STREAM_GPU_ARGS:-}"
read -rd '' -a lbm_gpu_args <<<"${SUITE_LBM_GPU_ARGS:-}"
steps=()
for ((r = 1; r <= rounds; r++)); do steps+=("stream-cpu#$r" "lbm-cpu#$r"); done
gpu=0
if [ -x "$build/stream-gpu" ] && gpu_present; then
    gpu=1
    steps+=(stream-gpu lbm-gpu)
else
    say "no GPU (or no CUDA build): CPU rows only"
fi
steps+=(roofline summary)
# unless OPTION ARGS...: true where ARGS do not give OPTION, whole or abbreviated as getopt_long
# takes it (--prec for --precision): the executables refuse an option given twice, so the job's
# defaults, --precision sp,dp and --peak-bw, yield to the user's
unless() {
    local want=$1 a name
    shift
    for a in "$@"; do
        name=${a%%=*}
        case $name in --?*) case $want in "$name"*) return 1 ;; esac ;; esac
    done
    return 0
}
unless --precision "${lbm_cpu_args[@]}" && lbm_cpu_args=(--precision "sp,dp" "${lbm_cpu_args[@]}")
unless --precision "${lbm_gpu_args[@]}" && lbm_gpu_args=(--precision "sp,dp" "${lbm_gpu_args[@]}")
# A typo in SUITE_<EXE>_ARGS is found now (--check: the cases made and checked, none run), not
# after the steps before it have run for minutes. Exit 2: bad input.
args_ok() { # args_ok EXE VARIABLE ARGS...
    local exe=$1 var=$2 line
    shift 2
    line=$("$build/$exe" "$@" --check 2>&1 >/dev/null) && return 0
    say "$var: $(printf '%s\n' "$line" | tail -n 1)"
    exit 2
}
args_ok stream-cpu SUITE_STREAM_CPU_ARGS "${stream_cpu_args[@]}"
args_ok lbm-cpu SUITE_LBM_CPU_ARGS "${lbm_cpu_args[@]}"
if [ "$gpu" = 1 ]; then
    args_ok stream-gpu SUITE_STREAM_GPU_ARGS "${stream_gpu_args[@]}"
    args_ok lbm-gpu SUITE_LBM_GPU_ARGS "${lbm_gpu_args[@]}"
fi
child='' current='' done_steps=()
incomplete() { # incomplete REASON: names what is missing, for whoever finds the folder later
    {
        echo "$1"
        echo "finished: ${done_steps[*]:-none}"
        echo "missing: ${steps[*]:${#done_steps[@]}}"
    } >"$out/INCOMPLETE"
}
# A closed terminal or a dropped ssh connection (SIGHUP) stops the job as Ctrl-C does: the step
# would otherwise run on orphaned. SIGPIPE is ignored here so that a stderr gone with the terminal
# makes say fail instead of ending the script before INCOMPLETE is written.
on_signal() {
    trap '' INT TERM HUP PIPE
    say "interrupted ($1) during $current: stopping"
    # the step's process group (set -m): the executable and anything it started
    [ -n "$child" ] && kill -TERM -- "-$child" 2>/dev/null && wait "$child"
    incomplete "interrupted by SIG$1 during $current at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    say "interrupted: $out is incomplete (see its INCOMPLETE file)"
    exit 130
}
out="${SUITE_RESULTS:-$here/results}/$(hostname)-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$(dirname "$out")" || { say "cannot create $(dirname "$out")"; exit 3; }
# never over an earlier run: a second run within the same second gets a suffix
base=$out i=1
until mkdir "$out" 2>/dev/null; do
    [ -d "$out" ] || { say "cannot create $out"; exit 3; }
    i=$((i + 1)) out=$base-$i
done
# from here on a signal leaves the folder with its INCOMPLETE file, the DRAM peak reading included
current=dram_peak
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
say "results in $out"

# CPU rows carry a theoretical bandwidth when the user gives one or the memory tables say it.
cpu_peak=()
peak=${SUITE_PEAK_BW_GBS:-$(bash "$here/common/dram_peak.sh" 2>"$out/dram_peak.log")}
if [ -n "$peak" ]; then
    cpu_peak=(--peak-bw "$peak")
    [ -n "${SUITE_PEAK_BW_GBS:-}" ] && say "CPU peak bandwidth $peak GB/s (SUITE_PEAK_BW_GBS)" ||
        say "CPU peak bandwidth $(sed 's/^dram_peak: //' "$out/dram_peak.log")"
else
    say "CPU rows leave peak_bw_GBs empty: $(sed 's/^dram_peak: //' "$out/dram_peak.log");" \
        "set SUITE_PEAK_BW_GBS to the theoretical GB/s"
fi
rm -f "$out/dram_peak.log"

# Each step runs in the background, in a process group of its own (set -m): a signal, Ctrl-C at
# the terminal too, reaches this script alone and at once, and is passed on to the step as one
# SIGTERM (to its process group), on which it drops its unfinished case and exits 130.
set -m
step() { # step NAME COMMAND...: runs one step; stops the job on anything but success
    local rc
    current=$1
    shift
    case $current in stream-cpu#*) [ "$rounds" -gt 1 ] && say "CPU round ${current#*#} of $rounds" ;; esac
    "$@" &
    child=$!
    wait "$child"
    rc=$?
    child=''
    case $rc in
    0) done_steps+=("$current") ;;
    130) on_signal INT ;;
    *) # 4, not the step's own status: 1, 2 and 3 are the suite's own (build, input, folder)
        incomplete "$current failed with exit status $rc"
        say "$current failed (exit status $rc): $out is incomplete"
        exit 4
        ;;
    esac
}
# the measured peak before the user's arguments, where they do not give one
unless --peak-bw "${stream_cpu_args[@]}" && stream_cpu_args=("${cpu_peak[@]}" "${stream_cpu_args[@]}")
unless --peak-bw "${lbm_cpu_args[@]}" && lbm_cpu_args=("${cpu_peak[@]}" "${lbm_cpu_args[@]}")
gpu_rows() { # gpu_rows EXE CSV ARGS...: the GPU rows, added under the CPU rows of CSV
    local exe=$1 csv=$2
    shift 2
    # exec: the step's process is the executable itself, so the SIGTERM reaches it
    # its own meter: says for itself why it measures no energy
    LBMR_ENERGY_SAID=0 exec "$build/$exe" "$@" --append -o "$out/$csv"
}
# The first CPU step says why energy is not measured, if it is not; the later ones, on the same
# device, do not repeat it (common/energy.h): one line per run, not one per round.
unset LBMR_ENERGY_SAID
for s in "${steps[@]}"; do
    # round 1 creates the file (refusing one that exists); later rounds add their rows under it
    [ "${s#*#}" = 1 ] && to=(-o) || to=(--append -o)
    case ${s%#*} in
    stream-cpu) step "$s" "$build/stream-cpu" "${stream_cpu_args[@]}" "${to[@]}" "$out/stream.csv" ;;
    lbm-cpu) step "$s" "$build/lbm-cpu" "${lbm_cpu_args[@]}" "${to[@]}" "$out/lbm.csv" ;;
    stream-gpu) step "$s" gpu_rows stream-gpu stream.csv "${stream_gpu_args[@]}" ;;
    lbm-gpu) step "$s" gpu_rows lbm-gpu lbm.csv "${lbm_gpu_args[@]}" ;;
    roofline) step "$s" "$build/roofline" "$out/stream.csv" "$out/lbm.csv" --plot "$out/plots" -o "$out/roofline.csv" ;;
    summary) step "$s" "$build/roofline" --summary "$out/stream.csv" "$out/lbm.csv" -o "$out/summary.csv" ;;
    esac
    case $s in *-cpu#*) export LBMR_ENERGY_SAID=1 ;; esac
done
trap - INT TERM HUP
# The person at the terminal gets a short table; the results stay the CSV files.
"$build/roofline" --table "$out/stream.csv" "$out/lbm.csv" >&2 || say "roofline --table failed"
say "done: $out: stream.csv, lbm.csv, roofline.csv, summary.csv, plots/"
