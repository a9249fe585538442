#!/usr/bin/env bash
# Wall time of the steps of `make test`:
#   scripts/timed.sh FILE LABEL COMMAND...   runs COMMAND, appends "LABEL<TAB>seconds" to FILE,
#                                            exits with COMMAND's status
#   scripts/timed.sh --report FILE START     prints each step and the total since START (seconds
#                                            since the epoch)
set -uo pipefail
if [ "${1:-}" = --report ]; then
  file=$2
  start=$3
  total=$(( $(date +%s) - start ))
  echo
  echo "make test: wall time of each step"
  [ -f "$file" ] && awk -F'\t' '{ printf "  %-22s %6.0f s\n", $1, $2 }' "$file"
  printf '  %-22s %6d s (%d min %02d s; budget 15 min, docs/build.md)\n' "in all" "$total" $((total / 60)) $((total % 60))
  exit 0
fi
file=${1:?usage: scripts/timed.sh FILE LABEL COMMAND...}
label=${2:?usage: scripts/timed.sh FILE LABEL COMMAND...}
shift 2
mkdir -p "$(dirname "$file")"
start=$(date +%s.%N)
"$@"
rc=$?
awk -v label="$label" -v start="$start" -v end="$(date +%s.%N)" 'BEGIN { printf "%s\t%.1f\n", label, end - start }' >> "$file"
exit $rc
