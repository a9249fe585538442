#!/usr/bin/env bash
# make bench: Google Benchmark of grid search on bundled maps, then the full Moving AI "dao"
# set through `waymark scen` when ../shared/data is present, then waymark side by side with
# PathFinding.js and Boost Graph (bench/grid_peers.sh), then the road-graph algorithms against
# Boost's Dijkstra (bench/graph_bench.sh), then Korf's 15-puzzle instances 1-50 with each
# heuristic (bench/puzzle_bench.sh), then navmesh queries against Detour (waymark_bench_navmesh).
# Results: bench/results/.
set -euo pipefail
build=${1:-build/release}
shared=${2:-../shared/data}
out=bench/results
mkdir -p "$out"

"$build/bin/waymark_bench_grid" --benchmark_out="$out/grid_astar.json" --benchmark_out_format=json

dao="$shared/movingai/dao"
if [ -d "$dao" ]; then
  echo "waymark scen over every scenario file in $dao (A*, octile, no corner cutting)"
  "$build/bin/waymark" scen "$dao"/*.map.scen --json > "$out/dao_astar.json" || true
  # Top-level fields only: the per-file entries repeat some of the keys.
  # shellcheck disable=SC2016  # a JavaScript template literal, not a shell expansion
  node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(["queries", "optimal", "mean_us", "expanded_total", "time_total_s"].map((k) => `${k}=${j[k]}`).join(" "));' \
    "$out/dao_astar.json"
else
  echo "no $dao: skipping the full dao run"
fi

bash "$(dirname "$0")/grid_peers.sh" "$build" "$shared"

bash "$(dirname "$0")/graph_bench.sh" "$build"

bash "$(dirname "$0")/puzzle_bench.sh" "$build" "$shared"

echo "navmesh queries against Detour on the same Recast meshes"
"$build/bin/waymark_bench_navmesh" > "$out/navmesh.json"
cat "$out/navmesh.json"
