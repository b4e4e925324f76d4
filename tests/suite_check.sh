#!/usr/bin/env bash
# suite_check.sh SUITE BUILD CSV_CHECK: the main job as a person meets it, on tiny domains:
# a whole run (results, the table on the terminal, the CPU peak bandwidth in the rows, the CPU
# steps in alternated rounds adding to one file each, energy's note said once, a moving cpu clock
# flagged), a failing step (exit 4, the step and its own status named), then SIGINT, SIGTERM and
# SIGHUP in the middle of a step, of the first round and of a later one, and during the DRAM peak
# reading before the first step (exit 130 within seconds, "interrupted", an INCOMPLETE file naming
# the missing steps, no step left running, only complete rows left), and the DRAM peak reader on
# recorded memory tables.
set -u
suite=$1 build=$2 check=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# two threads, or one where this process may use one CPU (the executables refuse more)
export SUITE_SKIP_BUILD=1 SUITE_OFFLINE=1 BUILD_DIR=$build OMP_NUM_THREADS=$(($(nproc) < 2 ? 1 : 2))
quick=(SUITE_STREAM_CPU_ARGS="--size 1M --reps 3 --warmup 1 --kernel copy,copy_nt"
    SUITE_LBM_CPU_ARGS="--size 16 --steps 2 --reps 2 --warmup 1 --kernel pull,aa"
    SUITE_STREAM_GPU_ARGS="--size 1M --reps 3 --warmup 1" SUITE_LBM_GPU_ARGS="--size 16 --steps 2 --reps 2")

# 1. A whole run in three CPU rounds. A peak bandwidth given by the user lands in every CPU row.
# The probe's clock readings are scripted (cpu/cpu_clock.h's test hook) to move in every process:
# the table on the terminal must say so.
env "${quick[@]}" SUITE_ROUNDS=3 SUITE_RESULTS="$tmp/a" SUITE_PEAK_BW_GBS=123.5 \
    LBMR_CLOCK_FAKE=3600,3600,1900,3600 bash "$suite" >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
