#!/usr/bin/env bash
# gpu_same_state.sh LBM_GPU: the GPU kernels that take two cells a thread or split a cell's work
# across lanes end in the same states as those that do not; state_hash does not depend on the
# layout or the block, so for every case (kernel, collision, geometry, precision, domain) the rows
# must agree.
# - aa, sp and 16-bit: the cell-local half two cells a thread in words of two values (lbm-gpu,
#   where every row's pitch and the direction stride are even) against the one-cell kernels, which lbm-gpu runs where
#   the pitch is odd (--align 0, nx + pad odd); --block 32 as well (partial warps at the row's end).
# - aa, sp and dp: the neighbour half's x-moving values staged in shared memory for the lane at
#   their destination, blocks of 32, 64 and 96 threads (values crossing a block's end go out from
#   their own lane) against the default 256; aa's blocks run over a plane's rows across their ends,
#   so both hold several rows, their padding and row ends at any lane.
# - pull, sp and fp16s: two cells a thread in words of two values (even nx and pitch) against one
#   cell a thread (odd pitch), nx = 2 (both x ends in one pair) and 6 among them, --block 32 too.
# - pull and aa, every precision above: the 19 arrays (--layout soa) against the default, a cell
#   row's 19 direction rows side by side.
# Odd and even nx (a row's last cell alone), walls and periodic x ends, three collisions.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LBMR_ENERGY=off
col() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
# run NAME DIMS OPTIONS...: the grid's cases on DIMS, appended to NAME.csv (pull* names: pull)
run() {
    local name=$1 dims=$2 app="" prec=sp,fp16s,fp16c kernel=aa
    shift 2
    case $name in wide* | narrow*) prec=sp,dp ;; pull*) prec=sp,fp16s kernel=pull ;; esac
    [ -f "$tmp/$name.csv" ] && app=--append
    "$bin" --dims "$dims" --kernel $kernel --precision "$prec" --collision bgk,trt,mrt \
        --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 8 "$@" $app \
        -o "$tmp/$name.csv" 2>"$tmp/$name.err" ||
        { tail -5 "$tmp/$name.err" >&2; echo "gpu_same_state: $name run failed" >&2; exit 1; }
}
odd=17x9x6 even=20x9x6,64x8x8,96x6x5
run pairs $odd --pad 0 --align 32 && run pairs $even --pad 0 --align 32
run pairs32 $odd --pad 0 --align 32 --block 32 && run pairs32 $even --pad 0 --align 32 --block 32
# odd pitches (nx + pad odd, no alignment): the one-cell kernels
run single $odd --pad 2 --align 0 && run single $even --pad 3 --align 0
# sp and dp: the default block (256 threads) against blocks of 32, 64 and 96 threads
run wide $odd && run wide $even
for b in 32 64 96; do run narrow$b $odd --block $b && run narrow$b $even --block $b; done
# pull: even pitches (two cells a thread where nx is even too) against odd ones (one cell)
pdims=$odd,$even,2x6x5,6x4x3
run pullpairs $pdims --pad 0 --align 32 && run pullpairs32 $pdims --pad 0 --align 32 --block 32
run pullsingle $pdims --pad 3 --align 0
# the 19 arrays against the interleaved rows
run pairssoa $odd --pad 0 --align 32 --layout soa && run pairssoa $even --pad 0 --align 32 --layout soa
run widesoa $odd --layout soa && run widesoa $even --layout soa
run pullsoa $pdims --pad 0 --align 32 --layout soa
for name in pairs pairs32 single wide narrow32 narrow64 narrow96 pullpairs pullpairs32 pullsingle \
    pairssoa widesoa pullsoa; do
    paste -d' ' <(col kernel "$tmp/$name.csv") <(col collision "$tmp/$name.csv") \
        <(col geometry "$tmp/$name.csv") <(col precision "$tmp/$name.csv") \
        <(col nx "$tmp/$name.csv") <(col ny "$tmp/$name.csv") <(col nz "$tmp/$name.csv") \
        <(col state_hash "$tmp/$name.csv") <(col verified "$tmp/$name.csv") > "$tmp/$name.txt"
    if grep -qv ' pass$' "$tmp/$name.txt"; then
        echo "gpu_same_state: a $name row failed its verification" >&2
        exit 1
    fi
done
bad=0
# same REFERENCE NAME...: each NAME's rows against REFERENCE's
same() {
    local ref=$1 name
    shift
    for name in "$@"; do
        if ! diff <(cut -d' ' -f1-9 "$tmp/$ref.txt") <(cut -d' ' -f1-9 "$tmp/$name.txt") > "$tmp/diff"; then
            echo "gpu_same_state: $name rows differ from the $ref rows (case ... state_hash verified):" >&2
            head -10 "$tmp/diff" >&2
            bad=1
        fi
    done
}
same single pairs pairs32 pairssoa
same wide narrow32 narrow64 narrow96 widesoa
same pullsingle pullpairs pullpairs32 pullsoa
n=$(wc -l < "$tmp/single.txt") w=$(wc -l < "$tmp/wide.txt") p=$(wc -l < "$tmp/pullsingle.txt")
[ "$n" -ge 108 ] && [ "$w" -ge 72 ] && [ "$p" -ge 90 ] ||
    { echo "gpu_same_state: only $n aa paired, $w aa sp/dp and $p pull rows" >&2; exit 1; }
[ $bad = 0 ] && echo "gpu_same_state: aa: $n sp/16-bit cases, the paired and the one-cell kernels end in the same states, $w sp/dp cases the same with blocks of 32, 64 and 96 threads as with the default block; pull: $p sp/fp16s cases, two cells a thread as one; each as in 19 arrays (--layout soa)"
exit $bad
