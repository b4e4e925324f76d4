#!/usr/bin/env bash
# fp16c-fast-device.sh BASE_SRC BASE_VERSION NEW_VERSION [ROUNDS]: one device call that checks the
# branch-free 16-bit conversions of lbm/model/storage16.h on the GPU and times them against a
# build of BASE_SRC (the code before them). Builds this checkout (lbm-gpu, stream-gpu, test_lbm_gpu
# and csv_check: what `ctest -L gpu` needs) and BASE_SRC (lbm-gpu) side by side; the final
# state_hash of both builds on a grid of small fp16s/fp16c cases (bit-identical conversions: the
# same states expected); ROUNDS (default 3) alternated rounds of lbm-gpu 256^3 pull,aa x
# sp,fp16s,fp16c (base, then new) and stream-gpu copy sp,fp16s (LBMR_ENERGY=off); then `ctest -L
# gpu`, lbm-gpu's fp16s/fp16c verification grid (64^3, every kernel x collision x geometry; an odd
# box) and compute-sanitizer memcheck on a small fp16c case. Timing comes before the checks, which
# a call cut off at its limit can best lose (the hashes already say whether the states moved).
# At most 8 files go to $OUT; summary.txt gives each case's rounds, its best, its share of the
# floor (2-byte copy / 76 B; sp: 4-byte copy / 152 B) and fp16c / fp16s per build and kernel.
set -u
base=$(cd "$1" && pwd) base_version=$2 new_version=$3 rounds=${4:-3}
cd "$(dirname "$0")/../.."
B=/tmp/fp16c-new O=/tmp/fp16c-base C="$OUT/checks.txt"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv >"$OUT/env.txt"
echo "new: $new_version; base: $base_version ($base)" >>"$OUT/env.txt"
t=$SECONDS
cfg="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON"
# LBMR_VERSION for the whole build (cmake/version.cmake reads it when it builds, not at configure):
# the rows' version column tells the builds apart
(export LBMR_VERSION=$new_version; cmake -S . -B $B $cfg &&
    cmake --build $B -j16 --target lbm-gpu stream-gpu test_lbm_gpu csv_check) >/tmp/build-new.log 2>&1 &
(export LBMR_VERSION=$base_version; cmake -S "$base" -B $O $cfg && cmake --build $O -j16 --target lbm-gpu) \
    >/tmp/build-base.log 2>&1 &
wait
for l in new base; do
    echo "build $l: $(grep -ci warning /tmp/build-$l.log) lines with 'warning'" | tee -a "$C"
done
echo "builds: $((SECONDS - t)) s" | tee -a "$C"
[ -x $B/lbm-gpu ] && [ -x $B/stream-gpu ] && [ -x $O/lbm-gpu ] ||
    { tail -20 /tmp/build-new.log /tmp/build-base.log | tee -a "$C"; exit 1; }

export LBMR_ENERGY=off
# the final states of both builds: 10 updates (2 warm-up, 8 timed), every kernel, collision and
# geometry on two small boxes; the conversions give the same bits, so the same states
H="$OUT/hashes.csv"
for b in $O $B; do
    timeout 120 $b/lbm-gpu --dims 17x9x6,33x7x5 --precision fp16s,fp16c --kernel pull,aa,pull_aos \
        --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 8 --warmup 2 --reps 1 \
        --append -o "$H" 2>>/tmp/fp16-hash.txt || echo "hash run $b failed" | tee -a "$C"
done
awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}
    {k=$c["kernel"] " " $c["collision"] " " $c["geometry"] " " $c["precision"] " " $c["nx"] "x" $c["ny"] "x" $c["nz"];
     v=$c["version"]; h[k, v]=$c["state_hash"]; keys[k]=1; vs[v]=1}
    END{n=0; same=0; for(k in keys){n++; m=0; for(v in vs){if(!m){f=h[k, v]; m=1} else if(h[k, v]==f && f!="") same++}}
        printf "state_hash base vs new (fp16s,fp16c, 2 boxes x 3 kernels x 3 collisions x 3 geometries): %d of %d cases identical\n", same, n}' \
    "$H" | tee -a "$C"

