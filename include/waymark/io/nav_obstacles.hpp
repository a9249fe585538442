#pragma once
/// @file Obstacles files: the obstacles to carve out of a navmesh, one per line, in world units
/// with y up (as OBJ):
///
///     cylinder X Y Z RADIUS HEIGHT          # an upright cylinder whose base is centred on (X, Y, Z)
///     box X0 Y0 Z0 X1 Y1 Z1                 # an axis-aligned box between two opposite corners
///     prism Y0 Y1 X Z X Z X Z ...           # an upright prism over a convex polygon (x, z pairs)
///
/// Blank lines and `#` comments are ignored; CRLF is accepted. Errors are LoadError (file,
/// line, reason).

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"

namespace waymark::io {

/// The default most obstacles a file may hold. Counted while reading.
inline constexpr std::size_t default_max_nav_obstacles = 4096;

struct NavObstacleOptions {
  /// Most obstacles accepted; more is a LoadError naming this limit. [Limit: >= 1]
  std::size_t max_obstacles = default_max_nav_obstacles;
};

/// One obstacle and the line it was written on (from 1).
struct NavObstacleLine {
  navmesh::NavObstacle obstacle;
  std::size_t line = 0;
};

/// Reads an obstacles file; an empty one (no obstacle) is valid. Each obstacle is checked with
/// navmesh::find_obstacle_problem. `name` is used in error messages.
[[nodiscard]] std::vector<NavObstacleLine> parse_nav_obstacles(std::istream& in, const std::string& name,
                                                               const NavObstacleOptions& options = {});
[[nodiscard]] std::vector<NavObstacleLine> load_nav_obstacles(const std::string& path,
                                                              const NavObstacleOptions& options = {});

}  // namespace waymark::io
