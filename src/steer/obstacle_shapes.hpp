#pragma once
// The obstacle world's narrow phase: one collider shape against a ray, a point and a disc.
// Internal to the steer module (src/steer): obstacle_world.cpp and obstacle_queries.cpp.

#include "waymark/core/geometry.hpp"
#include "waymark/core/polygon_edge_grid.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer::detail {

/// A hit of one shape: the distance along the unit direction and the normal facing the ray.
struct Hit {
  double t = 0;
  Vec2 normal;
};

/// Separation of a disc from a solid: `depth` > 0 is an overlap.
struct Push {
  Vec2 normal;
  double depth = 0;
};

/// The ray o + t·d (d a unit vector) against one shape; `axis` is an oriented box's (cos, sin),
/// `orientation` a polygon's (+1 anticlockwise, -1 clockwise, 0 degenerate). A ray starting
/// inside hits at t = 0 with the normal −d. `edges`: a polygon's edge grid, or nullptr to test
/// its every edge (the same answer); with a grid, hits beyond `limit` may be missed.
bool ray_shape(const Shape& shape, Vec2 axis, double orientation, const PolygonEdgeGrid* edges, Vec2 o, Vec2 d,
               double limit, Hit& h);
/// The distance from `p` to the closed box [lo, hi] (0 inside).
double box_distance(Vec2 lo, Vec2 hi, Vec2 p);
/// The disc (centre c, radius r) against the closed box [lo, hi].
Push box_push(Vec2 lo, Vec2 hi, Vec2 c, double r);
/// The distance from `p` to the shape (0 inside); `edges` as for ray_shape.
double shape_distance(const Shape& shape, Vec2 axis, const PolygonEdgeGrid* edges, Vec2 p);
/// The disc (centre c, radius r) against the shape; `edges` as for ray_shape.
Push shape_push(const Shape& shape, Vec2 axis, double orientation, const PolygonEdgeGrid* edges, Vec2 c, double r);

}  // namespace waymark::steer::detail
