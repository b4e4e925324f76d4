import csv, sys, glob, re, os, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st = {b: {key(r): r['state_hash'] for r in rows(f'state-{b}.csv') if r['verified'] == 'pass'} for b in ('old','new')}
bad = [k for k in st['old'] if st['new'].get(k) != st['old'][k]]
narrow = collections.defaultdict(set)
for r in rows('state-new-narrow.csv'): narrow[key(r)].add(r['state_hash'])
nbad = [k for k in narrow if narrow[k] != {st['new'].get(k)}]
print(f"states: old {len(st['old'])} new {len(st['new'])} verified, differing {len(bad)}; narrow blocks differing {len(nbad)} of {len(narrow)}", bad[:5], nbad[:5])
bw = {r['precision']: float(r['bw_dram_GBs']) for r in rows('copy.csv')}
print('copy GB/s', bw)
BY = {'sp': 152, 'dp': 304, 'fp16s': 76, 'fp16c': 76}
under = collections.Counter(); sw = collections.defaultdict(dict)
for b in ('old', 'new'):
    for r in rows(f'sweep-{b}.csv'):
        p = float(r['mflups'])*BY[r['precision']]/1e3/bw[r['precision']]*100
        if r['verified'] != 'pass': print('NOT VERIFIED', b, r['precision'], r['nx'])
        sw[(r['precision'], int(r['nx']))][b] = (float(r['mflups']), p)
        if p < 90 and int(r['nx']) >= 128: under[(r['precision'], b)] += 1
for k in sorted(sw):
    o, n = sw[k].get('old'), sw[k].get('new')
    if o and n: print('sweep', *k, f"old {o[0]:.0f} {o[1]:.1f}% new {n[0]:.0f} {n[1]:.1f}% {n[0]/o[0]-1:+.1%}")
print('under 90%:', dict(under))
ag = collections.defaultdict(list)
for b in ('old', 'new'):
    for r in rows(f'again-{b}.csv'):
        ag[(r['precision'], int(r['nx']), b)].append(float(r['mflups']))
for k in sorted(ag):
    if k[2] == 'new':
        o = max(ag.get(k[:2] + ('old',), [0])); n = max(ag[k])
        print('again', *k[:2], 'old', ' '.join(f'{x:.0f}' for x in ag.get(k[:2] + ('old',), [])), 'new', ' '.join(f'{x:.0f}' for x in ag[k]), f'{n/o-1:+.1%}' if o else '')
want = re.compile(r'^(gpu__time_duration\.sum|dram__bytes_(read|write)\.sum|dram__throughput\.avg\.pct_of_peak_sustained_elapsed|'
                  r'sm__warps_active\.avg\.pct_of_peak_sustained_active|smsp__inst_executed\.sum|launch__registers_per_thread|'
                  r'smsp__average_warp_latency_issue_stalled_.*|smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio|'
                  r'l1tex__t_(requests|sectors)_pipe_lsu_mem_global_op_(ld|st)\.sum|l1tex__data_pipe_lsu_wavefronts(_mem_shared)?\.sum|'
                  r'l1tex__data_bank_conflicts_pipe_lsu_mem_shared\.sum|lts__t_sectors_srcunit_tex_op_(read|write)\.sum|'
                  r'lts__t_sector_hit_rate\.pct|smsp__issue_active\.avg\.pct_of_peak_sustained_active|sm__cycles_elapsed\.avg|'
                  r'smsp__inst_executed_pipe_.*\.sum|sm__inst_executed_pipe_.*pct.*|smsp__thread_inst_executed_per_inst_executed\.ratio|'
                  r'smsp__warp_issue_stalled_.*_per_warp_active\.pct|l1tex__throughput\.avg\.pct_of_peak_sustained_active|'
                  r'lts__throughput\.avg\.pct_of_peak_sustained_elapsed|sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active)$')
cols = {}
for f in sorted(glob.glob(f'{d}/ncu/nb-*-raw.csv')):
    lines = open(f).read().splitlines()
    if len(lines) < 3: print(f, 'raw page empty'); continue
    hdr = next(csv.reader([lines[0]])); val = next(csv.reader([lines[2]]))
    cols[os.path.basename(f)[3:-8]] = dict(zip(hdr, val))
names = sorted({k for c in cols.values() for k in c if want.match(k)})
tags = list(cols)
print('\nneighbour half, ncu raw; columns:', ', '.join(tags))
def num(v):
    try: return float(v.replace(',', ''))
    except ValueError: return None
for k in names:
    vals = [cols[t].get(k, '') for t in tags]
    nv = [num(v) for v in vals if v]
    if ('stalled' in k or 'pipe' in k) and nv and all(x is not None for x in nv) and max(nv) < 0.02 * (100 if 'pct' in k else 1): continue
    print(f'{k[:72]:72s}', ' | '.join(f'{v:>13s}' for v in vals))
for f in sorted(glob.glob(f'{d}/ncu/nb-*-src.csv')):
    try:
        rd = list(csv.reader([l for l in open(f) if l.strip()]))
        h = next(i for i, r in enumerate(rd) if any('Sampling' in c for c in r))
        hdr = rd[h]; body = rd[h + 1:]
        sc = next(i for i, c in enumerate(hdr) if 'Warp Stall Sampling (All' in c)
        src = next(i for i, c in enumerate(hdr) if c.strip() in ('Source', '# Source'))
        tot = sum(num(r[sc]) or 0 for r in body if len(r) > sc)
        top = sorted((r for r in body if len(r) > sc and num(r[sc])), key=lambda r: -num(r[sc]))[:16]
        print(f'\n{os.path.basename(f)}: {len(body)} lines, stall samples {tot:.0f}; top')
        for r in top: print(f'  {num(r[sc])/tot*100:5.1f}%  {r[src][:90]}')
    except Exception as e:
        print(f, 'source page not read:', repr(e)[:200])
