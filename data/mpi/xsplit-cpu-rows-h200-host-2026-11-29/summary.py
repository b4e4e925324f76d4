"""The medians of call3.sh's rounds: one rank's pull_nt by row length and pitch (one.csv), and the
2-rank x / z ratio per round (two.csv). Usage: python3 summary.py (in this folder)"""
import collections
import csv
import statistics as st

one = collections.defaultdict(list)
for r in csv.DictReader(open("one.csv")):
    one[(r["precision"], int(r["nx"]), int(r["pitch"]))].append(float(r["mflups"]))
for p in ("sp", "dp"):
    med = {k[1:]: st.median(v) for k, v in one.items() if k[0] == p}
    for k in sorted(med):
        print("%s rows of %d cells, pitch %d: %s, median %.0f MFLUP/s"
              % (p, k[0], k[1], [round(x) for x in one[(p,) + k]], med[k]))
    ghost = [k for k in med if k[0] == 128 and k[1] > 128][0]
    print("%s pitch %d / 128 at 128-cell rows: %.3f; 128-cell / 256-cell rows at their own pitch: %.3f"
          % (p, ghost[1], med[ghost] / med[(128, 128)], med[(128, 128)] / med[(256, 256)]))
two = collections.defaultdict(list)
for r in csv.DictReader(open("two.csv")):
    two[(r["precision"], r["procs"])].append(float(r["mflups"]))
for p in ("sp", "dp"):
    ratios = [x / z for x, z in zip(two[(p, "2x1x1")], two[(p, "1x1x2")])]
    print("%s 2 ranks x / z per round: %s, median %.3f"
          % (p, [round(x, 3) for x in ratios], st.median(ratios)))
