#!/usr/bin/env bash
# Configures a build tree with Ninja: [CC=… CXX=…] scripts/configure.sh TREE [cmake options...]
# A tree made by another generator (an older checkout's Unix Makefiles) or with another C++
# compiler than $CXX names is made again from scratch: CMake would refuse the one and ignore
# the other.
set -euo pipefail
tree=${1:?usage: scripts/configure.sh TREE [cmake options...]}
shift
cache="$tree/CMakeCache.txt"
if [ -f "$cache" ]; then
  why=""
  grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache" || why="another generator"
  cached_cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")
  wanted_cxx=$(command -v "${CXX:-c++}" || true)
  if [ -n "$wanted_cxx" ] && [ -n "$cached_cxx" ] &&
     [ "$(readlink -f "$wanted_cxx")" != "$(readlink -f "$cached_cxx")" ]; then
    why="another compiler ($cached_cxx)"
  fi
  if [ -n "$why" ]; then
    echo "configure: $tree was made with $why: removing it to configure it again"
    rm -rf "$tree"
  fi
fi
exec cmake -S . -B "$tree" -G Ninja "$@"
