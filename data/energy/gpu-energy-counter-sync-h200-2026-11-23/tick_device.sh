#!/usr/bin/env bash
# device call 1: how often NVML's energy counter and instantaneous power change, idle and under
# stream-gpu copy (run from this folder's repository root: bash data/energy/<this>/tick_device.sh)
set -u
export LBMR_VERSION=tick
D="$(cd "$(dirname "$0")" && pwd)"
cd "$D/../../.."
nvidia-smi --query-gpu=name,driver_version,vbios_version,serial,power.limit,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.txt 2>&1
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_NVML=ON && cmake --build /tmp/b --target stream-gpu -j16) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
L=$(ldconfig -p | grep -o '/[^ ]*libnvidia-ml.so.1' | head -1)
gcc -O2 -std=gnu11 -o /tmp/tick "$D/nvml_tick.c" -I/usr/local/cuda/include $L || exit 1
/tmp/tick 1.5 1000 > $OUT/idle.csv
/tmp/b/stream-gpu --kernel copy --precision sp,dp -o $OUT/stream.csv 2> $OUT/stream.err &
/tmp/tick 7 1000 > $OUT/load.csv
wait
/tmp/b/stream-gpu --kernel copy --precision sp --reps 8000 -o $OUT/stream2.csv 2> $OUT/stream2.err &
sleep 2; /tmp/tick 2 200 > $OUT/load200.csv
wait
wc -l $OUT/*.csv; tail -3 $OUT/stream.err
