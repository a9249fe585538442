#pragma once
/// @file Obstacles placed on a navmesh at run time (a crate, a barrel, a parked cart): upright
/// cylinders, axis-aligned boxes and upright prisms over a convex polygon, in world units
/// with y up, as Detour's TileCache and Unity's NavMeshObstacle take them. Geometry only: the
/// tiled build carves them out of the tiles they touch.

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark::navmesh {

/// The most corners a prism's plan may have. [Limit]
inline constexpr std::size_t max_prism_corners = 64;
/// The largest magnitude of an obstacle's coordinates and sizes (foot, corners, heights,
/// radius, height), in world units: a double's step there is 1/8 unit, and every sum and
/// square carving takes of them stays finite. [Limit: 1e15]
inline constexpr double max_obstacle_coordinate = 1e15;

/// An upright cylinder whose base is centred on `foot`.
struct CylinderObstacle {
  Vec3 foot;            ///< [within ±max_obstacle_coordinate]
  double radius = 0.5;  ///< [> 0, max_obstacle_coordinate]
  double height = 2;    ///< [> 0, max_obstacle_coordinate]
};

/// An axis-aligned box from `min` to `max` (each coordinate of min below max's; all within
/// ±max_obstacle_coordinate).
struct BoxObstacle {
  Vec3 min;
  Vec3 max;
};

/// An upright prism: a convex polygon in plan (x, z as Vec2's x, y; either winding) from
/// height `min_y` to `max_y` (all within ±max_obstacle_coordinate).
struct PrismObstacle {
  std::vector<Vec2> corners;  ///< [3, max_prism_corners] corners, convex, not all on one line
  double min_y = 0;
  double max_y = 2;  ///< [> min_y]
};

using NavObstacle = std::variant<CylinderObstacle, BoxObstacle, PrismObstacle>;

/// What is wrong with `obstacle` (a number not finite or out of range, an empty extent, a prism
/// not convex or with too few or too many corners), or nullopt when nothing is.
[[nodiscard]] std::optional<std::string> find_obstacle_problem(const NavObstacle& obstacle);

/// The box `obstacle` fills.
[[nodiscard]] Aabb3 bounds(const NavObstacle& obstacle);

/// The shape's name as the obstacles file spells it: "cylinder", "box" or "prism".
[[nodiscard]] const char* shape_name(const NavObstacle& obstacle);

}  // namespace waymark::navmesh
