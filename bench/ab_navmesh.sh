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
        console.log(`${process.argv[1]}\t${m.mesh} ${k}\t${m[k + "_us"]}`)})' "$side" >> "$out"
  done
done
node -e '
const rows = new Map();
for (const l of require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n")) {
  const [side, name, value] = l.split("\t");
  if (!rows.has(name)) rows.set(name, { A: [], B: [] });
  rows.get(name)[side].push(Number(value));
}
const med = (v) => { const s = [...v].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
console.log("| navmesh µs/query | A median | B median | B/A |");
console.log("|---|---:|---:|---:|");
for (const [name, { A, B }] of rows) console.log(`| ${name} | ${med(A).toFixed(3)} | ${med(B).toFixed(3)} | ${(med(B) / med(A)).toFixed(3)} |`);' "$out"
