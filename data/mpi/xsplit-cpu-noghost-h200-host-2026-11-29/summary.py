"""x / z per round and its median for each kernel and precision, before (the tree of 8022c61, a
ghost cell in front of every x-split row) and after (rows of nx cells). Usage: python3 summary.py
(in this folder)"""
import collections
import csv
import statistics as st

for name in ("before", "after"):
    rows = list(csv.DictReader(open(name + ".csv")))
    rate = collections.defaultdict(list)
    for r in rows:
        rate[(r["kernel"], r["precision"], r["procs"])].append(float(r["mflups"]))
    pitch = sorted({r["pitch"] for r in rows if r["procs"] == "2x1x1"})
    print("%s: verified %s, 2x1x1 pitches %s" % (name, sorted({r["verified"] for r in rows}), pitch))
    for k in ("pull", "pull_nt"):
        for p in ("sp", "dp"):
            x, z = rate[(k, p, "2x1x1")], rate[(k, p, "1x1x2")]
            ratio = [a / b for a, b in zip(x, z)]
            print("  %-7s %s x %s z %s x/z %s median %.3f"
                  % (k, p, [round(v) for v in x], [round(v) for v in z],
                     [round(v, 3) for v in ratio], st.median(ratio)))
