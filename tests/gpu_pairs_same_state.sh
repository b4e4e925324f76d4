#!/usr/bin/env bash
# gpu_pairs_same_state.sh LBM_GPU: the 16-bit kernels that take two cells a thread in 4-byte words
# (lbm-gpu, where every row's pitch and the direction stride are even) end in the same state as
# the one-cell kernels, which lbm-gpu runs where the pitch is odd (--align 0, nx + pad odd).
# state_hash does not depend on the layout, so for every case (kernel, collision, geometry,
# precision, domain) the rows must agree. Odd and even nx (a row's last cell alone), walls and periodic
# x ends, both 16-bit formats; --block 32 as well (partial warps at the row's end).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LBMR_ENERGY=off
col() { awk -v want="$1" -f "$(dirname "$0")/csv_column.awk" "$2"; }
# run NAME DIMS OPTIONS...: the grid's cases on DIMS, appended to NAME.csv
run() {
    local name=$1 dims=$2 app=""
    shift 2
    [ -f "$tmp/$name.csv" ] && app=--append
    "$bin" --dims "$dims" --kernel aa --precision fp16s,fp16c --collision bgk,trt,mrt \
        --geometry cavity,channel,periodic --warmup 2 --reps 1 --steps 8 "$@" $app \
        -o "$tmp/$name.csv" 2>"$tmp/$name.err" ||
        { tail -5 "$tmp/$name.err" >&2; echo "gpu_pairs_same_state: $name run failed" >&2; exit 1; }
}
odd=17x9x6 even=20x9x6,64x8x8,96x6x5
run pairs $odd --pad 0 --align 32 && run pairs $even --pad 0 --align 32
run pairs32 $odd --pad 0 --align 32 --block 32 && run pairs32 $even --pad 0 --align 32 --block 32
# odd pitches (nx + pad odd, no alignment): the one-cell kernels
run single $odd --pad 2 --align 0 && run single $even --pad 3 --align 0
for name in pairs pairs32 single; do
    paste -d' ' <(col kernel "$tmp/$name.csv") <(col collision "$tmp/$name.csv") \
        <(col geometry "$tmp/$name.csv") <(col precision "$tmp/$name.csv") \
        <(col nx "$tmp/$name.csv") <(col ny "$tmp/$name.csv") <(col nz "$tmp/$name.csv") \
        <(col state_hash "$tmp/$name.csv") <(col verified "$tmp/$name.csv") > "$tmp/$name.txt"
    if grep -qv ' pass$' "$tmp/$name.txt"; then
        echo "gpu_pairs_same_state: a $name row failed its verification" >&2
        exit 1
    fi
done
bad=0
for name in pairs pairs32; do
    if ! diff <(cut -d' ' -f1-9 "$tmp/single.txt") <(cut -d' ' -f1-9 "$tmp/$name.txt") > "$tmp/diff"; then
        echo "gpu_pairs_same_state: $name rows differ from the one-cell rows (case ... state_hash verified):" >&2
        head -10 "$tmp/diff" >&2
        bad=1
    fi
done
n=$(wc -l < "$tmp/single.txt")
[ "$n" -ge 72 ] || { echo "gpu_pairs_same_state: only $n rows" >&2; exit 1; }
[ $bad = 0 ] && echo "gpu_pairs_same_state: $n cases, the paired and the one-cell kernels end in the same states"
exit $bad
