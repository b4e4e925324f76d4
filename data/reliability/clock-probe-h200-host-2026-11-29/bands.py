"""Repetition time against the probe around it (pairs_t16.txt, from pairs.c): for each kind,
the repetitions' times over their median, by the slowest thread's reading (the lower of the
probes before and after) as a fraction of the highest reading of the file. Usage: python3
bands.py pairs_t16.txt"""
import statistics as st
import sys

rows = [l.split() for l in open(sys.argv[1]) if l.split()[:1] in (["copy"], ["fma"])]
rows = [r for r in rows if len(r) == 6]
high = max(max(float(r[3]), float(r[5])) for r in rows)
print("highest reading %.0f MHz, %d repetitions" % (high, len(rows)))
for kind in ("copy", "fma"):
    reps = [(float(r[1]), min(float(r[2]), float(r[4])) / high) for r in rows if r[0] == kind][5:]
    med = st.median(t for t, _ in reps)
    print("%s: %d repetitions after 5 left out, median %.2f ms" % (kind, len(reps), med * 1e3))
    for lo, hi in ((0, 0.5), (0.5, 0.75), (0.75, 0.8), (0.8, 0.85), (0.85, 0.9), (0.9, 1.01)):
        ts = sorted(t / med for t, f in reps if lo <= f < hi)
        if ts:
            print("  slowest/highest %.2f-%.2f: %3d reps, time/median %.3f (median), %.3f (max)"
                  % (lo, hi, len(ts), st.median(ts), ts[-1]))
    for cut in (0.75, 0.8, 0.9):
        print("  quiet at %d%%: %d of %d" % (cut * 100, sum(f >= cut for _, f in reps), len(reps)))
