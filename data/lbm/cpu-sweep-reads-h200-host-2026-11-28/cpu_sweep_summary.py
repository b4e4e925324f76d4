#!/usr/bin/env python3
"""cpu_sweep_summary.py DIR: per kernel, precision and size, each round's percent of its own
ceiling (roof-<r>.csv's pct_of_ceiling: pull against copy, pull_nt and aa against copy_nt) and
the median; for aa also against the in-place update (pct_of_in_place). Rows whose median is under
80% are listed."""
import csv, glob, os, statistics, sys
d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "roof-*.csv"))):
    for r in csv.DictReader(open(f)):
        if r.get("backend") != "cpu": continue
        k = (r["kernel"], r["precision"], int(r["nx"]))
        inp = r.get("pct_of_in_place") or ""
        rows.setdefault(k, []).append((float(r["pct_of_ceiling"]), float(inp) if inp else None, float(r["mflups"])))
under = []
for k in sorted(rows):
    p = [x[0] for x in rows[k]]; med = statistics.median(p)
    ip = [x[1] for x in rows[k] if x[1] is not None]
    extra = f"  in place median {statistics.median(ip):5.1f}" if ip else ""
    flag = " <80" if med < 80 else ""
    print(f"{k[0]:7s} {k[1]} {k[2]:3d}  " + " ".join(f"{x:5.1f}" for x in p) + f" -> {med:5.1f}  MFLUP/s median {statistics.median(x[2] for x in rows[k]):6.0f}{extra}{flag}")
    if flag: under.append(k)
print(f"rows with median under 80%: {len(under)} of {len(rows)}: " + ", ".join(f"{a} {b} {c}" for a, b, c in under))
