#pragma once
// A flat level made from a grid map, for navmesh tests and benchmarks that need the same world
// as a grid scene: Recast builds a navmesh from it (the steering navmesh test, the dtCrowd
// benchmark).

#include <cstdint>
#include <limits>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::test {

/// A floor edge without a wall is a drop, which Recast's ledge filter eats a voxel of before
/// eroding: so every floor edge next to a blocked cell gets a wall, set `inset` into the blocked
/// cell (Recast then erodes the floor by the agent radius from the wall).
/// The map's free cells as floor quads at y = 0 (x and z the map's world coordinates), walls
/// `wall_height` tall (sides only) along every side a free cell shares with a blocked one,
/// `inset` into the blocked cell, and two unused vertices one cell beyond the corners that
/// pin Recast's bounds to whole cells.
inline TriangleMesh level_geometry(const grid::GridMap& map, double inset, double wall_height = 3.0) {
  TriangleMesh mesh;
  const double s = map.cell_size();
  const int w = map.width(), h = map.height();
  // Floor corners shared between neighbouring quads: grid point (i, j) is a cell corner.
  std::vector<std::uint32_t> corner(static_cast<std::size_t>(w + 1) * static_cast<std::size_t>(h + 1),
                                    std::numeric_limits<std::uint32_t>::max());
  const Vec2 origin = map.cell_center(grid::CellCoord{0, 0}) - Vec2{s / 2, s / 2};
  const auto point = [&](double i, double j, double y = 0) { return Vec3{origin.x + i * s, y, origin.y + j * s}; };
  const auto floor_corner = [&](int i, int j) {
    std::uint32_t& v = corner[static_cast<std::size_t>(j) * static_cast<std::size_t>(w + 1) + static_cast<std::size_t>(i)];
    if (v == std::numeric_limits<std::uint32_t>::max()) {
      v = static_cast<std::uint32_t>(mesh.vertices.size());
      mesh.vertices.push_back(point(i, j));
    }
    return v;
  };
  // Counter-clockwise seen from above (+y): (x, z) → (x, z + 1) → (x + 1, z) has its normal up.
  const auto quad = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    mesh.triangles.push_back({a, b, c});
    mesh.triangles.push_back({a, c, d});
  };
  const auto wall = [&](Vec3 a, Vec3 b) {  // a vertical quad over the floor line a–b
    const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
    mesh.vertices.insert(mesh.vertices.end(), {a, b, Vec3{b.x, wall_height, b.z}, Vec3{a.x, wall_height, a.z}});
    quad(base, base + 1, base + 2, base + 3);
  };
  const double e = inset / s;  // the inset in cells
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!map.passable(x, y)) continue;
      quad(floor_corner(x, y), floor_corner(x, y + 1), floor_corner(x + 1, y + 1), floor_corner(x + 1, y));
      if (!map.passable(x - 1, y)) wall(point(x - e, y), point(x - e, y + 1));
      if (!map.passable(x + 1, y)) wall(point(x + 1 + e, y), point(x + 1 + e, y + 1));
      if (!map.passable(x, y - 1)) wall(point(x, y - e), point(x + 1, y - e));
      if (!map.passable(x, y + 1)) wall(point(x, y + 1 + e), point(x + 1, y + 1 + e));
    }
  }
  mesh.vertices.push_back(point(-1, -1));
  mesh.vertices.push_back(point(w + 1, h + 1));
  return mesh;
}

}  // namespace waymark::test
