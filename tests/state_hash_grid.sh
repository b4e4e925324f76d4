#!/usr/bin/env bash
# state_hash_grid.sh [--update] [--subset] [--unfused] [--mpiexec MPIEXEC] [gpu] LBM
#
# The safety net for changes that must not change the arithmetic (restructuring, renaming,
# moving code): runs LBM (lbm-cpu, or lbm-gpu with `gpu`) over a fixed grid of small cases and
# compares the final state_hash of every one with a committed baseline, tests/state_hashes.csv
# (tests/state_hashes_gpu.csv with `gpu`). Any changed, missing or extra configuration fails
# (exit 1) and is named on stderr.
#
# The grid, few processes with many rows each: every kernel of the backend, bgk/trt/mrt,
# cavity/channel/periodic, sp/dp, pads 0 and 3 (odd), aligns 0/32/128 bytes, a cube and odd,
# non-cubic boxes, 1 and 2 OpenMP threads, both layouts (19 arrays and interleaved rows; on the
# CPU on one thread and on 2 ranks): a row's key leaves the layout out, so both must end in one
# state; with --mpiexec (lbm-cpu built with MPI) pull and pull_nt also on 2 ranks and on 4 ranks
# (oversubscribed) over every 2- and 4-rank grid, x splits included, overlap on and off, every
# halo path. Each case runs 2 warm-up updates and one timed repetition of 8: 10 updates, an even
# count, so aa (which rounds its steps and warm-up up to even) runs as many updates as the others;
# --steps is never left automatic (its count depends on the timing). A row's key is
# kernel,collision,geometry,precision,nx,ny,nz,pad,align,threads,ranks,procs (threads: the block
# size on the GPU).
#
# Besides the baseline, rows are checked against each other. state_hash sums a hash of every
# stored value and its global position modulo 2^64, so it does not depend on the layout, the
# order of the sum, the threads or the rank grid; the CPU kernels round alike in their vector and
# scalar paths (-ffp-contract=off, explicit LBM_FMA). So on the CPU one case (collision, geometry,
# precision, domain) ends in one state whatever the kernel, pad, align, threads, ranks, split,
# overlap or halo path: every row of a case must agree (rows with the same key, such as overlap
# on and off, collapse into one). The GPU rounds as the CPU does (--fmad=false, the same LBM_FMA
# and the same lid term): its rows of one case agree whatever the kernel, pad, align or block
# size, and each holds the CPU baseline's state of its case; its own baseline also pins the rows
# the CPU grid lacks (block sizes).
#
#   --mpiexec MPIEXEC  also the distributed rows (ctest passes it where lbm-cpu is built with MPI)
#   --subset           only the 17x9x6 box, every other dimension of the grid kept: for the
#                      sanitizer build (tests/CMakeLists.txt), where the whole grid runs slowly;
#                      compared with the baseline's rows of that box
#   --unfused          this build's LBM_FMA rounds twice (lbm/model/collision.h: LBM_FMA_FUSED 0, a
#                      target without fused multiply-adds, e.g. LBMR_NATIVE=OFF on x86): its
#                      states differ from the baseline's by design; the rows are still run and
#                      checked against each other, then the comparison is skipped (77)
#   --update           rewrite the baseline from this run (the whole grid only). Only for an
#                      intentional change of the arithmetic (a collision, the initial state, the
#                      update count above); the commit carrying the new baseline says why.
# Without --mpiexec, or where this process may use fewer than 2 CPUs, the rows that need them are
# left out of the comparison and a line says how many. Exit status: 0 the same, 1 a difference,
# a failed run or rows of one case that disagree, 2 bad usage, 77 with `gpu`: no GPU baseline yet,
# or --unfused.
set -u
# The energy meter repeats the timed steps until its window lasts a second, which changes the
# update count and so the state: off, as in ctest, whoever runs the grid.
export LBMR_ENERGY=off
here=$(cd "$(dirname "$0")" && pwd)
update=0 subset=0 unfused=0 mpiexec="" gpu=0
usage() { echo "usage: state_hash_grid.sh [--update] [--subset] [--unfused] [--mpiexec MPIEXEC] [gpu] LBM" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --update) update=1 ;;
    --subset) subset=1 ;;
    --unfused) unfused=1 ;;
    --mpiexec) [ $# -ge 2 ] || usage; mpiexec=$2; shift ;;
    gpu) gpu=1 ;;
    -*) usage ;;
    *) break ;;
    esac
    shift
done
[ $# -eq 1 ] || usage
bin=$1
[ -x "$bin" ] || { echo "state_hash_grid: $bin is not an executable" >&2; exit 2; }
[ "$update" = 1 ] && [ "$subset" = 1 ] && { echo "state_hash_grid: --update writes the whole grid, not --subset" >&2; exit 2; }
if [ "$gpu" = 1 ]; then
    baseline=$here/state_hashes_gpu.csv
    [ -n "$mpiexec" ] && { echo "state_hash_grid: gpu: single-rank rows only, no --mpiexec" >&2; exit 2; }
else
    baseline=$here/state_hashes.csv
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "state_hash_grid: $*" >&2; exit 1; }

