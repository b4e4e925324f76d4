import csv, sys, collections, statistics as st
d = sys.argv[1]
def rows(f):
    return list(csv.DictReader(open(f'{d}/{f}')))  # a missing file is an error, not 0 rows
key = lambda r: tuple(r[k] for k in ('kernel','nx','ny','nz','precision','collision','geometry'))
for s in ('9', '17'):
    a = {key(r): (r['state_hash'], r['verified']) for r in rows(f'states-off-{s}.csv')}
    b = {key(r): (r['state_hash'], r['verified']) for r in rows(f'states-on-{s}.csv')}
    diff = [k for k in a if b.get(k) != a[k]]
    nv = sum(1 for k in b if b[k][1] != 'pass')
    print(f"steps {s}: off {len(a)} on {len(b)} rows, differing {len(diff)}, on not verified {nv}", diff[:4])
bw = collections.defaultdict(float)
for r in rows('stream.csv'):
    bw[r['precision']] = max(bw[r['precision']], float(r['bw_dram_GBs']))
print('copy best GB/s', dict(bw))
per = {'sp': 152, 'dp': 304, 'fp16s': 76, 'fp16c': 76}
for f in ('t', 't16'):
    m = collections.defaultdict(list)
    for g in ('off', 'on'):
        for r in rows(f'{f}-{g}.csv'):
            m[(r['kernel'], r['precision'], int(r['nx']), g)].append(float(r['mflups']))
    for k in sorted({k[:3] for k in m}):
        o, n = m.get(k + ('off',), []), m.get(k + ('on',), [])
        if not o or not n: continue
        ref = 'fp16s' if k[1].startswith('fp16') else k[1]
        ceil = bw[ref] * 1e3 / per[k[1]]
        mo, mn = st.median(o), st.median(n)
        print(f"{k[0]:5} {k[1]:6} {k[2]:4} off {mo:9.0f} ({100*mo/ceil:5.1f}%) on {mn:9.0f} ({100*mn/ceil:5.1f}%) {100*(mn/mo-1):+5.1f}%  rounds on>off {sum(x>y for x,y in zip(n,o))}/{min(len(n),len(o))}")
low = []
for r in rows('roofline.csv'):
    try: p = float(r['pct_of_ceiling'])
    except (KeyError, ValueError): continue
    if p < 90 and int(r.get('nx') or 0) >= 128: low.append((r['kernel'], r['precision'], r['nx'], round(p, 1)))
print('sweep rows under 90% of copy:', len(low), low)
