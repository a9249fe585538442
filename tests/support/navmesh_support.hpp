#pragma once
// What the navmesh tests (and bench/navmesh_bench.cpp) share: RecastDemo's path queries,
// seeded pairs on a mesh, and the check that a path stays on the mesh.

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::test {

/// RecastDemo's 21 path queries on nav_test.obj (TestCases/nav_mesh_test.txt), as start and goal.
inline std::vector<std::pair<Vec3, Vec3>> recast_demo_queries() {
  std::vector<std::pair<Vec3, Vec3>> out;
  for (const io::NavQueryLine& q : io::load_nav_queries(WAYMARK_DATA_DIR "/meshes/nav_mesh_test.txt")) {
    out.emplace_back(q.from, q.to);
  }
  return out;
}

/// `count` seeded pairs of polygon centres (the 1,000 pairs on dungeon.obj).
inline std::vector<std::pair<Vec3, Vec3>> centroid_pairs(const navmesh::NavMesh& nav, int count) {
  std::mt19937_64 rng(2017);
  std::uniform_int_distribution<std::uint32_t> any_poly(0, static_cast<std::uint32_t>(nav.poly_count() - 1));
  std::vector<std::pair<Vec3, Vec3>> pairs;
  for (int i = 0; i < count; ++i) pairs.emplace_back(nav.centroid(PolyId{any_poly(rng)}), nav.centroid(PolyId{any_poly(rng)}));
  return pairs;
}

/// Whether every point of the polyline, sampled every `step` units in plan, lies on a polygon
/// straight below or above it (within 4 units).
inline bool stays_on_mesh(const navmesh::NavMesh& nav, const std::vector<Vec3>& corners, double step = 0.05) {
  for (std::size_t i = 1; i < corners.size(); ++i) {
    const double len = distance(navmesh::plan(corners[i - 1]), navmesh::plan(corners[i]));
    const int samples = 1 + static_cast<int>(len / step);
    for (int s = 0; s <= samples; ++s) {
      if (!nav.poly_at(lerp(corners[i - 1], corners[i], static_cast<double>(s) / samples), 4)) return false;
    }
  }
  return true;
}

}  // namespace waymark::test