cat "$tmp/a.err"
[ $rc -eq 0 ] || fail "the main job exited $rc"
[ -s "$tmp/a.out" ] && fail "the main job wrote to stdout"
dir=$(ls -d "$tmp"/a/*/) || fail "no results folder"
for f in stream.csv lbm.csv roofline.csv summary.csv; do [ -s "$dir/$f" ] || fail "no $f"; done
[ -e "$dir/INCOMPLETE" ] && fail "a finished run is marked INCOMPLETE"
"$check" "$dir/stream.csv" --bench stream || fail "stream.csv rows"
"$check" "$dir/lbm.csv" --bench lbm || fail "lbm.csv rows"
col=$(head -1 "$dir/stream.csv" | tr ',' '\n' | grep -nx peak_bw_GBs | cut -d: -f1)
vals=$(tail -n +2 "$dir/stream.csv" | cut -d, -f"$col" | sort -u)
[ "$vals" = 123.5 ] || fail "peak_bw_GBs in stream.csv is '$vals', expected 123.5"
grep -q 'SUITE_PEAK_BW_GBS' "$tmp/a.err" || fail "the run does not say where the peak came from"
grep -qi 'copy' "$tmp/a.err" && grep -q '%' "$tmp/a.err" || fail "no result table on stderr"
# each round a process of its own, its rows under the one header: every case thrice
grep -q 'CPU round 3 of 3' "$tmp/a.err" || fail "the run does not say which round it is in"
# why energy is not measured (ctest: LBMR_ENERGY=off) is said once per run, not once per step
n=$(grep -c 'energy not measured' "$tmp/a.err")
[ "$n" -eq 1 ] || fail "'energy not measured' said $n times in one run"
grep -q 'cpu clock moved 1900-3600 MHz during the run' "$tmp/a.err" ||
    fail "the terminal table does not say that the cpu clock moved"
for f in stream lbm; do
    [ "$(grep -c '^schema,' "$dir/$f.csv")" -eq 1 ] || fail "$f.csv: more than one header"
    twice=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n[$c["kernel"] "," $c["precision"] "," $c["nx"]]++ } END { for (k in n) if (n[k] != 3) bad++; print (bad ? "no" : "yes") }' "$dir/$f.csv")
    [ "$twice" = yes ] || fail "$f.csv: not every case measured once per round"
done
"$check" "$dir/stream.csv" --bench stream && "$check" "$dir/lbm.csv" --bench lbm || fail "the rounds' rows"
rc_col=$(head -1 "$dir/summary.csv" | tr ',' '\n' | grep -nx rounds_sp | cut -d: -f1)
[ "$(tail -1 "$dir/summary.csv" | cut -d, -f"$rc_col")" = 3 ] || fail "summary.csv: rounds_sp is not 3"
# a number of rounds that is not one: exit 2, one line, no results folder
for bad in 0 two -1 03; do
    SUITE_ROUNDS=$bad SUITE_RESULTS="$tmp/bad" bash "$suite" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && grep -q "SUITE_ROUNDS='$bad'" "$tmp/e" && [ ! -e "$tmp/bad" ] ||
        fail "SUITE_ROUNDS='$bad': exit $rc, $(cat "$tmp/e")"
done

# arguments an executable refuses: exit 2 before any step, the variable and the line named, no
# results folder
env "${quick[@]}" SUITE_LBM_CPU_ARGS="--size 48x" SUITE_RESULTS="$tmp/typo" bash "$suite" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] && grep -q "SUITE_LBM_CPU_ARGS: lbm-cpu: error: --size: '48x'" "$tmp/e" && [ ! -e "$tmp/typo" ] ||
    fail "SUITE_LBM_CPU_ARGS='--size 48x': exit $rc, folder $([ -e "$tmp/typo" ] && echo made || echo none), $(cat "$tmp/e")"

# A step that fails (a stand-in lbm-cpu exiting 1, as on a failed verification): exit 4, not the
# step's own 1, which would read as "the build failed"; its own status is named on stderr and in
# INCOMPLETE.
broken=$tmp/brokenbuild
mkdir -p "$broken"
for e in stream-cpu roofline; do ln -s "$build/$e" "$broken/$e"; done
printf '#!/bin/sh\ncase "$*" in *--check*) exit 0 ;; esac\necho "lbm-cpu: stand-in: a case failed verification" >&2\nexit 1\n' >"$broken/lbm-cpu"
chmod +x "$broken/lbm-cpu"
env "${quick[@]}" BUILD_DIR="$broken" SUITE_ROUNDS=1 SUITE_RESULTS="$tmp/broken" bash "$suite" 2>"$tmp/broken.err"
rc=$?
cat "$tmp/broken.err"
[ $rc -eq 4 ] || fail "a failing step: exit status $rc, expected 4"
grep -q 'lbm-cpu#1 failed (exit status 1)' "$tmp/broken.err" || fail "a failing step: stderr does not name it and its status"
dir=$(ls -d "$tmp"/broken/*/)
grep -q '^lbm-cpu#1 failed with exit status 1$' "$dir/INCOMPLETE" && grep -q '^missing: lbm-cpu#1 roofline summary$' "$dir/INCOMPLETE" ||
    { cat "$dir/INCOMPLETE"; fail "a failing step: INCOMPLETE does not name it, its status and what is missing"; }