# 10 updates per case (see above); domains: a cube and odd, non-cubic boxes (x odd and even)
updates=(--steps 8 --warmup 2 --reps 1)
# the cpu's repetitions wait for a quiet clock by repeating, which changes the update count too:
# exactly the one repetition
[ "$gpu" = 1 ] || updates+=(--quiet-wait off)
physics=(--precision sp,dp --collision bgk,trt,mrt --geometry cavity,channel,periodic)
all_dims=12x12x12,17x9x6,20x9x6,33x7x5
subset_dims=17x9x6
# dims LIST: LIST, or only the subset's box (nothing where LIST lacks it)
dims() {
    if [ "$subset" = 1 ]; then
        case ",$1," in *",$subset_dims,"*) echo "$subset_dims" ;; *) echo "" ;; esac
    else
        echo "$1"
    fi
}

# Runs LBM (under the launcher in the words before --) into $tmp/NAME.csv.
nrun=0
sweep() {
    local name=$1 launcher=() d
    shift
    while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
    shift
    d=$(dims "$1")
    shift
    [ -n "$d" ] || return 0
    "${launcher[@]}" "$bin" --dims "$d" "$@" "${physics[@]}" "${updates[@]}" \
        -o "$tmp/$name.csv" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
    local rc=$?
    [ "$rc" -eq 0 ] || { tail -n 20 "$tmp/$name.stderr" >&2; fail "$name: exit status $rc: ${launcher[*]} $bin --dims $d $*"; }
    nrun=$((nrun + 1))
}

[ "$subset" = 1 ] && echo "state_hash_grid: --subset: the $subset_dims box only"
# Busy-waiting OpenMP threads crawl on a loaded machine; waiting passively changes no result.
export OMP_WAIT_POLICY=passive
cpus=$(nproc) have_mpi=0
[ -n "$mpiexec" ] && command -v "$mpiexec" >/dev/null && have_mpi=1
left_out=() # awk conditions on the key's fields for rows this run cannot produce
if [ "$gpu" = 0 ] && [ "$cpus" -lt 2 ]; then
    left_out+=('$10 == 2')
    echo "state_hash_grid: this process may use $cpus CPU: the 2-thread rows are not checked"
fi
if [ "$gpu" = 0 ] && [ "$have_mpi" = 0 ]; then
    left_out+=('$11 > 1')
    echo "state_hash_grid: no MPI launcher given or found: the rows on several ranks are not checked"
