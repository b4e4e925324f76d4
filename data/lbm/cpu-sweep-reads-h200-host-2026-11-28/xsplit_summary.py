#!/usr/bin/env python3
"""xsplit_summary.py two.csv: per precision, kernel and alignment, each round's 2x1x1 and 1x1x2
median MFLUP/s (mflups_med), x / z per round, and x / z of the medians over rounds; the pitch of
the rows; every row's verified flag."""
import csv, sys, collections, statistics
rows = list(csv.DictReader(open(sys.argv[1])))
print("verified:", collections.Counter(r["verified"] for r in rows))
v = collections.defaultdict(list); pitch = {}
for r in rows:
    k = (r["precision"], r["kernel"], r["align"], r["procs"])
    v[k].append(float(r["mflups_med"])); pitch[k] = r["pitch"]
for p in ("sp", "dp"):
    for kern in ("pull", "pull_nt"):
        for a in ("64", "0"):
            x, z = v.get((p, kern, a, "2x1x1"), []), v.get((p, kern, a, "1x1x2"), [])
            n = min(len(x), len(z))
            if not n: continue
            print(f"{p} {kern:7s} align {a:2s} pitch x {pitch[(p, kern, a, '2x1x1')]:>4s}  x " + " ".join(f"{a_:.0f}" for a_ in x)
                  + "  z " + " ".join(f"{a_:.0f}" for a_ in z)
                  + f"  x/z per round " + " ".join(f"{x[i]/z[i]:.3f}" for i in range(n))
                  + f"  of medians {statistics.median(x)/statistics.median(z):.3f}")
