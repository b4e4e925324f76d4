import csv, sys, glob, collections, os
d = sys.argv[1]
def rows(f): return list(csv.DictReader(open(f)))
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry','steps','reps'))
# one state per (case, steps, reps) over both builds, both kernels and every grid (quiet-wait
# repeats disturbed repetitions, and a row with more reps ran more updates)
groups = collections.defaultdict(set); nrows = 0
for b in ('old', 'new'):
    f = f'{d}/state-{b}.csv'
    if not os.path.exists(f): continue
    for r in rows(f):
        groups[key(r)].add((r['state_hash'], r['verified'])); nrows += 1
if groups:
    print(f'states: {nrows} rows, {len(groups)} groups (case, steps, reps), one state and verified in {sum(1 for v in groups.values() if len(v) == 1 and next(iter(v))[1] == "pass")}')
cp = {}
for f in sorted(glob.glob(f'{d}/stream-*.csv')):
    r_ = f.split('-')[-1][:-4]
    for r in rows(f):
        if r['kernel'] in ('copy', 'copy_nt'): cp[(r_, r['precision'], r['kernel'])] = float(r['bw_dram_GBs'])
v = collections.defaultdict(list)
for f in sorted(glob.glob(f'{d}/one-*.csv')) + sorted(glob.glob(f'{d}/two-*.csv')):
    kind, b, r_ = os.path.basename(f)[:-4].split('-')
    for r in rows(f):
        if r['verified'] != 'pass': print('NOT VERIFIED', f, r['kernel'], r['precision'])
        m = float(r['mflups_med'])
        ck = (r_, r['precision'], 'copy_nt' if r['kernel'] == 'pull_nt' else 'copy')
        pct = m * 1e6 * float(r['dram_bytes']) / 1e9 / cp[ck] * 100 if ck in cp and kind == 'one' else None
        v[(kind, r['kernel'], r['precision'], r['procs'], b)].append((int(r_), m, pct))
med = lambda a: sorted(a)[len(a) // 2]
for k in sorted(v):
    a = sorted(v[k]); print(*k, 'rounds', ' '.join(f'{m:.0f}' + (f' ({p:.1f}%)' if p else '') for _, m, p in a), 'median', f'{med([m for _, m, _ in a]):.0f}')
for kern in ('pull_nt', 'pull'):
    for p in ('sp', 'dp'):
        for b in ('old', 'new'):
            x = v.get(('two', kern, p, '2x1x1', b)); z = v.get(('two', kern, p, '1x1x2', b))
            if x and z:
                xs = {r: m for r, m, _ in x}; zs = {r: m for r, m, _ in z}
                rat = [xs[r] / zs[r] for r in xs if r in zs]
                print('x/z', kern, p, b, 'per round', ' '.join(f'{a:.3f}' for a in rat), 'median', f'{med(rat):.3f}', 'of medians', f'{med(list(xs.values())) / med(list(zs.values())):.3f}')