# 2. Interrupted in the middle of lbm-cpu: SIGINT to the script's process group, as Ctrl-C at
# a terminal sends it, SIGTERM to the script alone, and SIGHUP to the script alone, as a closed
# terminal or a dropped ssh connection sends it (the step, in a process group of its own, gets none).
for sig in INT TERM HUP; do
    env "${quick[@]}" SUITE_RESULTS="$tmp/$sig" \
        SUITE_LBM_CPU_ARGS="--size 8:64:4 --collision bgk,trt,mrt --steps 20 --reps 3" \
        setsid env --default-signal=INT bash "$suite" 2>"$tmp/$sig.err" &
    pid=$! # setsid execs (no fork) in a background job: the job leads its own process group
    for _ in $(seq 600); do # the first lbm row, at most 60 s
        f=$(ls "$tmp/$sig"/*/lbm.csv 2>/dev/null) && [ "$(wc -l <"$f")" -ge 2 ] && break
        sleep 0.1
    done
    [ -n "${f:-}" ] || fail "SIG$sig: lbm-cpu never wrote a row"
    t0=$(date +%s%N)
    if [ $sig = INT ]; then kill -INT -- "-$pid"; else kill -"$sig" "$pid"; fi
    wait "$pid"
    rc=$?
    t=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
    cat "$tmp/$sig.err"
    # the step writes into the results folder: its command line names it
    left=$(pgrep -f "$tmp/$sig/") && { xargs kill <<<"$left"; fail "SIG$sig: lbm-cpu left running after the job stopped"; }
    [ $rc -eq 130 ] || fail "SIG$sig: exit status $rc, expected 130"
    grep -q 'interrupted' "$tmp/$sig.err" || fail "SIG$sig: no 'interrupted' on stderr"
    grep -q 'failed' "$tmp/$sig.err" && fail "SIG$sig: an interrupt reported as a failure"
    dir=$(dirname "$f")
    [ -s "$dir/INCOMPLETE" ] || fail "SIG$sig: no INCOMPLETE file"
    grep -q "by SIG$sig during lbm-cpu" "$dir/INCOMPLETE" && grep -q 'missing: lbm-cpu.*roofline summary' "$dir/INCOMPLETE" ||
        { cat "$dir/INCOMPLETE"; fail "SIG$sig: INCOMPLETE does not name what is missing"; }
    "$check" "$dir/lbm.csv" --bench lbm || fail "SIG$sig: the rows left are not all complete"
    echo "suite: SIG$sig stopped the job in $t s"
    awk -v t="$t" 'BEGIN { exit !(t < 5) }' || fail "SIG$sig: the job took $t s to stop"
done

# Interrupted while the DRAM peak is read, before the first step (a stand-in dmidecode that
# takes a second): the results folder exists already, so it gets its INCOMPLETE file.
mkdir -p "$tmp/dmibin"
printf '#!/bin/sh\ntouch "%s"\nsleep 1\ncat "%s"\n' "$tmp/dmi.started" "$here/dmidecode/ddr5-8ch.txt" >"$tmp/dmibin/dmidecode"
chmod +x "$tmp/dmibin/dmidecode"
env -u SUITE_PEAK_BW_GBS "${quick[@]}" PATH="$tmp/dmibin:$PATH" SUITE_RESULTS="$tmp/dram" bash "$suite" 2>"$tmp/dram.err" &
pid=$!
for _ in $(seq 100); do [ -e "$tmp/dmi.started" ] && break; sleep 0.1; done
[ -e "$tmp/dmi.started" ] || { cat "$tmp/dram.err"; fail "the DRAM peak was never read"; }
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$tmp/dram.err"
[ $rc -eq 130 ] || fail "SIGTERM during dram_peak: exit status $rc, expected 130"
dir=$(ls -d "$tmp"/dram/*/)
grep -q 'during dram_peak' "$dir/INCOMPLETE" && grep -q '^finished: none$' "$dir/INCOMPLETE" &&
    grep -q '^missing: stream-cpu#1 lbm-cpu#1 .*roofline summary$' "$dir/INCOMPLETE" ||
    { cat "$dir/INCOMPLETE"; fail "SIGTERM during dram_peak: INCOMPLETE does not name it and what is missing"; }
[ -e "$dir/stream.csv" ] && fail "SIGTERM during dram_peak: a step ran after it"

# Interrupted in the second round's lbm-cpu: a stand-in lbm-cpu runs the quick case in round 1
# and a long sweep once it appends (round 2 on). The rows of round 1 and the finished ones of
# round 2 stay, complete; INCOMPLETE names the round.
late=$tmp/latebuild
mkdir -p "$late"
for e in stream-cpu roofline; do ln -s "$build/$e" "$late/$e"; done
cat >"$late/lbm-cpu" <<EOF
#!/usr/bin/env bash
case " \$* " in *" --append "*)
    exec "$build/lbm-cpu" --size 8:64:4 --collision bgk,trt,mrt --steps 20 --reps 3 --kernel pull,aa --append -o "\${@: -1}" ;;
esac
exec "$build/lbm-cpu" "\$@"
EOF
chmod +x "$late/lbm-cpu"
env "${quick[@]}" BUILD_DIR="$late" SUITE_ROUNDS=3 SUITE_RESULTS="$tmp/late" \
    setsid env --default-signal=INT bash "$suite" 2>"$tmp/late.err" &
