#!/usr/bin/env bash
# one device call: build, ctest -L gpu, stream copy and lbm 256^3 pull/aa sp/dp with energy
# ENERGY_DEVICE_QUICK=1: build only stream-gpu and lbm-gpu and skip ctest (the gpu tests run with
# LBMR_ENERGY=off, so repeats of the energy runs in one short call need neither)
set -u
QUICK=${ENERGY_DEVICE_QUICK:-0}
export LBMR_VERSION=$1
cd "$(dirname "$0")/../.."
{
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv
ls /usr/local/cuda/include/nvml.h /usr/local/cuda/lib64/stubs/ 2>&1; ldconfig -p | grep nvidia-ml
} > $OUT/env.txt 2>&1
H=""
[ -f /usr/local/cuda/include/nvml.h ] || H="-DLBMR_NVML_INCLUDE=$PWD/.nvml/include  # a copy of nvml.h, only where the toolkit has none"
rm -rf build
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_NVML=ON $H > $OUT/build.log 2>&1 &&
  if [ "$QUICK" = 1 ]; then cmake --build /tmp/b -j16 --target stream-gpu lbm-gpu; else cmake --build /tmp/b -j16; fi >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
grep NVML $OUT/build.log
[ "$QUICK" = 1 ] || (cd /tmp/b && timeout 150 ctest -L gpu --output-on-failure > $OUT/ctest-gpu.log 2>&1; tail -4 $OUT/ctest-gpu.log)
/tmp/b/stream-gpu --kernel copy --precision sp,dp -o $OUT/gpu-stream.csv 2> $OUT/stream.err; echo "stream rc=$?"
/tmp/b/lbm-gpu --size 256 --kernel pull,aa --precision sp,dp -o $OUT/gpu-lbm.csv 2> $OUT/lbm.err; echo "lbm rc=$?"
cat $OUT/stream.err $OUT/lbm.err | tr '\r' '\n' | grep -v "^\[" | tail -5
for f in $OUT/gpu-stream.csv $OUT/gpu-lbm.csv; do
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{printf "%s %s %s reps=%s steps=%s bw=%s mflups=%s E=%s P=%s polled=%s dev=%.2f%% mfW=%s gbW=%s sm=%s mem=%s ev=%s lim=%s idle=%s\n",$c["kernel"],$c["precision"],$c["nx"],$c["reps"],$c["steps"],$c["bw_prog_GBs"],$c["mflups"],$c["energy_J"],$c["power_W"],$c["energy_polled_J"],($c["energy_polled_J"]-$c["energy_J"])/$c["energy_J"]*100,$c["mflups_per_W"],$c["GBs_per_W"],$c["sm_clock_MHz"],$c["mem_clock_MHz"],$c["clock_events"],$c["power_limit_W"],$c["idle_power_W"]}' $f
done | tee $OUT/crosscheck.txt
