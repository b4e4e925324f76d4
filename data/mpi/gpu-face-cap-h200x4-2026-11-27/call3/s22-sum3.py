import csv, sys, collections
d = sys.argv[1]; V = sys.argv[2:]
med = lambda a: sorted(a)[len(a)//2] if len(a) % 2 else sum(sorted(a)[len(a)//2-1:len(a)//2+1]) / 2
for n in ('128', '192'):
    v = collections.defaultdict(list)
    for b in V:
        try: rs = list(csv.DictReader(open(f'{d}/w{n}-{b}.csv')))
        except FileNotFoundError: continue
        for r in rs:
            if r['verified'] != 'pass': print('NOT VERIFIED', n, b, r['precision'], r['procs'])
            v[(r['precision'], b, r['procs'])].append(float(r['mflups_med']))
    for p in ('sp', 'dp', 'fp16s'):
        for x in ('2x2x1', '4x1x1'):
            line = []
            for b in V:
                a, c = v.get((p, b, x)), v.get((p, b, '1x2x2'))
                if a and c: line.append(f'{b} {med(a):.0f}/{med(c):.0f}={med(a)/med(c):.4f} [' + ' '.join(f'{q/w:.4f}' for q, w in zip(a, c)) + ']')
            if line: print(f'weak {n}^3 4 GPUs', p, f'{x}/1x2x2', ' | '.join(line))
