#pragma once
// Disjoint sets over 0 … n−1 (union-find with path halving), for the navmesh builders: the
// vertices welded across tile borders (tile_stitch.cpp) and the islands joined by off-mesh
// links (nav_links.cpp). Not installed.

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace waymark::navmesh::detail {

struct DisjointSets {
  std::vector<std::uint32_t> parent;

  /// n singletons.
  void reset(std::size_t n) {
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0u);
  }
  [[nodiscard]] std::uint32_t find(std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  }
  /// Joins a's set to b's: b's root stays the root.
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[a] = b;
  }
};

}  // namespace waymark::navmesh::detail
