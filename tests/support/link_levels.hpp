#pragma once
// Hand-made navmeshes for the off-mesh link tests: floors of unit squares at given heights,
// with cells left out as walls, and links between them.

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::test {

/// Appends to `d` a floor of unit squares over [x0, x0 + nx) × [z0, z0 + nz) at height y,
/// leaving out the cells (i, j) that `wall(i, j)` names; squares next to each other are
/// neighbours.
inline void add_floor(navmesh::NavMeshData& d, double x0, double z0, int nx, int nz, double y,
                      const std::function<bool(int, int)>& wall = {}) {
  const auto base = static_cast<std::uint32_t>(d.vertices.size());
  for (int j = 0; j <= nz; ++j) {
    for (int i = 0; i <= nx; ++i) d.vertices.push_back({x0 + i, y, z0 + j});
  }
  const auto vertex = [&](int i, int j) { return base + static_cast<std::uint32_t>(j * (nx + 1) + i); };
  const auto open = [&](int i, int j) { return i >= 0 && j >= 0 && i < nx && j < nz && !(wall && wall(i, j)); };
  // Polygon numbers of the floor's open cells, in row order.
  std::vector<std::uint32_t> number(static_cast<std::size_t>(nx * nz), PolyId::invalid_value);
  auto next = static_cast<std::uint32_t>(d.areas.size());
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (open(i, j)) number[static_cast<std::size_t>(j * nx + i)] = next++;
    }
  }
  const auto poly = [&](int i, int j) { return open(i, j) ? PolyId{number[static_cast<std::size_t>(j * nx + i)]} : PolyId{}; };
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (!open(i, j)) continue;
      // Counter-clockwise in plan (x, z): edges bottom, right, top, left.
      d.corners.insert(d.corners.end(), {vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1), vertex(i, j + 1)});
      d.neighbors.insert(d.neighbors.end(), {poly(i, j - 1), poly(i + 1, j), poly(i, j + 1), poly(i - 1, j)});
      d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
      d.areas.push_back(0);
      d.flags.push_back(navmesh::walk_flag);
    }
  }
}

/// A two-storey level: a ground floor [0, 10] × [0, 10] at y = 0 and, above its near half, an
/// upper floor [0, 10] × [0, 4] at y = 3, not joined by any walkable surface. Climb 0.5.
inline navmesh::NavMeshData two_storeys() {
  navmesh::NavMeshData d;
  add_floor(d, 0, 0, 10, 10, 0);
  add_floor(d, 0, 0, 10, 4, 3);
  d.climb = 0.5;
  return d;
}

/// The drop-down link of two_storeys: from the upper floor's edge at (9, 3, 3.8) down to the
/// ground in front of it at (9, 0, 4.6).
inline navmesh::OffMeshLink drop_down(bool bidirectional = false) {
  return {.start = {9, 3, 3.8}, .end = {9, 0, 4.6}, .radius = 0.3, .bidirectional = bidirectional, .user_id = 7};
}

/// A two-storey level as an OBJ model (y up) for Recast: a ground floor [0, 20] × [0, 20] at
/// y = 0 and a solid block over [5, 15] × [2, 8], 3 high, whose top is the upper floor. No
/// walkable surface joins the top to the ground (the block's sides are walls).
inline const char* two_storey_obj =
    "v 0 0 0\nv 0 0 20\nv 20 0 20\nv 20 0 0\n"        // 1-4 the ground
    "v 5 3 2\nv 5 3 8\nv 15 3 8\nv 15 3 2\n"          // 5-8 the top
    "v 5 0 2\nv 5 0 8\nv 15 0 8\nv 15 0 2\n"          // 9-12 the block's foot
    "f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n"            // floors, facing up
    "f 9 10 6 5\nf 10 11 7 6\nf 11 12 8 7\nf 12 9 5 8\n";  // the block's sides

/// The drop-down of two_storey_obj: from the top's +x edge, 0.3 in, down to the ground 1 unit
/// beyond the block (radius 0.6, Recast's default agent radius, so that the top's eroded edge,
/// 0.6 in, is within reach).
inline navmesh::OffMeshLink block_drop_down(bool bidirectional = false) {
  return {.start = {14.7, 3, 5}, .end = {16, 0, 5}, .radius = 0.6, .bidirectional = bidirectional, .area = 5, .flags = 0x08, .user_id = 42};
}

/// Many links between two polygons (issue 41): two 10 × 10 squares side by side on the ground,
/// 1 apart (P, polygon 0, over x in [0, 10]; Q, polygon 1, over [11, 21]), no walkable surface
/// between them; Q's right edge opens onto a door (polygon 2, [21, 22] × [0, 10], flag 0x02)
/// and the door onto a room (polygon 3, [22, 32] × [0, 10]). Then `links` two-way links, each
/// from a seeded random point of P to one of Q, costing `cost` (0: their length).
inline navmesh::NavMeshData two_squares_with_links(std::size_t links, double cost = 0, std::uint64_t seed = 41) {
  navmesh::NavMeshData d;
  d.vertices = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10},    // P
                {11, 0, 0}, {21, 0, 0}, {21, 0, 10}, {11, 0, 10},  // Q
                {22, 0, 0}, {22, 0, 10}, {32, 0, 0}, {32, 0, 10}};  // the door's and the room's far sides
  const PolyId none;
  const auto square = [&](std::array<std::uint32_t, 4> corners, std::array<PolyId, 4> next, std::uint16_t flags) {
    d.corners.insert(d.corners.end(), corners.begin(), corners.end());
    d.neighbors.insert(d.neighbors.end(), next.begin(), next.end());
    d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
    d.areas.push_back(0);
    d.flags.push_back(flags);
  };
  square({0, 1, 2, 3}, {none, none, none, none}, navmesh::walk_flag);
  square({4, 5, 6, 7}, {none, PolyId{2}, none, none}, navmesh::walk_flag);
  square({5, 8, 9, 6}, {none, PolyId{3}, none, PolyId{1}}, 0x02);
  square({8, 10, 11, 9}, {none, none, none, PolyId{2}}, navmesh::walk_flag);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.5, 9.5);
  d.links.reserve(links);
  for (std::size_t i = 0; i < links; ++i) {
    const double ax = u(rng), az = u(rng), bx = 11 + u(rng), bz = u(rng);
    d.links.push_back({.start = {ax, 0, az}, .end = {bx, 0, bz}, .radius = 0.1, .bidirectional = true, .cost = cost,
                       .user_id = static_cast<std::uint32_t>(i)});
  }
  return d;
}

}  // namespace waymark::test
