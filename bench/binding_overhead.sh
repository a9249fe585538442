#!/usr/bin/env bash
# What a grid query costs through the bindings, against C++ on the same queries (issue 42;
# docs/c_api.md "Overhead"): a kept C++ search handle, wm_plan (C), and GridPlanner.Plan's
# non-allocating overload (C#, Mono), µs per query and the difference. Needs make bench's
# build (waymark_bench_capi, Waymark.dll); C# is skipped, saying so, without Mono.
# Rounds per map (each round every query of its .scen): enough that a map's run takes seconds,
# so the difference is not lost in this machine's noise (5 rounds of arena's 130 short queries
# showed a 6 µs "overhead" that 200 rounds put at 0.01-0.27 µs). ROUNDS scales them (default 1).
# Usage: bench/binding_overhead.sh BUILD_DIR [SHARED_DATA] [ROUNDS]
set -euo pipefail
build=$(cd "${1:?usage: bench/binding_overhead.sh BUILD_DIR [SHARED_DATA] [ROUNDS]}" && pwd)
shared=${2:-../shared/data}
scale=${3:-1}
here="$(cd "$(dirname "$0")/.." && pwd)"
cs="$build/csharp"
have_cs=0
if command -v mcs >/dev/null && command -v mono >/dev/null && [ -f "$cs/Waymark.dll" ]; then
  mcs -langversion:7 -nologo -r:"$cs/Waymark.dll" -out:"$cs/csharp_overhead.exe" "$here/bench/CSharpOverhead.cs"
  have_cs=1
else
  echo "binding overhead: no mcs/mono or no $cs/Waymark.dll: C# skipped"
fi
runs=("$here/data/maps/arena.map:200" "$here/data/maps/den520d.map:10")
[ -f "$shared/movingai/street/Berlin_0_512.map" ] && runs+=("$shared/movingai/street/Berlin_0_512.map:5")
printf "%-22s %-9s %9s %9s %9s %9s %9s\n" map algorithm "C++ µs" "C µs" "C - C++" "C# µs" "C# - C++"
for run in "${runs[@]}"; do
  map=${run%:*}
  rounds=$((${run##*:} * scale))
  for algorithm in astar jps; do
    c_json=$("$build/bin/waymark_bench_capi" "$map" "$map.scen" "$algorithm" "$rounds")
    cpp=$(sed -E 's/.*"cpp_us": ([0-9.]+).*/\1/' <<<"$c_json")
    c=$(sed -E 's/.*"c_us": ([0-9.]+).*/\1/' <<<"$c_json")
    cs_us="-"; cs_over="-"
    if [ $have_cs = 1 ]; then
      cs_json=$(cd "$cs" && LD_LIBRARY_PATH="$build" mono csharp_overhead.exe "$map" "$map.scen" "$algorithm" "$rounds")
      cs_us=$(sed -E 's/.*"csharp_us": ([0-9.]+).*/\1/' <<<"$cs_json")
      cs_over=$(awk -v a="$cs_us" -v b="$cpp" 'BEGIN { printf "%.3f", a - b }')
      # A few bytes in all (the timer's) are not the queries': flag a byte or more per query.
      cs_bytes=$(sed -E 's/.*"allocated_bytes": ([0-9]+).*/\1/' <<<"$cs_json")
      queries=$(sed -E 's/.*"queries": ([0-9]+).*/\1/' <<<"$c_json")
      [ "$cs_bytes" -lt $((queries * rounds)) ] || echo "C#'s non-allocating Plan allocated $cs_bytes bytes in $((queries * rounds)) queries"
    fi
    printf "%-22s %-9s %9s %9s %9s %9s %9s\n" "$(basename "$map")" "$algorithm" "$cpp" "$c" \
      "$(awk -v a="$c" -v b="$cpp" 'BEGIN { printf "%.3f", a - b }')" "$cs_us" "$cs_over"
  done
done
