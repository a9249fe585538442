#!/usr/bin/env bash
# Where a build tree's time went, from Ninja's log (build/<tree>/.ninja_log): wall time of the
# last build, the seconds spent compiling and linking (summed over both cores), and the slowest
# steps. docs/build.md keeps the findings.
#   scripts/build_times.sh build/release [N]    # N slowest steps (default 15)
set -euo pipefail
tree="${1:?usage: scripts/build_times.sh BUILD_TREE [N]}"
top="${2:-15}"
log="$tree/.ninja_log"
[ -f "$log" ] || { echo "build_times: no $log (configure with -G Ninja and build first)" >&2; exit 2; }
# .ninja_log v5: start_ms end_ms mtime output hash, one line per step in the order the steps
# ended, the clock starting at 0 for each run of ninja: the last run is the lines after the
# last place where the end time goes back. Ninja rewrites a long log in no such order
# ("recompacting"): read a tree right after the build you want to measure (a clean build is one
# run).
awk -F'\t' -v top="$top" '
  /^#/ { next }
  { if (n > 0 && $2 + 0 < last_end) { n = 0 } last_end = $2 + 0
    n++; start[n] = $1; end_[n] = $2; out[n] = $4 }
  END {
    first = -1; last = 0
    for (i = 1; i <= n; i++) {
      d = (end_[i] - start[i]) / 1000
      if (out[i] ~ /\.o$/) { kind = "compile" } else if (out[i] ~ /\.(a|so)$/) { kind = "archive" }
      else if (out[i] ~ /(\.gch|\.pch)$/) { kind = "precompiled header" } else { kind = "link/other" }
      sum[kind] += d; count[kind]++
      # what the step belongs to: the library, the CLI, tests, fuzz replays, benchmarks...
      part = out[i]
      if (part ~ /^CMakeFiles\/waymark_web_api/) part = "web API"
      else if (part ~ /^(CMakeFiles\/|libwaymark)/) part = "library"
      else if (part ~ /^(apps\/|bin\/waymark$)/) part = "CLI"
      else if (part ~ /^bin\/waymark_example/) part = "examples"
      else if (part ~ /^bin\/waymark_(serve_load|bench)/) part = (part ~ /bench/) ? "bench" : "tests"
      else { sub(/\/.*/, "", part) }
      by_part[part] += d
      if (first < 0 || start[i] < first) first = start[i]
      if (end_[i] > last) last = end_[i]
      line[i] = sprintf("%8.2f s  %s", d, out[i])
    }
    printf "wall %.1f s for %d steps\n", (last - first) / 1000, n
    for (k in sum) printf "  %-18s %4d steps %8.1f s (summed over the jobs)\n", k, count[k], sum[k]
    print "by part (compile, archive and link, summed over the jobs):"
    for (k in by_part) printf "  %-18s %8.1f s\n", k, by_part[k]
    printf "slowest %d:\n", top
    for (i = 1; i <= n; i++) print line[i] | "sort -rn | head -" top
  }' "$log"
