#!/usr/bin/env bash
# Installs the Debian packages waymark needs to build, test and benchmark, the npm peer used by
# `make bench` (bench/peers) and the npm driver of the viewer's browser tests (web/tests).
# Idempotent: installs only what is missing. Called by `make` targets; safe to run by hand.
set -euo pipefail

packages=(
  build-essential cmake pkg-config   # toolchain
  libgtest-dev libgmock-dev          # tests (GoogleTest + CTest)
  libbenchmark-dev                   # make bench (Google Benchmark)
  libcli11-dev                       # CLI parsing
  nlohmann-json3-dev                 # --json output
  libcairo2-dev                      # PNG rendering of paths
  libboost-graph-dev                 # graph tests (reference Dijkstra); make bench: Boost Graph A* peer
  librecast-dev                      # navmeshes built by Recast; Detour: reference in tests, peer in make bench
  libcpp-httplib-dev                 # waymark serve: the web viewer's HTTP server
  chromium                           # make test: the viewer end to end in headless Chromium
)

# `setup.sh fuzz` (make fuzz): also the fuzzing toolchain.
if [ "${1:-}" = fuzz ]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# make bench: PathFinding.js peer. Checked by command, not package: nodejs from NodeSource
# ships npm itself and conflicts with Debian's npm package.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The viewer's browser tests drive Chromium with playwright-core, pinned by web/tests/package-lock.json.
viewer_tests="$(dirname "$0")/../web/tests"
if [ ! -d "$viewer_tests/node_modules/playwright-core" ]; then
  echo "setup: npm ci in web/tests"
  (cd "$viewer_tests" && npm ci --no-audit --no-fund) ||
    echo "setup: warning: npm ci failed in web/tests; make test will not run the browser tests" >&2
fi

# The npm peer, pinned by bench/peers/package-lock.json.
peers="$(dirname "$0")/../bench/peers"
if [ ! -d "$peers/node_modules" ]; then
  echo "setup: npm ci in bench/peers"
  # Only make bench needs it: a failure (offline) must not stop make demo or make test.
  (cd "$peers" && npm ci --no-audit --no-fund) ||
    echo "setup: warning: npm ci failed in bench/peers; make bench will skip PathFinding.js" >&2
fi
