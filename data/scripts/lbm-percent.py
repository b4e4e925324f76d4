#!/usr/bin/env python3
"""lbm-percent.py DIR: percent of the bandwidth-bound ceiling for every LBM row of a study folder,
from the STREAM rows of the same session: ceiling = best copy19 bandwidth of the matching store
kind (ordinary for pull on the CPU, non-temporal for pull_nt, plain copy19 on the GPU), in
modelled DRAM bytes, divided by the row's dram_bytes. A stand-in until the roofline tool exists."""
import csv, glob, sys
d = sys.argv[1]
ceil = {}
for f in glob.glob(f"{d}/*-stream.csv"):
    for r in csv.DictReader(open(f)):
        key = (r["backend"], r["precision"], r["kernel"])
        ceil[key] = max(ceil.get(key, 0), float(r["bw_dram_GBs"]))
print("file,backend,kernel,collision,precision,nx,align,mflups,ceiling_kernel,ceiling_mflups,pct_of_ceiling")
for f in sorted(glob.glob(f"{d}/*-lbm-*.csv")):
    for r in csv.DictReader(open(f)):
        ck = "copy19_nt" if r["kernel"] == "pull_nt" else "copy19"
        bw = ceil.get((r["backend"], r["precision"], ck))
        c = bw * 1e9 / float(r["dram_bytes"]) / 1e6 if bw else float("nan")
        print(f"{f.split('/')[-1]},{r['backend']},{r['kernel']},{r['collision']},{r['precision']},"
              f"{r['nx']},{r['align']},{float(r['mflups']):.0f},{ck},{c:.0f},{100*float(r['mflups'])/c:.1f}")
