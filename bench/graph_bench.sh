#!/usr/bin/env bash
# Road-graph benchmark: waymark's graph algorithms (Dijkstra, bidirectional Dijkstra, A*,
# ALT, contraction hierarchies, route tables) against Boost Graph's Dijkstra on the same
# random queries of Rome99, Oldenburg and a generated road network of about a million
# vertices; every distance is checked against Boost's.
#
#   bash bench/graph_bench.sh [BUILD_DIR]      (make bench runs it)
#
# GRAPH_BENCH_SIDE=N sets the generated grid's side (default 1000: 10^6 vertices);
# GRAPH_BENCH_QUERIES / GRAPH_BENCH_GENERATED_QUERIES the query counts.
# Results: bench/results/graph.json and bench/results/graph.md.
set -euo pipefail
build=${1:-build/release}
out=bench/results
here=$(dirname "$0")
bench="$build/bin/waymark_bench_graph"
queries=${GRAPH_BENCH_QUERIES:-10000}
generated_queries=${GRAPH_BENCH_GENERATED_QUERIES:-300}
side=${GRAPH_BENCH_SIDE:-1000}
[ -x "$bench" ] || { echo "graph_bench: no $bench (build with Boost first)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bench" rome99 --queries "$queries" > "$work/runs.jsonl"
"$bench" oldenburg --queries "$queries" >> "$work/runs.jsonl"
"$bench" generated --side "$side" --queries "$generated_queries" >> "$work/runs.jsonl"

revision=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$here/.." diff --quiet HEAD 2>/dev/null || revision="$revision (modified)"
node "$here/graph_report.js" "$work/runs.jsonl" "$out/graph.json" "$out/graph.md" \
  "bash $0${*:+ $*}" "$(nproc)" "$revision"
echo "graph_bench: wrote $out/graph.json and $out/graph.md" >&2
