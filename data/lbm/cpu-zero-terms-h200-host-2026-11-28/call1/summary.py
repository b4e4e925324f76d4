# summary of alternated base/new CPU rounds: MFLUP/s per round, medians, percent of each round's
# ceiling (roofline's column), new/base ratio of medians
import csv, sys, collections, os, glob, statistics as st
O = sys.argv[1]
def rows(f): return list(csv.DictReader(open(f))) if os.path.exists(f) else []
res = collections.defaultdict(dict); pct = collections.defaultdict(dict); ver = collections.Counter()
for f in glob.glob(O + '/cpu-*-*.csv'):
    b, r = os.path.basename(f)[4:-4].split('-')
    for x in rows(f):
        res[(x['kernel'], x['precision'], b)][int(r)] = float(x['mflups']); ver[x['verified']] += 1
for f in glob.glob(O + '/roof-*-*.csv'):
    b, r = os.path.basename(f)[5:-4].split('-')
    for x in rows(f):
        if x.get('kernel') and x.get('precision') and x.get('pct_of_ceiling'):
            pct[(x['kernel'], x['precision'], b)][int(r)] = float(x['pct_of_ceiling'])
print('verified', dict(ver))
for k in sorted(res):
    v = res[k]; p = pct.get(k, {})
    print('%-8s %-6s %-5s %s  median %.0f  pct %s  median pct %s' % (k[0], k[1], k[2],
          ' '.join('%.0f' % v[r] for r in sorted(v)), st.median(v.values()),
          ' '.join('%.1f' % p[r] for r in sorted(p)), '%.1f' % st.median(p.values()) if p else '-'))
for kern in ('pull', 'pull_nt', 'aa'):
    for pr in ('sp', 'dp', 'fp16s', 'fp16c'):
        a = res.get((kern, pr, 'base')); n = res.get((kern, pr, 'new'))
        if a and n:
            common = sorted(set(a) & set(n))
            ahead = sum(n[r] > a[r] for r in common)
            print('%s %s new/base medians %.3f, new ahead in %d of %d rounds' % (kern, pr,
                  st.median(n.values()) / st.median(a.values()), ahead, len(common)))
