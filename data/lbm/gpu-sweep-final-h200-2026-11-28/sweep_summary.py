#!/usr/bin/env python3
"""sweep_summary.py DIR: per kernel, precision and size, the percent of each round's copy ceiling
(roof-<r>.csv, the roofline tool's pct_of_ceiling) and their median; rows whose median is under
90% from 128^3 up are listed, then a count."""
import csv, glob, statistics, sys, os
d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "roof-*.csv"))):
    for r in csv.DictReader(open(f)):
        if r.get("backend") != "gpu": continue
        k = (r["kernel"], r["precision"], int(r["nx"]))
        rows.setdefault(k, []).append((float(r["pct_of_ceiling"]), float(r["mflups"])))
under = []
print("kernel prec n  pct_of_copy per round -> median   MFLUP/s median")
for k in sorted(rows):
    p = [x[0] for x in rows[k]]; m = statistics.median(x[1] for x in rows[k])
    med = statistics.median(p)
    flag = " <90" if med < 90 and k[2] >= 128 else ""
    print(f"{k[0]:5s} {k[1]} {k[2]:4d}  " + " ".join(f"{x:5.1f}" for x in p) + f" -> {med:5.1f}   {m:8.0f}{flag}")
    if flag: under.append(k)
print(f"rows with median under 90%: {len(under)} of {len(rows)}: " + ", ".join(f"{a} {b} {c}" for a, b, c in under))
