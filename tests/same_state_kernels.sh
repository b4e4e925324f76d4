#!/usr/bin/env bash
# same_state_kernels.sh LBM ARGS...: one run of LBM with ARGS on one rank; the rows of one case
# (collision, geometry, precision, domain) must end in one state (state_hash) whatever the kernel,
# pad, align or thread count: the row loops' blocks, partial blocks and element-wise remainders
# compute each cell as the same arithmetic. Every row must verify.
set -u
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" "$@" --quiet-wait off -o "$tmp/out.csv" 2>"$tmp/stderr" ||
    { cat "$tmp/stderr" >&2; echo "same_state_kernels: exit status $? for $*" >&2; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    { rows++
      if ($h["verified"] != "pass") { print "same_state_kernels: row " NR " not verified"; bad++ }
      k = $h["collision"] " " $h["geometry"] " " $h["precision"] " " $h["nx"] "x" $h["ny"] "x" $h["nz"]
      if (!(k in state)) { state[k] = $h["state_hash"]; cases++; what[k] = $h["kernel"] " pad " $h["pad"] " align " $h["align"] }
      else if (state[k] != $h["state_hash"]) {
          print "same_state_kernels: " k ": " $h["kernel"] " pad " $h["pad"] " align " $h["align"] \
                " ends in " $h["state_hash"] ", " what[k] " in " state[k]; bad++ } }
    END { if (rows == 0) { print "same_state_kernels: no rows"; exit 1 }
          if (bad) exit 1
          print "same_state_kernels: " rows " rows, one state in each of " cases " cases" }' "$tmp/out.csv"
