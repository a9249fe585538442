#!/usr/bin/env bash
# Side-by-side grid pathfinding benchmark: waymark (A*, and JPS / JPS+ when the CLI has them)
# against PathFinding.js (A*, JPS) and Boost Graph A*, on the same sampled Moving AI queries
# (query i of each scenario file when i % N == 0), all under the benchmark rules
# (8-connected, √2 diagonals, no corner cutting, octile heuristic).
#
#   bash bench/grid_peers.sh [BUILD_DIR] [SHARED_DATA]      (make bench runs it)
#
# Sets: dao, sc1 and street under SHARED_DATA/movingai when present, else the bundled
# data/maps. N per set keeps the run under 25 minutes on 2 cores: PathFinding.js clones the
# whole grid for every search (~0.3 µs per cell, ~0.3 s per query on 1024² maps), which
# dominates. GRID_PEERS_SAMPLE_EVERY=N overrides N for every set (quick checks).
# Peers run one after another, so they do not compete for the cores.
# Results: bench/results/grid_peers.json and bench/results/grid_peers.md.
set -euo pipefail
build=${1:-build/release}
shared=${2:-../shared/data}
out=bench/results
here=$(dirname "$0")
command_line="bash $0${*:+ $*}"
waymark="$build/bin/waymark"
boost="$build/bin/waymark_bench_boost_astar"
pfjs="$here/peers/pathfinding_scen.js"
# The bad-input exit code shared by waymark and the peer programs; 0 and 1 (all / not all
# optimal) both come with a result.
exit_bad_input=2

# Queries sampled per set, measured on 2 cores (PathFinding.js A* + JPS ≈ 12 minutes in all).
declare -A sample_every=([dao]=50 [sc1]=60 [street]=40 [bundled]=1)

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs="$work/runs.tsv"
: > "$runs"

[ -x "$waymark" ] || { echo "grid_peers: no $waymark (build first)" >&2; exit "$exit_bad_input"; }

# set name, then its scenario files (a glob, kept as written for the report)
sets=()
if [ -d "$shared/movingai" ]; then
  for s in dao sc1 street; do
    compgen -G "$shared/movingai/$s/*.map.scen" > /dev/null && sets+=("$s|$shared/movingai/$s/*.map.scen")
  done
fi
[ ${#sets[@]} -gt 0 ] || sets+=("bundled|data/maps/*.map.scen")

# Whether `waymark scen` accepts an algorithm: listed in its --help, or (the list in the help
# text may lag behind the parser) accepted on a one-query run.
has_algorithm() {
  "$waymark" scen --help 2>/dev/null | grep -Eq -- "(^|[^a-z+-])$1([^a-z+-]|$)" && return 0
  local rc=0
  "$waymark" scen "$here/../data/maps/arena.map.scen" --sample-every 1000000 -a "$1" --json > /dev/null 2>&1 || rc=$?
  [ "$rc" -lt "$exit_bad_input" ]
}

have_node=yes
command -v node > /dev/null 2>&1 && [ -d "$here/peers/node_modules/pathfinding" ] || have_node=no

# run SET SAMPLE PEER SHOWN COMMAND...: runs one peer and records its JSON (or why there is
# none); SHOWN is the command as the report prints it, with the set's glob unexpanded.
run() {
  local set=$1 sample=$2 peer=$3 shown=$4
  shift 4
  local json="$work/$set.$peer.json" err="$work/$set.$peer.err" rc=0 t0 t1 status=ok
  echo "grid_peers: $set, sample every $sample: $peer" >&2
  t0=$(date +%s%N)
  "$@" > "$json" 2> "$err" || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" -ge "$exit_bad_input" ] || [ ! -s "$json" ]; then
    status="failed (exit $rc): $(head -c 300 "$err" | tr '\t\n' '  ')"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$sample" "$peer" "$status" "$json" \
    "$(((t1 - t0) / 1000000))" "$shown" >> "$runs"
}

# unavailable SET SAMPLE PEER REASON
unavailable() {
  printf '%s\t%s\t%s\t%s\t\t0\t\n' "$1" "$2" "$3" "not available: $4" >> "$runs"
}

for entry in "${sets[@]}"; do
  set=${entry%%|*}
  pattern=${entry#*|}
  sample=${GRID_PEERS_SAMPLE_EVERY:-${sample_every[$set]}}
  # shellcheck disable=SC2206  # the glob is meant to expand here
  files=($pattern)

  for alg in astar jps jps-plus; do
    if has_algorithm "$alg"; then
      run "$set" "$sample" "waymark-$alg" "$waymark scen $pattern --sample-every $sample --json -a $alg" \
        "$waymark" scen "${files[@]}" --sample-every "$sample" --json -a "$alg"
    else
      unavailable "$set" "$sample" "waymark-$alg" "waymark scen has no -a $alg"
    fi
  done

  for finder in astar jps; do
    if [ "$have_node" = yes ]; then
      run "$set" "$sample" "pathfinding.js-$finder" "node $pfjs $pattern --sample-every $sample --finder $finder" \
        node "$pfjs" "${files[@]}" --sample-every "$sample" --finder "$finder"
    else
      unavailable "$set" "$sample" "pathfinding.js-$finder" "node or bench/peers/node_modules missing (scripts/setup.sh)"
    fi
  done

  if [ -x "$boost" ]; then
    run "$set" "$sample" boost-astar "$boost $pattern --sample-every $sample" \
      "$boost" "${files[@]}" --sample-every "$sample"
  else
    unavailable "$set" "$sample" boost-astar "$boost not built (Boost headers missing at configure time)"
  fi
done

if ! command -v node > /dev/null 2>&1; then
  echo "grid_peers: node is needed to write the report (scripts/setup.sh installs it)" >&2
  exit "$exit_bad_input"
fi
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || revision="$revision (modified)"
node "$here/grid_peers_report.js" "$runs" "$out/grid_peers.json" "$out/grid_peers.md" \
  "$command_line" "$(nproc)" "$revision"
echo "grid_peers: wrote $out/grid_peers.json and $out/grid_peers.md" >&2
