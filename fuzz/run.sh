#!/usr/bin/env bash
# Runs every fuzz target built in BUILD_DIR/fuzz for SECONDS each (or, when RUNS is given and
# not 0, for RUNS executions each, however long that takes), on a working copy of its
# seed corpus (fuzz/corpus/NAME, left untouched), and prints a markdown table: target,
# executions, corpus size, findings. Exits 1 when any target found something; its crasher is
# kept in BUILD_DIR/findings/NAME (copy it into fuzz/corpus/NAME to make it a regression test).
#
#   bash fuzz/run.sh BUILD_DIR [SECONDS] [RUNS]
set -uo pipefail
build=${1:?BUILD_DIR}
seconds=${2:-60}
runs=${3:-0}
length=(-max_total_time="$seconds")
[ "$runs" -gt 0 ] && length=(-runs="$runs")
here=$(cd "$(dirname "$0")" && pwd)
failed=0
rows=()
for bin in "$build"/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=${bin##*/fuzz_}
  work="$build/corpus/$name"
  findings="$build/findings/$name"
  mkdir -p "$work" "$findings"
  rm -f "$findings"/*
  cp -n "$here/corpus/$name"/* "$work"/ 2>/dev/null || true
  log="$build/findings/$name.log"
  "$bin" "$work" "${length[@]}" -max_len=70000 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$findings/" -print_final_stats=1 > "$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "$findings" -type f | wc -l)
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || failed=1
  secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1)
  rows+=("| $name | ${execs:-?} | ${secs:-?} | $(find "$work" -type f | wc -l) | $found |")
  echo "fuzz: $name: ${execs:-?} executions, exit $rc, $found findings" >&2
done
echo "| target | executions | seconds | corpus files | findings |"
echo "|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
exit "$failed"
