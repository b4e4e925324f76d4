import csv, sys, os, collections
d = sys.argv[1]; B = sys.argv[2:]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: tuple(r[k] for k in ('nx','ny','nz','precision','collision','geometry'))
st0 = {key(r) + (r['procs'],): r['state_hash'] for r in rows(f'state-{B[0]}.csv')}
for b in B:
    st = collections.defaultdict(set)
    rs = rows(f'state-{b}.csv')
    for r in rs: st[key(r)].add((r['state_hash'], r['verified']))
    diff = sum(1 for r in rs if st0.get(key(r) + (r['procs'],)) != r['state_hash'])
    print(f'states {b}: rows {len(rs)}, cases {len(st)}, one state on every grid and verified: {sum(1 for v in st.values() if len(v) == 1 and next(iter(v))[1] == "pass")}, rows differing from {B[0]}: {diff}')
import statistics
med = statistics.median
for f in ('s', 'w'):
    v = collections.defaultdict(list)
    for b in B:
        for r in rows(f'{f}-{b}.csv'):
            if r['verified'] != 'pass': print('NOT VERIFIED', f, b, r['precision'], r['procs'])
            v[(r['precision'], b, r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp', 'fp16s', 'fp16c'):
        for b in B:
            x, z = v.get((p, b, '2x1x1')), v.get((p, b, '1x1x2'))
            if x and z: print({'s': 'strong 512^3', 'w': 'weak 256^3'}[f], p, b, 'x', ' '.join(f'{a:.0f}' for a in x), 'z', ' '.join(f'{a:.0f}' for a in z), f'x/z {med(x)/med(z):.3f}')
for b in B:
    f = f'{d}/ncu-{b}.csv'
    if not os.path.exists(f): continue
    lines = [l for l in open(f) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        out.setdefault((r['ID'], r['Kernel Name'].split('(')[0][:44], r['Grid Size'], r['Block Size']), []).append(f"{r['Metric Name'].split('.')[0]}={r['Metric Value']}")
    for k, m in out.items(): print('ncu', b, *k, ' '.join(m))
