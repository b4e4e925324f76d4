#!/usr/bin/env bash
# fp16-gpu-device.sh [ROUNDS]: one device call that checks and times the 16-bit lattices (fp16s,
# fp16c) of lbm-gpu and the 2-byte element of stream-gpu. Builds this checkout with CUDA (and NVML
# where the headers are), runs `ctest -L gpu` (test_lbm_gpu checks every precision against the
# double reference), lbm-gpu on every fp16 kernel x collision x geometry at 64^3 (mass drift and
# non-finite values: the run's own verification), stream-gpu's 2-byte kernels with their checks,
# the one-line refusals (exit 2, no row), compute-sanitizer memcheck on small fp16s and fp16c
# cases, then ROUNDS (default 3) alternated rounds of lbm-gpu 256^3 pull/aa sp/fp16s/fp16c and
# stream-gpu copy sp/fp16s (LBMR_ENERGY=off). At most 8 files go to $OUT; summary.txt gives each
# case's rounds and fp16's floor, copy bandwidth / 76 B (19 loads + 19 stores of 2 bytes).
set -u
rounds=${1:-3}
cd "$(dirname "$0")/../.."
H=""
[ -f /usr/local/cuda/include/nvml.h ] || [ ! -d .nvml/include ] || H="-DLBMR_NVML_INCLUDE=$PWD/.nvml/include"
B=/tmp/fp16-build
C="$OUT/checks.txt"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv >"$OUT/env.txt"
git log -1 --format='commit %H %s' >>"$OUT/env.txt" 2>/dev/null
t=$SECONDS
{ cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON $H &&
    cmake --build $B -j16; } >"$OUT/build.log" 2>&1
[ -x $B/lbm-gpu ] && [ -x $B/stream-gpu ] || { tail -30 "$OUT/build.log"; exit 1; }
echo "build: $((SECONDS - t)) s, $(grep -ci warning "$OUT/build.log") lines with 'warning'" | tee -a "$C"

t=$SECONDS
(cd $B && timeout 300 ctest -L gpu --output-on-failure >"$OUT/ctest-gpu.log" 2>&1
    echo "ctest -L gpu rc=$?"; grep -E "tests passed|tests failed|\*\*\*Failed|Not Run" "$OUT/ctest-gpu.log") |
    tee -a "$C"
echo "ctest: $((SECONDS - t)) s" | tee -a "$C"

export LBMR_ENERGY=off
# verification: every row's check (mass drift within the 16-bit tolerance, no non-finite value);
# the exit status is nonzero when one fails. pull_aos as well, on one collision.
V="$OUT/verify.csv"
ck() { # ck LABEL COMMAND...: run, record rc and stderr's last lines
    local lab=$1; shift
    "$@" >>"$V" 2>/tmp/fp16-err.txt
    echo "$lab rc=$? $(grep -c 'VERIFICATION FAILED' /tmp/fp16-err.txt) failed; $(tail -1 /tmp/fp16-err.txt)" | tee -a "$C"
}
ck "lbm fp16 64^3 pull,aa x bgk,trt,mrt x cavity,channel,periodic" \
    timeout 300 $B/lbm-gpu --size 64 --precision fp16s,fp16c --kernel pull,aa \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 200 --reps 2 --warmup 1 --append -o "$V"
ck "lbm fp16 64^3 pull_aos" timeout 120 $B/lbm-gpu --size 64 --precision fp16s,fp16c \
    --kernel pull_aos --collision trt --geometry cavity,periodic --steps 200 --reps 2 --append -o "$V"
ck "lbm fp16 odd 37x29x23 block 96" timeout 120 $B/lbm-gpu --dims 37x29x23 --precision fp16s,fp16c \
    --kernel pull,aa --collision mrt --geometry channel --block 96 --steps 50 --reps 2 --append -o "$V"
ck "stream fp16s 2-byte kernels" timeout 120 $B/stream-gpu --size 3M --precision fp16s \
    --kernel copy,copy19,memcpy --ilp 1,4 --reps 3 --warmup 1 --append -o "$V"
ck "stream fp16s offsets, scalar" timeout 120 $B/stream-gpu --size 1M --precision fp16s \
    --kernel copy,copy19 --read-offset 0,1 --write-offset 0,3 --access scalar --reps 2 \
    --append -o "$V"
# refusals: exit 2, one line on stderr, no row on stdout
for args in "--kernel scale --precision fp16s" "--kernel triad --precision sp,fp16s" \
    "--kernel copy --precision fp16c"; do
    $B/stream-gpu --size 1M --reps 2 $args >/tmp/fp16-out.txt 2>/tmp/fp16-err.txt
    echo "refusal stream-gpu $args: rc=$? stdout $(wc -c </tmp/fp16-out.txt) bytes, stderr $(wc -l </tmp/fp16-err.txt) line(s): $(head -1 /tmp/fp16-err.txt)" | tee -a "$C"
done

for p in fp16s fp16c; do
    timeout 180 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lbm-gpu --size 24 \
        --kernel pull,aa,pull_aos --collision bgk,mrt --geometry cavity,periodic --precision $p \
        --steps 4 --reps 1 --warmup 1 -o /dev/null >/tmp/fp16-san.txt 2>&1
    echo "compute-sanitizer memcheck lbm-gpu $p rc=$? $(tail -1 /tmp/fp16-san.txt)" | tee -a "$C"
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/stream-gpu --size 64K \
    --precision fp16s --kernel copy,copy19 --reps 1 -o /dev/null >/tmp/fp16-san.txt 2>&1
echo "compute-sanitizer memcheck stream-gpu fp16s rc=$? $(tail -1 /tmp/fp16-san.txt)" | tee -a "$C"

# timing: alternated rounds, appended to one file per executable
for r in $(seq "$rounds"); do
    $B/stream-gpu --kernel copy --precision sp,fp16s --append -o "$OUT/time-stream.csv" 2>>/tmp/fp16-time.txt
    $B/lbm-gpu --size 256 --kernel pull,aa --precision sp,fp16s,fp16c --append -o "$OUT/time-lbm.csv" 2>>/tmp/fp16-time.txt
done
grep -E "FAILED|error" /tmp/fp16-time.txt | head -5 | tee -a "$C"

# per case: every round's value (lbm MFLUP/s, stream GB/s), the best, and for lbm the floor
# copy / 76 B (2-byte copy for fp16, 4-byte copy / 152 B for sp) and the best's share of it
awk -F, 'FNR==1{for(i=1;i<=NF;i++)c[$i]=i;next}
    {s=(FILENAME ~ /stream/); k=(s?"stream ":"lbm ") $c["kernel"] " " $c["precision"];
     v=s?$c["bw_prog_GBs"]:$c["mflups"]; x[k]=x[k] " " v; if(v>b[k])b[k]=v; keys[k]=1;
     if(s) cp[$c["precision"]]=(v>cp[$c["precision"]])?v:cp[$c["precision"]]}
    END{for(k in keys){split(k,q," "); line=sprintf("%-22s best %9.1f rounds:%s", k, b[k], x[k]);
        if(q[1]=="lbm"){p=q[3]; e=(p=="sp")?"sp":"fp16s"; by=(p=="sp")?152:76;
            if(cp[e]>0){f=cp[e]*1000/by; line=line sprintf(" | floor %s copy / %d B = %.0f MFLUP/s, %.1f%%", e, by, f, 100*b[k]/f)}}
        print line}}' "$OUT/time-stream.csv" "$OUT/time-lbm.csv" | sort | tee "$OUT/summary.txt"
