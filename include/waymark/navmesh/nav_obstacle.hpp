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

/// An upright cylinder whose base is centred on `foot`.
struct CylinderObstacle {
  Vec3 foot;
  double radius = 0.5;  ///< [> 0, finite]
  double height = 2;    ///< [> 0, finite]
};

/// An axis-aligned box from `min` to `max` (each coordinate of min below max's).
struct BoxObstacle {
  Vec3 min;
  Vec3 max;
};

/// An upright prism: a convex polygon in plan (x, z as Vec2's x, y; either winding) from
/// height `min_y` to `max_y`.
struct PrismObstacle {
  std::vector<Vec2> corners;  ///< [3, max_prism_corners] corners, convex, not all on one line
  double min_y = 0;
  double max_y = 2;  ///< [> min_y]
};

using NavObstacle = std::variant<CylinderObstacle, BoxObstacle, PrismObstacle>;

/// What is wrong with `obstacle` (a number not finite, an empty extent, a prism not convex or
/// with too few or too many corners), or nullopt when nothing is.
[[nodiscard]] std::optional<std::string> find_obstacle_problem(const NavObstacle& obstacle);

/// The box `obstacle` fills.
[[nodiscard]] Aabb3 bounds(const NavObstacle& obstacle);

/// The shape's name as the obstacles file spells it: "cylinder", "box" or "prism".
[[nodiscard]] const char* shape_name(const NavObstacle& obstacle);

}  // namespace waymark::navmesh
