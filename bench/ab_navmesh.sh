#!/usr/bin/env bash
# Before/after of the navmesh queries: two builds' waymark_bench_navmesh run alternately
# (A, B, A, B …) ROUNDS times from the source tree; the median µs per query of the shortest
# and funnel modes (and of Detour, the same in both: a check on the machine) per mesh, with
# the ratio B/A. Writes a markdown table to stdout.
#
#   bash bench/ab_navmesh.sh A_BIN_DIR B_BIN_DIR [ROUNDS]
set -euo pipefail
a=${1:?A_BIN_DIR}
b=${2:?B_BIN_DIR}
rounds=${3:-5}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 0; r < rounds; r++)); do
  for side in A B; do
    bin=$a
    [ "$side" = B ] && bin=$b
    "$bin/waymark_bench_navmesh" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{
      for (const m of JSON.parse(s)) for (const k of ["shortest", "funnel", "detour"])
        console.log(`${process.argv[1]}\t${m.mesh} ${k} µs/query\t${m[k + "_us"].toFixed(3)}`)})' "$side" >> "$out"
  done
done
node "$(dirname "$0")/ab_table.js" "$out"
