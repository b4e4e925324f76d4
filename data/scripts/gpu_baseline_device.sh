#!/usr/bin/env bash
# gpu_baseline_device.sh VERSION: one device call that builds with CUDA and NVML into /tmp/b, runs
# ctest -L gpu, then writes the GPU state-hash baseline (tests/state_hashes_gpu.csv of this
# checkout) and runs the grid once more against it, to show the states repeat run to run.
# Logs go to $OUT (the device tool's return folder).
set -u
export LBMR_VERSION=$1
cd "$(dirname "$0")/../.."
nvidia-smi -q | head -40 >"$OUT/nvidia-smi.txt" 2>&1
H=""
# a copy of nvml.h, only where the toolkit has none (as data/scripts/energy_device.sh)
[ -f /usr/local/cuda/include/nvml.h ] || H="-DLBMR_NVML_INCLUDE=$PWD/.nvml/include"
rm -rf build /tmp/b
t=$SECONDS
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_NVML=ON $H \
    >"$OUT/build.log" 2>&1 &&
    cmake --build /tmp/b -j16 >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
grep NVML "$OUT/build.log"
echo "build: $((SECONDS - t)) s"

t=$SECONDS
(cd /tmp/b && timeout 200 ctest -L gpu --output-on-failure >"$OUT/ctest-gpu.log" 2>&1
    echo "ctest rc=$?"; grep -E "Test +#|tests passed|tests failed" "$OUT/ctest-gpu.log")
echo "ctest -L gpu: $((SECONDS - t)) s"

# The grid by hand needs the meter off as under ctest (tests/CMakeLists.txt sets LBMR_ENERGY=off
# for it): with NVML each case would otherwise last 1 s or more and its repetitions be raised,
# which changes the number of updates and so the state.
export LBMR_ENERGY=off
t=$SECONDS
timeout 150 bash tests/state_hash_grid.sh --update gpu /tmp/b/lbm-gpu >"$OUT/grid-update.log" 2>&1
echo "grid --update rc=$? $((SECONDS - t)) s"
cat "$OUT/grid-update.log"
cp tests/state_hashes_gpu.csv "$OUT/" 2>/dev/null
t=$SECONDS
timeout 120 bash tests/state_hash_grid.sh gpu /tmp/b/lbm-gpu >"$OUT/grid-check.log" 2>&1
echo "grid check rc=$? $((SECONDS - t)) s"
cat "$OUT/grid-check.log"
