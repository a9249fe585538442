#!/usr/bin/env bash
# Installs what waymark needs, for one purpose at a time, so that `make demo` waits only for
# what the CLI needs:
#   scripts/setup.sh demo    the toolchain and the libraries the CLI links
#   scripts/setup.sh test    also GoogleTest, Boost Graph, Google Benchmark (its sources are
#                            compile-checked), clang (the ASan build), Chromium, Node.js and
#                            the viewer's test driver, Mono (the C# binding's tests)
#   scripts/setup.sh bench   also the npm peer of make bench (bench/peers)
#   scripts/setup.sh fuzz    the demo's packages and clang with its fuzzing runtime
#   scripts/setup.sh [all]   everything above
# Idempotent: installs only what is missing (no apt-get at all when nothing is). Called by
# `make` targets; safe to run by hand.
set -euo pipefail
purpose=${1:-all}
case "$purpose" in demo | test | bench | fuzz | all) ;; *)
  echo "usage: scripts/setup.sh [demo|test|bench|fuzz|all]" >&2
  exit 2
  ;;
esac
want() { [ "$purpose" = all ] || [[ " $* " == *" $purpose "* ]]; }

packages=(
  build-essential cmake ninja-build pkg-config  # toolchain (Ninja: docs/build.md)
  libcli11-dev                       # CLI parsing
  nlohmann-json3-dev                 # --json output, scene files
  libcairo2-dev                      # PNG and SVG pictures
  librecast-dev                      # navmeshes built by Recast; Detour: reference in tests, peer in make bench
  libmicrohttpd-dev zlib1g-dev       # waymark serve: the viewer's HTTP server (event-driven), its gzip replies
)
if want test bench; then
  packages+=(
    libgtest-dev libgmock-dev        # tests (GoogleTest + CTest)
    libbenchmark-dev                 # make bench (Google Benchmark); make test compiles the sources
    libboost-graph-dev               # graph tests (reference Dijkstra); make bench: Boost Graph A* peer
  )
fi
if want test fuzz; then
  packages+=(clang libclang-rt-14-dev)  # the ASan+UBSan build of make test, and libFuzzer (make fuzz)
fi
if want test; then
  packages+=(chromium)               # make test: the viewer end to end in headless Chromium
fi
if want test bench; then
  packages+=(mono-mcs mono-runtime)  # the C# binding (bindings/csharp): compiled and run by make test
fi
if want bench; then
  packages+=(curl)                   # make bench: bench/serve_encoding.sh asks the server with curl
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js: the browser test's driver (make test) and the PathFinding.js peer (make bench).
# Checked by command, not package: nodejs from NodeSource ships npm itself and conflicts with
# Debian's npm package.
if want test bench && { ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; }; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup ($purpose): installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

here="$(cd "$(dirname "$0")/.." && pwd)"
# The viewer's browser tests drive Chromium with playwright-core, pinned by web/tests/package-lock.json.
if want test && [ ! -d "$here/web/tests/node_modules/playwright-core" ]; then
  echo "setup: npm ci in web/tests"
  (cd "$here/web/tests" && npm ci --no-audit --no-fund) ||
    echo "setup: warning: npm ci failed in web/tests; make test will not run the browser tests" >&2
fi

# The npm peer, pinned by bench/peers/package-lock.json.
if want bench && [ ! -d "$here/bench/peers/node_modules" ]; then
  echo "setup: npm ci in bench/peers"
  # Only make bench needs it: a failure (offline) must not stop it.
  (cd "$here/bench/peers" && npm ci --no-audit --no-fund) ||
    echo "setup: warning: npm ci failed in bench/peers; make bench will skip PathFinding.js" >&2
fi
