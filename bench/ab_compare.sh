#!/usr/bin/env bash
# Before/after speed of two waymark builds, side by side: each measurement runs both builds'
# CLIs on the same queries, alternating A, B, A, B … so both see the same machine state, and
# reports the median and best of each with the ratio B/A (below 1: B is faster).
#
#   bash bench/ab_compare.sh A_BIN_DIR B_BIN_DIR [SHARED_DATA] [ROUNDS]
#
# e.g. bash bench/ab_compare.sh /tmp/base/build/release/bin build/release/bin ../shared/data 5
# Measurements: grid A*, JPS and JPS+ over sampled Moving AI sets (dao, sc1, street; mean
# µs/query from `waymark scen --json`, search time only; every answer must be optimal), road
# graphs with every graph algorithm (mean µs/query from waymark_bench_graph; every distance
# must equal Boost's), and Korf's 15-puzzle instances with IDA* (search seconds: 1-50 with
# pdb-663, loaded from a file; the first 10 with Manhattan). Writes a markdown table to stdout.
# A narrower run (more rounds where the noise is): AB_SETS="sc1:60 street:40" (set:sample),
# AB_ALGS="jps jps-plus", AB_GRAPHS="" (none), AB_KORF=0, e.g.
#   AB_SETS="sc1:60 street:40" AB_ALGS="jps jps-plus" AB_GRAPHS="" AB_KORF=0 bash bench/ab_compare.sh A B ../shared/data 41
set -euo pipefail
a=${1:?A_BIN_DIR}
b=${2:?B_BIN_DIR}
shared=${3:-../shared/data}
rounds=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure COMMAND…: COMMAND prints lines "NAME<TAB>VALUE" (one or more metrics); runs it
# `rounds` times per build, alternating A and B, and collects every metric's values.
results="$work/results.tsv"
: > "$results"
measure() {
  for ((r = 0; r < rounds; r++)); do
    BIN=$a "$@" | sed 's/^/A\t/' >> "$results"
    BIN=$b "$@" | sed 's/^/B\t/' >> "$results"
  done
  echo "ab_compare: done: $*" >&2
}

scen_us() {  # SET SAMPLE ALGORITHM
  "$BIN/waymark" scen "$shared/movingai/$1"/*.map.scen --sample-every "$2" -a "$3" --json |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);
      if(!j.all_optimal){console.error("not all optimal");process.exit(1)}
      console.log(`${process.argv[1]}\t${j.mean_us.toFixed(2)}`)})' "$1 $3 µs/query"
}
graph_us() {  # GRAPH QUERIES: every algorithm's mean µs/query
  "$BIN/waymark_bench_graph" "$1" --queries "$2" 2> /dev/null |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);
      for(const a of j.algorithms){if(a.skipped)continue;
        if(a.equal_to_boost!==a.queries){console.error("distance differs from Boost");process.exit(1)}
        console.log(`${j.graph} ${a.algorithm} µs/query\t${a.mean_us.toFixed(3)}`)}})'
}
puzzle_s() {  # HEURISTIC [INSTANCES]: IDA*'s search time over Korf's 1-50 (or the first N)
  local file="$shared/korf100/korf100_1-50.txt"
  if [ -n "${2:-}" ]; then
    grep -v '^#' "$file" | head -n "$2" > "$work/korf-$2.txt"
    file="$work/korf-$2.txt"
  fi
  # One PDB file per build: the file format may differ between the two.
  local pdb="$work/$1-$(printf '%s' "$BIN" | md5sum | cut -c1-8).pdb"
  "$BIN/waymark" puzzle --instances "$file" --heuristic "$1" --pdb "$pdb" --json | tail -n 1 |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s).summary;
      if(j.not_optimal!==0||j.solved!==j.instances){console.error("not all optimal");process.exit(1)}
      console.log(`${process.argv[1]}\t${j.search_s.toFixed(3)}`)})' "korf ${2:-1-50} ida $1 s"
}

if [ -d "$shared/movingai" ]; then
  for set in ${AB_SETS-dao:50 sc1:60 street:40}; do
    for alg in ${AB_ALGS-astar jps jps-plus}; do measure scen_us "${set%%:*}" "${set##*:}" "$alg"; done
  done
fi
for g in ${AB_GRAPHS-rome99 oldenburg}; do measure graph_us "$g" 3000; done
if [ "${AB_KORF:-1}" = 1 ] && [ -f "$shared/korf100/korf100_1-50.txt" ]; then
  for bin in "$a" "$b"; do BIN=$bin puzzle_s pdb-663 1 > /dev/null; done  # builds each side's PDB file once
  measure puzzle_s pdb-663
  measure puzzle_s manhattan 10
fi

node "$(dirname "$0")/ab_table.js" "$results"
