#!/usr/bin/env bash
# 15-puzzle benchmark: Korf's instances 1-50 solved by `waymark puzzle` (IDA*) with each
# heuristic. Every length is checked against the published optimum (the command exits 1
# otherwise). pdb-663 is built from scratch in each run (the build time is reported separately
# and added to the total). pdb-78 takes minutes and 5 GB to build, so it is built once into
# BUILD_DIR/pdb-78.pdb and loaded by later runs (the report shows build or load time).
#
#   bash bench/puzzle_bench.sh [BUILD_DIR] [SHARED_DATA]     (make bench runs it)
#
# PUZZLE_BENCH_HEURISTICS: the runs to make (default "manhattan linear-conflict pdb-663 pdb-78").
# Results: bench/results/puzzle.json and bench/results/puzzle.md.
set -euo pipefail
build=${1:-build/release}
shared=${2:-../shared/data}
here=$(dirname "$0")
out=bench/results
instances="$shared/korf100/korf100_1-50.txt"
[ -f "$instances" ] || instances="$here/../data/puzzles/korf100_1-50.txt"
heuristics=${PUZZLE_BENCH_HEURISTICS:-manhattan linear-conflict pdb-663 pdb-78}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

: > "$work/runs.jsonl"
for h in $heuristics; do
  for threads in 1 2; do
    # The heuristics without tables are measured single-threaded only (nodes per second
    # per core); the PDB runs also with both cores solving.
    case "$h" in pdb-*) ;; *) [ "$threads" = 1 ] || continue ;; esac
    echo "puzzle_bench: $h, $threads thread(s)" >&2
    cache=()
    [ "$h" = pdb-78 ] && cache=(--pdb "$build/pdb-78.pdb")
    "$build/bin/waymark" puzzle --instances "$instances" --heuristic "$h" --threads "$threads" --json \
      "${cache[@]}" > "$work/run.jsonl"
    node -e 'const fs = require("fs");
      const lines = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const summary = lines.pop().summary;
      fs.appendFileSync(process.argv[2], JSON.stringify({summary, instances: lines}) + "\n");' \
      "$work/run.jsonl" "$work/runs.jsonl"
  done
done

revision=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$here/.." diff --quiet HEAD 2>/dev/null || revision="$revision (modified)"
node "$here/puzzle_report.js" "$work/runs.jsonl" "$out/puzzle.json" "$out/puzzle.md" \
  "bash $0${*:+ $*}" "$(nproc)" "$revision" "$instances"
echo "puzzle_bench: wrote $out/puzzle.json and $out/puzzle.md" >&2
