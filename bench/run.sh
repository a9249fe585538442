#!/usr/bin/env bash
# make bench: Google Benchmark of grid search on bundled maps, then the full Moving AI "dao"
# set through `waymark scen` when ../shared/data is present, then waymark side by side with
# PathFinding.js and Boost Graph (bench/grid_peers.sh), then the road-graph algorithms against
# Boost's Dijkstra (bench/graph_bench.sh), then Korf's 15-puzzle instances 1-50 with each
# heuristic (bench/puzzle_bench.sh), then navmesh queries against Detour (waymark_bench_navmesh), solo
# and tiled (waymark_bench_tiled).
# Between them, issue 13's planning services: the request queue's overhead per update, any-angle
# lengths and times, batch throughput on 1 and 2 threads, D* Lite against A* from scratch. Then
# issue 14's steering: raycasts, crowd solvers, flow fields, simulation ticks, and a 1,000-agent
# navmesh crowd against Detour's dtCrowd.
# Results: bench/results/.
set -euo pipefail
build=${1:-build/release}
shared=${2:-../shared/data}
out=bench/results
mkdir -p "$out"

"$build/bin/waymark_bench_grid" --benchmark_out="$out/grid_astar.json" --benchmark_out_format=json

echo "bindings: a grid query through C and C# against C++ on the same queries (µs; docs/c_api.md)"
bash "$(dirname "$0")/binding_overhead.sh" "$build" "$shared" | tee "$out/binding_overhead.txt"

echo "request queue: overhead per update against the same searches run straight (docs/request_queue.md)"
"$build/bin/waymark_bench_queue" --benchmark_out="$out/request_queue.json" --benchmark_out_format=json

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