fi
[ "$update" = 1 ] && [ ${#left_out[@]} -gt 0 ] && fail "--update needs the whole grid (2 CPUs, --mpiexec)"

if [ "$gpu" = 1 ]; then
    sweep gpu -- "$all_dims" --pad 0,3 --align 0,32,128 --kernel pull,aa,pull_aos --block 32,128 \
        --layout soa,rows
else
    sweep single -- "$all_dims" --pad 0,3 --align 0,32,128 --kernel pull,pull_nt,aa,pull_aos \
        --threads 1 --layout soa,rows
    if [ "$cpus" -ge 2 ]; then
        sweep threads -- 12x12x12,17x9x6,33x7x5 --pad 0,3 --kernel pull,pull_nt,aa,pull_aos \
            --threads 2
    fi
    if [ "$have_mpi" = 1 ]; then
        source "$(dirname "$0")/mpi_launcher.sh"
        mpi_launcher "$mpiexec"
        sweep ranks2 "$mpiexec" "${mpi_flags[@]}" -n 2 -- 12x12x12,17x9x6,20x9x6 --pad 0,3 \
            --kernel pull,pull_nt --procs 1x1x1,2x1x1,1x2x1,1x1x2 --layout soa,rows
        sweep halos2 "$mpiexec" "${mpi_flags[@]}" -n 2 -- 17x9x6,33x7x5 --kernel pull \
            --procs 2x1x1,1x1x2 --overlap on,off --halo device,node,host
        sweep ranks4 "$mpiexec" "${mpi_flags[@]}" -n 4 -- 12x12x12,17x9x6,33x7x5 \
            --kernel pull,pull_nt --procs 4x1x1,1x4x1,1x1x4,2x2x1,2x1x2,1x2x2
    fi
fi

# key,state_hash per row, every run's rows together
cols=(kernel collision geometry precision nx ny nz pad align threads ranks procs state_hash)
for f in "$tmp"/*.csv; do
    [ "$(awk -v want=verified -f "$here/csv_column.awk" "$f" | sort -u)" = pass ] ||
        fail "$(basename "$f" .csv): a row did not verify"
    i=0
    for c in "${cols[@]}"; do
        awk -v want="$c" -f "$here/csv_column.awk" "$f" >"$tmp/col.$i" || exit 1
        i=$((i + 1))
    done
    paste -d, $(seq -f "$tmp/col.%g" 0 $((i - 1)))
done >"$tmp/rows"
rows=$(wc -l <"$tmp/rows")

# Rows that must agree: every row of one case (fields 2-7); a first disagreement per case is named.
case_fields='$2 FS $3 FS $4 FS $5 FS $6 FS $7'
awk -F, "{ c = $case_fields }"'
    !(c in h) { h[c] = $NF; k[c] = $0; next }
    h[c] != $NF && !(c in told) { told[c] = 1; n++; print "  " k[c] "\n  " $0 > "/dev/stderr" }
    END { exit n > 0 }' "$tmp/rows" ||
    fail "rows of one case (above, in pairs) end in different states: the state must not depend on $([ "$gpu" = 1 ] && echo "the kernel, pad, align or block size" || echo "the kernel, pad, align, threads, ranks, split, overlap or halo path")"
LC_ALL=C sort -u "$tmp/rows" >"$tmp/got"
cases=$(awk -F, "{ print $case_fields }" "$tmp/got" | sort -u | wc -l)
echo "state_hash_grid: $rows rows from $nrun runs, $(wc -l <"$tmp/got") configurations, one state per case ($cases cases) as required"

if [ "$gpu" = 1 ]; then
    # each GPU row holds the CPU baseline's state of its case (see above; --update too: a new GPU
    # baseline only where the two agree); the first ones that do not are named
    [ -r "$here/state_hashes.csv" ] || fail "no CPU baseline $here/state_hashes.csv to hold the GPU rows to"
    awk -F, 'NR == FNR { if (FNR > 1) cpu[$2 FS $3 FS $4 FS $5 FS $6 FS $7] = $NF; next }
        { c = $2 FS $3 FS $4 FS $5 FS $6 FS $7; n++ }
        !(c in cpu) { if (bad++ < 10) print "  " $0 " (no such CPU case)" > "/dev/stderr"; next }
        cpu[c] != $NF { if (bad++ < 10) print "  " $0 " (CPU " cpu[c] ")" > "/dev/stderr" }
        END { printf "state_hash_grid: gpu: %d of %d rows hold the CPU baseline'"'"'s state\n", n - bad, n; exit bad > 0 || n == 0 }' \
        "$here/state_hashes.csv" "$tmp/got" ||
        fail "GPU rows (above) end in other states than the CPU's of their case ($here/state_hashes.csv)"
fi

header=$(IFS=,; echo "${cols[*]}")
if [ "$unfused" = 1 ]; then
    echo "state_hash_grid: this build's LBM_FMA rounds twice: its states differ from $baseline" \
        "(fused multiply-adds) by design; not compared, skipped" >&2
    exit 77
fi
if [ "$update" = 1 ]; then
    { echo "$header"; cat "$tmp/got"; } >"$baseline" || fail "cannot write $baseline"
    echo "state_hash_grid: wrote $baseline ($(wc -l <"$tmp/got") configurations)"
    exit 0
fi
if [ ! -r "$baseline" ]; then
    [ "$gpu" = 1 ] || fail "no baseline $baseline"
    echo "state_hash_grid: no GPU baseline $baseline yet: on a GPU machine run" \
        "'bash tests/state_hash_grid.sh --update gpu build/lbm-gpu' on the commit whose" \
        "arithmetic it should pin, and commit the file; skipped" >&2
    exit 77
fi
[ "$(head -n 1 "$baseline")" = "$header" ] || fail "$baseline: header is not '$header'"

# The baseline's rows this run can produce: those of the subset's box, those needing no more
# CPUs or ranks than here.
filter=1
[ "$subset" = 1 ] && filter="$filter && \$5 FS \$6 FS \$7 == \"$(echo "$subset_dims" | tr x ,)\""
for c in "${left_out[@]}"; do filter="$filter && !($c)"; done
tail -n +2 "$baseline" | awk -F, "$filter" >"$tmp/want"
skipped=$(($(tail -n +2 "$baseline" | wc -l) - $(wc -l <"$tmp/want")))
[ "$skipped" -gt 0 ] && echo "state_hash_grid: $skipped baseline configurations not run here (see above)"

# changed, missing and extra keys, the first 50 of each kind named
awk -F, 'function key(l) { sub(/,[^,]*$/, "", l); return l }
    NR == FNR { want[key($0)] = $NF; nw++; next }
    { k = key($0); if (!(k in want)) extra[++ne] = k; else if (want[k] != $NF) changed[++nc] = k " (baseline " want[k] ", now " $NF ")"; got[k] = 1 }
    END {
        for (k in want) if (!(k in got)) missing[++nm] = k
        list("changed", changed, nc); list("missing", missing, nm); list("extra", extra, ne)
        if (nc + nm + ne) printf "state_hash_grid: %d changed, %d missing, %d extra of %d configurations\n", nc, nm, ne, nw > "/dev/stderr"
        exit nc + nm + ne > 0
    }
    function list(what, a, n,    i) {
        for (i = 1; i <= n && i <= 50; i++) print what ": " a[i] > "/dev/stderr"
        if (n > 50) print what ": ... and " n - 50 " more" > "/dev/stderr"
    }' "$tmp/want" "$tmp/got" || fail "the states differ from $baseline (key: $header)"
echo "state_hash_grid: all $(wc -l <"$tmp/want") configurations end in the baseline's state"
