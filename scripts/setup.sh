#!/usr/bin/env bash
# Installs the Debian packages waymark needs to build, test and benchmark.
# Idempotent: installs only what is missing. Called by `make` targets; safe to run by hand.
set -euo pipefail

packages=(
  build-essential cmake pkg-config   # toolchain
  libgtest-dev libgmock-dev          # tests (GoogleTest + CTest)
  libbenchmark-dev                   # make bench (Google Benchmark)
  libcli11-dev                       # CLI parsing
  nlohmann-json3-dev                 # --json output
  libcairo2-dev                      # PNG rendering of paths
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