echo "any-angle paths: Theta* against A* and smoothed A* (mean length / Moving AI optimum, us/query; docs/smoothing.md)"
"$build/bin/waymark_bench_any_angle" --name bundled data/maps/*.map.scen | tee "$out/any_angle.jsonl"
echo "any-angle paths on rectangle maps: mean length / the true Euclidean shortest path (visibility graph)"
"$build/bin/waymark_bench_any_angle" --rectangles | tee -a "$out/any_angle.jsonl"
if [ -d "$dao" ]; then
  "$build/bin/waymark_bench_any_angle" --name dao --sample-every 50 "$dao"/*.map.scen | tee -a "$out/any_angle.jsonl"
fi

echo "batch throughput: run_batch on 1 and 2 threads, queries/s and the ratio (target >= 1.8; docs/batch.md)"
if [ -d "$dao" ]; then
  "$build/bin/waymark_bench_batch" --name dao --algorithm astar --sample-every 10 "$dao"/*.map.scen | tee "$out/batch.jsonl"
  "$build/bin/waymark_bench_batch" --name dao --algorithm jps "$dao"/*.map.scen | tee -a "$out/batch.jsonl"
else
  "$build/bin/waymark_bench_batch" --name bundled --algorithm astar data/maps/*.map.scen | tee "$out/batch.jsonl"
  "$build/bin/waymark_bench_batch" --name bundled --algorithm jps data/maps/*.map.scen | tee -a "$out/batch.jsonl"
fi

echo "re-planning after edits: D* Lite against A* from scratch (µs per re-plan, expansions; docs/replanning.md)"
if [ -d "$dao" ]; then
  "$build/bin/waymark_bench_replan" "$dao" 10 > "$out/replan.json"
else
  "$build/bin/waymark_bench_replan" data/maps 10 > "$out/replan.json"
fi

bash "$(dirname "$0")/grid_peers.sh" "$build" "$shared"

bash "$(dirname "$0")/graph_bench.sh" "$build"

bash "$(dirname "$0")/puzzle_bench.sh" "$build" "$shared"

echo "navmesh queries against Detour on the same Recast meshes"
"$build/bin/waymark_bench_navmesh" > "$out/navmesh.json"
cat "$out/navmesh.json"
echo "tiled navmeshes: per-tile build time and memory, stitching, queries against Detour's tiled mesh"
"$build/bin/waymark_bench_tiled" > "$out/navmesh_tiled.json"
cat "$out/navmesh_tiled.json"
echo "navmesh bakes: Recast's build against loading the .wmnav (docs/levels.md Baking)"
"$build/bin/waymark_bench_bake" > "$out/bake.json"
cat "$out/bake.json"
echo "obstacles that carve: time per obstacle added and removed, against Detour's TileCache (docs/carving.md)"
"$build/bin/waymark_bench_carve" | tee "$out/carve.jsonl"

# Steering (issue 14; docs/steering.md).
echo "steering: raycasts per second against every collider kind, broad phase against brute force"
"$build/bin/waymark_bench_steer_raycast" --benchmark_out="$out/steer_raycast.json" --benchmark_out_format=json
echo "steering: crowd solvers per tick (ORCA against sampled velocity obstacles) and their quality"
"$build/bin/waymark_bench_steer_crowd" | tee "$out/steer_crowd.txt"
echo "steering: flow-field build time and cost per agent"
"$build/bin/waymark_bench_steer_flow" --benchmark_out="$out/steer_flow.json" --benchmark_out_format=json
echo "steering: simulation tick time for 100, 1,000 and 10,000 agents (path following, obstacle and agent avoidance)"
steer_map=data/maps/den520d.map
if [ -f "$dao/orz703d.map" ]; then steer_map="$dao/orz703d.map"; fi
"$build/bin/waymark_bench_steer" --agents 100,1000,10000 --ticks 200 "$steer_map" | tee "$out/steer_sim.jsonl"  # static and live (orders, doors)
if [ -x "$build/bin/waymark_bench_crowd_detour" ]; then
  echo "steering: 100 and 1,000 agents on a navmesh (10,000: the set-up alone takes minutes, docs/live_game.md), waymark's Simulation against Detour's dtCrowd (target <= 0.5x its tick time, no overlaps)"
  "$build/bin/waymark_bench_crowd_detour" --agents 100,1000 | tee "$out/crowd_detour.jsonl"
  echo "steering: the same with a stream of new goals (0.5 % of the agents a tick, both sides)"
  "$build/bin/waymark_bench_crowd_detour" --agents 100,1000 --orders | tee "$out/crowd_detour_orders.jsonl"
fi

# The viewer's server under load (issue 15; docs/viewer.md): valid and hostile requests from
# 16 clients for 60 s; requests served, p50/p99 latency, time to first byte against search
# time, errors by kind, RSS over the run.
if [ -x "$build/bin/waymark_serve_load" ]; then
  echo "waymark serve: 16 clients for 60 s on loopback, valid and hostile requests mixed"
  "$build/bin/waymark_serve_load" "$build/bin/waymark" data --clients 16 --seconds 60 | tee "$out/serve_load.txt"
fi

# The viewer's reply encoding (issue 28; docs/viewer.md): each reply's bytes and time to the
# last byte by what the client asks for, as served by default on loopback and with --compress gzip.
echo "waymark serve: reply sizes and times by encoding (default: none on loopback; then --compress gzip)"
bash bench/serve_encoding.sh "$build/bin/waymark" | tee "$out/serve_encoding.txt"
bash bench/serve_encoding.sh "$build/bin/waymark" --compress gzip | tee -a "$out/serve_encoding.txt"

# The server under attack (issue 32; docs/viewer.md): each hostile input of the issue at its
# full size (status, seconds, growth of the server's peak RSS), then 50 slow or idle sockets
# held while a normal request is timed.
echo "waymark serve: hostile inputs at full size, and slow clients"
/usr/bin/python3 bench/serve_attacks.py "$build/bin/waymark" | tee "$out/serve_attacks.txt"

# The CLI's hostile inputs (issue 32, sections 1, 2 and 4; docs/robustness.md): each generated,
# run, and reported with its exit code, seconds, peak RSS and first line.
echo "waymark CLI: the hostile inputs of issue 32"
/usr/bin/python3 bench/cli_attacks.py "$build/bin/waymark" | tee "$out/cli_attacks.txt"
