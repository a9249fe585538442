#!/usr/bin/env bash
# Runs every fuzz target built in BUILD_DIR/fuzz for SECONDS each, on a working copy of its
# seed corpus (fuzz/corpus/NAME, left untouched), and prints a markdown table: target,
# executions, corpus size, findings. Exits 1 when any target found something; its crasher is
# kept in BUILD_DIR/findings/NAME (copy it into fuzz/corpus/NAME to make it a regression test).
#
#   bash fuzz/run.sh BUILD_DIR [SECONDS]
set -uo pipefail
build=${1:?BUILD_DIR}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
failed=0
rows=()
for bin in "$build"/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=${bin##*/fuzz_}
  work="$build/corpus/$name"
  findings="$build/findings/$name"
  mkdir -p "$work" "$findings"
  cp -n "$here/corpus/$name"/* "$work"/ 2>/dev/null || true
  log="$build/findings/$name.log"
  "$bin" "$work" -max_total_time="$seconds" -max_len=70000 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "$findings" -type f | wc -l)
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || failed=1
  rows+=("| $name | ${execs:-?} | $(find "$work" -type f | wc -l) | $found |")
  echo "fuzz: $name: ${execs:-?} executions, exit $rc, $found findings" >&2
done
echo "| target | executions | corpus files | findings |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
exit "$failed"
