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
# (SUITE_OFFLINE=1 skips them; on a machine without a network they give up after a minute.)
if [ -z "${SUITE_OFFLINE:-}" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    opt=()
    command -v gnuplot >/dev/null 2>&1 || opt+=(gnuplot-nox)
    [ -e /usr/include/likwid-marker.h ] || opt+=(likwid)
    if [ ${#opt[@]} -gt 0 ]; then
        { [ -n "$(ls /var/lib/apt/lists 2>/dev/null | grep -v lock)" ] || timeout 60 apt-get update -qq; } >/dev/null 2>&1
        DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -qq "${opt[@]}" >/dev/null 2>&1 ||
            say "could not install ${opt[*]} (optional): continuing without"
    fi
fi

gpu_present() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; }

say "building in $build"
# SUITE_CMAKE_ARGS: extra configure options, e.g. "-DLBMR_SANITIZE=ON -DLBMR_CUDA=OFF"
# shellcheck disable=SC2086
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release ${SUITE_CMAKE_ARGS:-} >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log" >&2; exit 1; }
grep -m1 'lbm-roofline-suite:' "$build.configure.log" | sed 's/^-- /suite: /' >&2
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build.build.log" 2>&1 ||
    { tail -40 "$build.build.log" >&2; exit 1; }

if [ "$mode" = test ]; then
    if gpu_present; then
        (cd "$build" && ctest --output-on-failure)
    else
        say "no GPU here: running the tests not labelled gpu"
        (cd "$build" && ctest --output-on-failure -LE gpu)
    fi
    exit $?
fi

# The main job. Threads are pinned unless the user chose otherwise.
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
out="$here/results/$(hostname)-$(date -u +%Y%m%dT%H%M%SZ)"
[ -e "$out" ] && { say "$out exists; not overwriting it"; exit 1; }
mkdir -p "$out"
say "results in $out"
# stream.csv and lbm.csv hold the CPU rows, then the GPU rows (one header each).
append() { tail -n +2 "$1" >>"$2" && rm "$1"; }
"$build/stream-cpu" -o "$out/stream.csv" || { say "stream-cpu failed"; exit 1; }
"$build/lbm-cpu" --size 64,128 --precision sp,dp -o "$out/lbm.csv" || { say "lbm-cpu failed"; exit 1; }
if [ -x "$build/stream-gpu" ] && gpu_present; then
    "$build/stream-gpu" -o "$out/stream-gpu.csv" || { say "stream-gpu failed"; exit 1; }
    append "$out/stream-gpu.csv" "$out/stream.csv"
    "$build/lbm-gpu" --size 128,256 --precision sp,dp -o "$out/lbm-gpu.csv" || { say "lbm-gpu failed"; exit 1; }
    append "$out/lbm-gpu.csv" "$out/lbm.csv"
else
    say "no GPU (or no CUDA build): CPU rows only"
fi
"$build/roofline" "$out/stream.csv" "$out/lbm.csv" --plot "$out/plots" -o "$out/roofline.csv" ||
    { say "roofline failed"; exit 1; }
"$build/roofline" --summary "$out/stream.csv" "$out/lbm.csv" -o "$out/summary.csv" ||
    { say "roofline --summary failed"; exit 1; }
say "done: $out: stream.csv, lbm.csv, roofline.csv, summary.csv, plots/"
