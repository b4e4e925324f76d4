#!/usr/bin/env bash
# mccalpin-csv.sh LOG: turns the log stream-study.sh keeps of McCalpin STREAM runs ("### run I
# BINARY" then the program's output) into CSV: one row per run with its Copy line.
set -u
awk 'BEGIN { print "pair,binary,copy_best_rate_MBs,copy_avg_s,copy_min_s,copy_max_s" }
     /^### run / { pair = $3; n = split($4, p, "/"); bin = p[n] }
     /^Copy:/ { print pair "," bin "," $2 "," $3 "," $4 "," $5 }' "${1:?usage: mccalpin-csv.sh LOG}"
