#pragma once
// What the navmesh tests (and bench/navmesh_bench.cpp) share: RecastDemo's path queries,
// seeded pairs on a mesh, the check that a path stays on the mesh, and nearest_poly by brute force.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
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

/// NavMesh::nearest_poly by its definition, looking at every polygon: over those whose bounds
/// meet the box c ± h, the least distance to its closest point (over a polygon: only the height
/// beyond the climb counts), ties to the lowest id. What the index must agree with.
inline std::optional<navmesh::NearestPoly> brute_nearest_poly(const navmesh::NavMesh& nav, Vec3 c, Vec3 h) {
  const Aabb3 box = Aabb3::around(c - h, c + h);
  std::optional<navmesh::NearestPoly> best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (std::uint32_t i = 0; i < nav.poly_count(); ++i) {
    Aabb3 bounds;
    for (std::uint32_t v : nav.corners(PolyId{i})) bounds.expand(nav.vertex(v));
    if (!bounds.overlaps(box)) continue;
    const Vec3 on = nav.closest_point(PolyId{i}, c);
    double d2 = length_squared(on - c);
    if (on.x == c.x && on.z == c.z) d2 = std::pow(std::max(std::abs(on.y - c.y) - nav.data().climb, 0.0), 2);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = navmesh::NearestPoly{PolyId{i}, on};
    }
  }
  return best;
}

}  // namespace waymark::test
