import csv, sys, collections
d = sys.argv[1]
def rows(f):
    try: return list(csv.DictReader(open(f'{d}/{f}')))
    except FileNotFoundError: return []
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
for f, name in (('w', 'weak 256^3'), ('s', 'strong 1024^3')):
    v = collections.defaultdict(list); e = collections.defaultdict(list)
    for m in ('update', 'shells'):
        for r in rows(f'{f}-{m}.csv'):
            if r['verified'] != 'pass': print('NOT VERIFIED', f, m, r['precision'], r['procs'])
            v[(r['precision'], r['procs'], m)].append(float(r['mflups_med']))
            if r['efficiency']: e[(r['precision'], r['procs'], m)].append(float(r['efficiency']))
            xf = r.get('x_faces', '')
            if r['procs'].startswith(('2x', '4x')) and xf != m: print('x_faces', xf, 'in a', m, 'row')
    for p in ('sp', 'dp', 'fp16s'):
        for g in ('1x1x1', '1x2x2', '2x2x1', '4x1x1'):
            out = []
            for m in ('update', 'shells'):
                a = v.get((p, g, m))
                if a: out.append(f"{m} {' '.join(f'{x:.0f}' for x in a)} (eff {' '.join(f'{x:.3f}' for x in e.get((p, g, m), []))})")
            if out: print(name, p, g, ' | '.join(out))
        for g in ('2x2x1', '4x1x1'):
            u, s = v.get((p, g, 'update')), v.get((p, g, 'shells'))
            if u and s: print(name, p, g, f'update / shells {med(u)/med(s):.3f}')
