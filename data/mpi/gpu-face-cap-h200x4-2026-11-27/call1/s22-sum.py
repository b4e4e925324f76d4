import csv, sys, collections
d = sys.argv[1]; V = sys.argv[2:]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
key = lambda r: (r['nx'], r['ny'], r['nz'], r['precision'], r['geometry'], r['overlap'])
ref = collections.defaultdict(set)
for v in V:
    rs = rows(f'state-{v}.csv')
    st = collections.defaultdict(set)
    for r in rs:
        st[key(r)].add(r['state_hash']); ref[key(r)].add(r['state_hash'])
        if r['verified'] != 'pass': print('NOT VERIFIED state', v, r['procs'], r['precision'])
    print(f'states {v}: rows {len(rs)}, cases {len(st)}, one state each: {sum(len(s) == 1 for s in st.values())}')
print('one state per case across all variants:', sum(len(s) == 1 for s in ref.values()), 'of', len(ref))
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
for f, name, pairs in (('s', 'strong 512^3 2 GPUs', (('2x1x1', '1x1x2'),)), ('w', 'weak 256^3 4 GPUs', (('2x2x1', '1x2x2'), ('4x1x1', '1x2x2'), ('1x2x2', '1x1x1')))):
    v = collections.defaultdict(list)
    for b in V:
        for r in rows(f'{f}-{b}.csv'):
            if r['verified'] != 'pass': print('NOT VERIFIED', f, b, r['precision'], r['procs'])
            v[(r['precision'], b, r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp', 'fp16s'):
        for x, z in pairs:
            line = []
            for b in V:
                a, c = v.get((p, b, x)), v.get((p, b, z))
                if a and c:
                    sc = 4 if z == '1x1x1' else 1
                    line.append(f'{b} {med(a):.0f}/{med(c):.0f}={med(a)/med(c)/sc:.4f} [' + ' '.join(f'{x/y/sc:.4f}' for x, y in zip(a, c)) + ']')
            if line: print(name, p, f'{x}/{z}', ' | '.join(line))
