#!/bin/bash
# session 18, call 1: where the H200's aa dip at 144-cell rows goes. ncu --set full of aa's
# neighbour half (and the local half's launch beside it) at 144x160x160 against 160^3, sp and dp,
# HEAD ("new") and the row-tails patch ("tails", data/lbm/gpu-aa-row-tails-h200-2026-11-27); the
# read-only loads with an L2 prefetch size hint (study builds pf256 / pf128, .peers/l2pf.patch)
# timed against new, sizes alternated, and read by ncu at the same two sizes
set -u
R=$PWD; O=$OUT/r; mkdir -p $O/ncu; T0=$SECONDS; LIMIT=${LIMIT:-540}
export LBMR_ENERGY=off
say() { echo "$* $((SECONDS-T0)) s"; }
left() { [ $((SECONDS-T0)) -lt $LIMIT ]; }
{ nvidia-smi -L; nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current --format=csv; nproc; ncu --version | tail -1; } > $O/machine.txt 2>&1
CM="-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DLBMR_CUDA=ON -DLBMR_LIKWID=OFF -DLBMR_MPI=OFF"
bld() { # bld <name> <tree> <extra cmake args...>
  local n=$1 t=$2; shift 2
  (cmake -S $t -B $R/build-$n $CM "$@" > $O/bld-$n.log 2>&1 && cmake --build $R/build-$n -j4 --target lbm-gpu stream-gpu >> $O/bld-$n.log 2>&1; echo "$n $?" > $O/bld-$n.rc) &
}
bld new $R
bld tails $R/.peers/tails
bld pf256 $R/.peers/pf -DCMAKE_CUDA_FLAGS=-DLBMR_STUDY_L2PF=256
bld pf128 $R/.peers/pf -DCMAKE_CUDA_FLAGS=-DLBMR_STUDY_L2PF=128
wait; say "builds $(cat $O/bld-*.rc | tr '\n' ' ')"
for b in new pf256; do cuobjdump -sass $R/build-$b/lbm-gpu 2>/dev/null | awk '/Function : /{p=0} /Function : _Z9aa_kernelIfLi0ELi0EL15gpu_lbm_variant5E/{p=1} p' > $O/ncu/sass-aa-nb-sp-$b.txt; done
$R/build-new/stream-gpu --kernel copy --precision sp,dp --reps 30 -o $O/copy.csv 2>>$O/err.txt; say copy
# ncu: the neighbour half's launch in full (regex on the demangled name), one after the warm-up;
# the cell-local half's and the face rows' launches with a short list
NB='regex:aa_kernel<(float|double), 0, 0, (\(gpu_lbm_variant\))?5>'
short=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
prof() { # prof <build> <precision> <dims> [short]: short, also every aa launch of a pair
  local b=$1 p=$2 d=$3 tag=$1-$2-$3 sh=${4:-}
  left || return
  timeout 120 ncu --clock-control none --set full --import-source no --kernel-name-base demangled -k "$NB" \
    --launch-skip 4 --launch-count 1 -o $O/ncu/nb-$tag -f \
    $R/build-$b/lbm-gpu --dims $d --kernel aa --precision $p --warmup 10 --reps 1 --steps 10 -o /tmp/x.csv --overwrite > /dev/null 2>>$O/err-ncu.txt
  [ -n "$sh" ] && timeout 60 ncu --clock-control none --csv --kernel-name-base demangled -k 'regex:aa_' --launch-skip 12 --launch-count 6 --metrics $short \
    $R/build-$b/lbm-gpu --dims $d --kernel aa --precision $p --warmup 10 --reps 1 --steps 10 -o /tmp/x.csv --overwrite > $O/ncu/short-$tag.csv 2>>$O/err-ncu.txt
  say "ncu $tag"
}
prof new sp 144x160x160 short; prof new sp 160x160x160 short
prof tails sp 144x160x160
prof new dp 144x160x160; prof new dp 160x160x160
# timings: two rounds, the builds' order rotated size by size
for r in 1 2; do
  i=0
  for n in 128 144 160 176 208 256 336 512; do
    i=$((i+1)); case $(((i + r) % 3)) in 0) ord="new pf256 pf128";; 1) ord="pf256 pf128 new";; *) ord="pf128 new pf256";; esac
    for b in $ord; do
      left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel aa --precision sp,dp --reps 3 --append -o $O/t-$b.csv 2>>$O/err.txt
      case $n in 144|256|512) left && timeout 60 $R/build-$b/lbm-gpu --size $n --kernel pull --precision sp,dp --reps 3 --append -o $O/p-$b.csv 2>>$O/err.txt;; esac
    done
  done; say "round $r"
done
prof pf256 sp 144x160x160; prof pf256 sp 160x160x160
# ncu reports to CSV: the details and raw pages, and the SASS lines with most stall samples
for f in $O/ncu/nb-*.ncu-rep; do
  [ -f "$f" ] || continue; g=${f%.ncu-rep}
  ncu -i $f --page raw --csv > $g-raw.csv 2>/dev/null
  ncu -i $f --page details --csv > $g-det.csv 2>/dev/null
  ncu -i $f --page source --csv --print-source sass > $g-src.csv 2>/dev/null
