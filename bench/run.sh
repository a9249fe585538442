#!/usr/bin/env bash
# make bench: Google Benchmark of grid search on bundled maps, then the full Moving AI "dao"
# set through `waymark scen` when ../shared/data is present. Results: bench/results/.
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
  for key in queries optimal mean_us expanded_total time_total_s; do
    printf '%s=%s ' "$key" "$(grep -o "\"$key\":[^,}]*" "$out/dao_astar.json" | head -n 1 | cut -d: -f2)"
  done
  echo
else
  echo "no $dao: skipping the full dao run"
fi