pid=$!
for _ in $(seq 600); do # a row of round 2 (round 1 writes 4: pull and aa, sp and dp), at most 60 s
    f=$(ls "$tmp/late"/*/lbm.csv 2>/dev/null) && [ "$(wc -l <"$f")" -ge 6 ] && break
    sleep 0.1
done
[ "$(wc -l <"$f" 2>/dev/null || echo 0)" -ge 6 ] || { cat "$tmp/late.err"; fail "round 2 of lbm-cpu never wrote a row"; }
kill -INT -- "-$pid"
wait "$pid"
rc=$?
cat "$tmp/late.err"
[ $rc -eq 130 ] || fail "SIGINT in round 2: exit status $rc, expected 130"
dir=$(dirname "$f")
grep -q 'during lbm-cpu#2' "$dir/INCOMPLETE" && grep -q '^finished: stream-cpu#1 lbm-cpu#1 stream-cpu#2$' "$dir/INCOMPLETE" &&
    grep -q '^missing: lbm-cpu#2 stream-cpu#3 lbm-cpu#3 roofline summary$' "$dir/INCOMPLETE" ||
    { cat "$dir/INCOMPLETE"; fail "SIGINT in round 2: INCOMPLETE does not name the round and what is missing"; }
[ "$(grep -c '^schema,' "$f")" -eq 1 ] || fail "SIGINT in round 2: more than one header"
"$check" "$f" --bench lbm || fail "SIGINT in round 2: the rows left are not all complete"
"$build/roofline" --summary "$dir/stream.csv" "$f" >/dev/null || fail "SIGINT in round 2: roofline cannot read the rows left"

# The GPU steps, run by stand-ins (the CPU executables under the GPU names, a stand-in
# nvidia-smi): their rows are appended under the CPU rows, and a signal during lbm-gpu stops the
# executable itself, not only the shell around it (no process left behind).
fake=$tmp/fakebuild
mkdir -p "$fake/bin"
for e in stream-cpu lbm-cpu roofline; do ln -s "$build/$e" "$fake/$e"; done
ln -s "$build/stream-cpu" "$fake/stream-gpu"
ln -s "$build/lbm-cpu" "$fake/lbm-gpu"
printf '#!/bin/sh\necho "GPU 0: stand-in"\n' >"$fake/bin/nvidia-smi"
chmod +x "$fake/bin/nvidia-smi"
env "${quick[@]}" SUITE_ROUNDS=1 PATH="$fake/bin:$PATH" BUILD_DIR="$fake" SUITE_RESULTS="$tmp/g" \
    SUITE_LBM_GPU_ARGS="--size 8:64:4 --collision bgk,trt,mrt --steps 20 --reps 3" \
    setsid bash "$suite" 2>"$tmp/g.err" &
pid=$!
# the step writes into the results folder (its -o names it), the arguments' --check does not
step_gpu="$fake/lbm-gpu.*$tmp/g/"
for _ in $(seq 600); do # the stand-in lbm-gpu running, at most 60 s
    pgrep -f "$step_gpu" >/dev/null && break
    sleep 0.1
done
pgrep -f "$step_gpu" >/dev/null || { cat "$tmp/g.err"; fail "the GPU steps never started"; }
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$tmp/g.err"
[ $rc -eq 130 ] || fail "GPU step: exit status $rc, expected 130"
sleep 0.2
pgrep -f "$fake/lbm-gpu" >/dev/null && { pkill -f "$fake/lbm-gpu"; fail "lbm-gpu left running after the job stopped"; }
dir=$(ls -d "$tmp"/g/*/)
grep -q 'during lbm-gpu' "$dir/INCOMPLETE" || fail "GPU step: INCOMPLETE does not name lbm-gpu"
[ "$(grep -c '^schema,' "$dir/stream.csv")" -eq 1 ] && [ "$(wc -l <"$dir/stream.csv")" -gt 3 ] ||
    fail "the stream-gpu rows are not appended under one header"
"$check" "$dir/lbm.csv" --bench lbm || fail "GPU step: the rows left are not all complete"

# 3. The DRAM peak from memory tables (modules x MT/s x bytes per transfer).
expect() { # expect FILE VALUE
    got=$(bash "$here/../common/dram_peak.sh" "$here/dmidecode/$1" 2>/dev/null)
    [ "$got" = "$2" ] || fail "dram_peak $1: '$got', expected '$2'"
}
expect ddr5-8ch.txt 281.6      # 8 populated of 16 slots, configured 4400 MT/s, 64-bit
expect ddr4-old-mhz.txt 38.4   # old dmidecode: "Configured Clock Speed: 2400 MHz"
expect vm-empty.txt ''         # a VM's table without speeds: nothing, exit 1
bash "$here/../common/dram_peak.sh" "$here/dmidecode/vm-empty.txt" 2>/dev/null && fail "dram_peak: exit 0 without a speed"
echo "suite_check: passed"
