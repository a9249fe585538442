#!/usr/bin/env bash
# Every query of every Moving AI scenario file under SHARED_DATA/movingai, with A*, JPS and JPS+
# (or the algorithms given), each length checked against the published optimum by
# `waymark scen`. Prints one line per set and algorithm and a markdown table; exits 1 when any
# query is not optimal. Takes about 40 minutes on 2 cores (A* on the 512² mazes dominates).
#
#   bash bench/movingai_optimality.sh [BUILD_DIR] [SHARED_DATA] [ALGORITHMS...]
set -euo pipefail
build=${1:-build/release}
shared=${2:-../shared/data}
shift $(( $# > 2 ? 2 : $# ))
algorithms=("$@")
[ ${#algorithms[@]} -gt 0 ] || algorithms=(astar jps jps-plus)
waymark="$build/bin/waymark"
[ -x "$waymark" ] || { echo "movingai_optimality: no $waymark (build first)" >&2; exit 2; }
[ -d "$shared/movingai" ] || { echo "movingai_optimality: no $shared/movingai" >&2; exit 2; }

failed=0
rows=()
for dir in "$shared"/movingai/*/; do
  set_name=$(basename "$dir")
  compgen -G "$dir*.map.scen" > /dev/null || continue
  for a in "${algorithms[@]}"; do
    rc=0
    json=$("$waymark" scen "$dir"*.map.scen -a "$a" --json) || rc=$?
    [ "$rc" -le 1 ] || { echo "movingai_optimality: $set_name $a: waymark exited $rc" >&2; exit "$rc"; }
    row=$(node -e 'const j = JSON.parse(process.argv[1]);
      console.log(`| ${process.argv[2]} | ${process.argv[3]} | ${j.files.length} | ${j.queries} | ${j.optimal} | ${j.all_optimal ? "yes" : "NO"} | ${j.mean_us.toFixed(1)} |`)' \
      "$json" "$set_name" "$a")
    echo "$row" >&2
    rows+=("$row")
    [ "$rc" -eq 0 ] || failed=1
  done
done
echo "| set | algorithm | files | queries | optimal | all optimal | mean µs/query |"
echo "|---|---|---:|---:|---:|---|---:|"
printf '%s\n' "${rows[@]}"
exit "$failed"