done
python3 - $O > $O/summary.txt <<'PY'
import csv, sys, glob, re, os, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
print('copy GB/s', bw)
for kind, fn in (('aa', 't'), ('pull', 'p')):
    best = collections.defaultdict(list)
    for b in ('new', 'pf256', 'pf128'):
        for r in rows(f'{fn}-{b}.csv'):
            if r['verified'] != 'pass': print('NOT VERIFIED', kind, b, r['precision'], r['nx'])
            best[(r['precision'], int(r['nx']), b)].append(float(r['mflups']))
    for p in ('sp', 'dp'):
        B = 152 if p == 'sp' else 304
        for n in sorted({k[1] for k in best if k[0] == p}):
            o = max(best.get((p, n, 'new'), [0]))
            line = []
            for b in ('new', 'pf256', 'pf128'):
                v = best.get((p, n, b), [])
                if v and o: line.append(f"{b} {' '.join(f'{x:.0f}' for x in v)} ({max(v)*B/1e3/bw[p]*100:.1f}%, {max(v)/o-1:+.1%})")
            print(kind, p, n, ' | '.join(line))
# raw metrics side by side
want = re.compile(r'^(gpu__time_duration\.sum|dram__bytes_(read|write)\.sum|dram__throughput\.avg\.pct_of_peak_sustained_elapsed|'
                  r'sm__warps_active\.avg\.pct_of_peak_sustained_active|smsp__inst_executed\.sum|launch__registers_per_thread|'
                  r'smsp__average_warp_latency_issue_stalled_.*|smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|'
                  r'l1tex__t_(requests|sectors)_pipe_lsu_mem_global_op_(ld|st)\.sum|l1tex__data_pipe_lsu_wavefronts(_mem_shared)?\.sum|'
                  r'l1tex__data_bank_conflicts_pipe_lsu_mem_shared\.sum|lts__t_sectors_srcunit_tex_op_(read|write)\.sum|'
                  r'lts__t_sector_hit_rate\.pct|l1tex__t_sector_hit_rate\.pct|smsp__warps_issue_stalled_.*|lts__t_sectors_srcunit_tex_op_read_lookup_(hit|miss)\.sum|'
                  r'sm__cycles_elapsed\.avg|smsp__issue_active\.avg\.pct_of_peak_sustained_active|l1tex__throughput\.avg\.pct_of_peak_sustained_active|'
                  r'lts__throughput\.avg\.pct_of_peak_sustained_elapsed|dram__sectors_(read|write)\.sum)$')
cols = {}
for f in sorted(glob.glob(f'{d}/ncu/nb-*-raw.csv')):
    lines = open(f).read().splitlines()
    if len(lines) < 3: continue
    hdr = next(csv.reader([lines[0]])); val = next(csv.reader([lines[2]]))
    cols[os.path.basename(f)[3:-8]] = dict(zip(hdr, val))
names = sorted({k for c in cols.values() for k in c if want.match(k)})
tags = list(cols)
print('\nneighbour half, ncu raw (columns:', ', '.join(tags), ')')
for k in names:
    vals = [cols[t].get(k, '') for t in tags]
    if k.startswith('smsp__average_warp') or k.startswith('smsp__warps_issue_stalled'):
        try:
            if max(float(v.replace(',', '')) for v in vals if v) < 0.05: continue
        except ValueError: pass
    print(f'{k:70s}', ' | '.join(f'{v:>14s}' for v in vals))
# the SASS lines with most stall samples
for f in sorted(glob.glob(f'{d}/ncu/nb-*-src.csv')):
    try:
        lines = [l for l in open(f) if l.strip()]
        rd = list(csv.reader(lines))
        h = next(i for i, r in enumerate(rd) if any('Sampling' in c for c in r))
        hdr = rd[h]; body = rd[h + 1:]
        sc = next(i for i, c in enumerate(hdr) if 'Warp Stall Sampling (All' in c)
        src = next(i for i, c in enumerate(hdr) if c.strip() in ('Source', '# Source'))
        tot = sum(float(r[sc] or 0) for r in body if len(r) > sc)
        top = sorted((r for r in body if len(r) > sc and r[sc]), key=lambda r: -float(r[sc]))[:14]
        print(f'\n{os.path.basename(f)}: stall samples {tot:.0f}; top lines')
        for r in top: print(f'  {float(r[sc])/tot*100:5.1f}%  {r[src][:90]}')
    except Exception as e:
        print(f, 'source page not read:', e)
for f in sorted(glob.glob(f'{d}/ncu/short-*.csv')):
    print('\n' + os.path.basename(f))
    lines = [l for l in open(f) if l.startswith('"')]
    for r in csv.DictReader(lines):
        print(' ', r['ID'], r['Kernel Name'][:34], r['Metric Name'][:48], r['Metric Value'])
PY
cat $O/summary.txt | head -150
tail -3 $O/err.txt $O/err-ncu.txt; rm -f $O/bld-*.log
cp $R/.peers/s18-ncu.sh $O/run.sh
rm -f $O/ncu/*.ncu-rep.keep; tar czf $OUT/r.tgz -C $OUT r && rm -rf $O
say total