# timing: alternated rounds, base then new, appended to one file per executable
t=$SECONDS
for r in $(seq "$rounds"); do
    for b in $O $B; do
        $b/lbm-gpu --size 256 --kernel pull,aa --precision sp,fp16s,fp16c --reps 5 \
            --append -o "$OUT/time-lbm.csv" 2>>/tmp/fp16-time.txt
    done
    $B/stream-gpu --kernel copy --precision sp,fp16s --append -o "$OUT/time-stream.csv" 2>>/tmp/fp16-time.txt
done
echo "timing: $((SECONDS - t)) s" | tee -a "$C"
grep -E "FAILED|error" /tmp/fp16-time.txt | head -5 | tee -a "$C"

t=$SECONDS
(cd $B && timeout 200 ctest -L gpu --output-on-failure >"$OUT/ctest-gpu.log" 2>&1
    echo "ctest -L gpu rc=$?"; grep -E "tests passed|tests failed|\*\*\*Failed|Not Run" "$OUT/ctest-gpu.log") |
    tee -a "$C"
echo "ctest: $((SECONDS - t)) s" | tee -a "$C"

V="$OUT/verify.csv"
ck() { # ck LABEL COMMAND...: run, record rc and stderr's last line
    local lab=$1; shift
    "$@" >>"$V" 2>/tmp/fp16-err.txt
    echo "$lab rc=$? $(grep -c 'VERIFICATION FAILED' /tmp/fp16-err.txt) failed; $(tail -1 /tmp/fp16-err.txt)" | tee -a "$C"
}
ck "lbm fp16 64^3 pull,aa,pull_aos x bgk,trt,mrt x cavity,channel,periodic" \
    timeout 200 $B/lbm-gpu --size 64 --precision fp16s,fp16c --kernel pull,aa,pull_aos \
    --collision bgk,trt,mrt --geometry cavity,channel,periodic --steps 100 --reps 2 --warmup 1 --append -o "$V"
ck "lbm fp16 odd 37x29x23 block 96" timeout 60 $B/lbm-gpu --dims 37x29x23 --precision fp16s,fp16c \
    --kernel pull,aa --collision mrt --geometry channel --block 96 --steps 50 --reps 2 --append -o "$V"

timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/lbm-gpu --size 24 \
    --kernel pull,aa,pull_aos --collision bgk,mrt --geometry cavity,periodic --precision fp16c \
    --steps 4 --reps 1 --warmup 1 -o /dev/null >/tmp/fp16-san.txt 2>&1
echo "compute-sanitizer memcheck lbm-gpu fp16c rc=$? $(tail -1 /tmp/fp16-san.txt)" | tee -a "$C"

# per build and case: every round's value (lbm MFLUP/s, stream GB/s), the best, the floor (copy /
# 76 B for the 16-bit lattices, 4-byte copy / 152 B for sp) and the best's share of it; then
# fp16c's best over fp16s's per build and kernel
awk -F, -v nv="$new_version" 'FNR==1{for(i=1;i<=NF;i++)c[$i]=i;next}
    {s=(FILENAME ~ /stream/); b=s?"":(($c["version"]==nv)?"new ":"base ");
     k=(s?"stream ":"lbm ") b $c["kernel"] " " $c["precision"];
     v=s?$c["bw_prog_GBs"]:$c["mflups"]; x[k]=x[k] " " v; if(v>best[k])best[k]=v; keys[k]=1;
     if(s) cp[$c["precision"]]=(v>cp[$c["precision"]])?v:cp[$c["precision"]]}
    END{for(k in keys){n=split(k,q," "); line=sprintf("%-26s best %9.1f rounds:%s", k, best[k], x[k]);
        if(q[1]=="lbm"){p=q[4]; e=(p=="sp")?"sp":"fp16s"; by=(p=="sp")?152:76;
            if(cp[e]>0){f=cp[e]*1000/by; line=line sprintf(" | floor %s copy / %d B = %.0f MFLUP/s, %.1f%%", e, by, f, 100*best[k]/f)}
            if(p=="fp16c") line=line sprintf(" | fp16c/fp16s %.3f", best[k]/best["lbm " q[2] " " q[3] " fp16s"])}
        print line}}' "$OUT/time-stream.csv" "$OUT/time-lbm.csv" | sort | tee "$OUT/summary.txt"
