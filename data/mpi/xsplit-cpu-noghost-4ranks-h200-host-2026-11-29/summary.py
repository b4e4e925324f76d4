"""x / z per round and its median for each kernel and precision, before (8022c61: a ghost cell
beside every x-split row) and after (rows of nx cells), for the grid split along x and the one
split along z in the CSVs. Usage: python3 summary.py (in this folder)"""
import collections
import csv
import statistics as st

for name in ("before", "after"):
    rows = list(csv.DictReader(open(name + ".csv")))
    rate = collections.defaultdict(list)
    for r in rows:
        rate[(r["kernel"], r["precision"], r["procs"])].append(float(r["mflups"]))
    grids = sorted({r["procs"] for r in rows})
    xg = [g for g in grids if not g.startswith("1x")][0]
    zg = [g for g in grids if g.startswith("1x1x")][0]
    pitch = sorted({r["pitch"] for r in rows if r["procs"] == xg})
    print("%s: %s / %s, verified %s, %s pitches %s"
          % (name, xg, zg, sorted({r["verified"] for r in rows}), xg, pitch))
    for k in ("pull", "pull_nt"):
        for p in ("sp", "dp"):
            x, z = rate[(k, p, xg)], rate[(k, p, zg)]
            ratio = [a / b for a, b in zip(x, z)]
            print("  %-7s %s x %s z %s x/z %s median %.3f"
                  % (k, p, [round(v) for v in x], [round(v) for v in z],
                     [round(v, 3) for v in ratio], st.median(ratio)))
