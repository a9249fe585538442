#pragma once
// Plan (x, z) predicates shared by the navmesh sources (not installed, not public).

#include <cmath>
#include <optional>

#include "waymark/core/geometry.hpp"

namespace waymark::navmesh::detail {

/// Relative tolerance of the convexity test: a corner may turn right by this much of its two
/// edges' lengths multiplied (rounding in a builder's sums), and still count as straight.
inline constexpr double convexity_tolerance = 1e-9;

/// How far outside a polygon's edge (world units) a point still counts as on it: rounding in
/// the point's own arithmetic, not a tolerance for sloppy input.
inline constexpr double on_edge_distance = 1e-9;

/// Whether the path a → b → e turns left or goes straight on at b (within convexity_tolerance).
inline bool turns_left_or_straight(Vec2 a, Vec2 b, Vec2 e) {
  const Vec2 u = b - a, v = e - b;
  return cross(u, v) >= -convexity_tolerance * length(u) * length(v);
}

/// The height (y) at plan point `q` of the triangle a b e when `q` lies in its plan (edges
/// included), else nullopt. The triangle may be wound either way; a flat one has no height.
inline std::optional<double> height_in_triangle(Vec3 a, Vec3 b, Vec3 e, Vec2 q) {
  const Vec2 pa = {a.x, a.z}, pb = {b.x, b.z}, pe = {e.x, e.z};
  const double d = cross(pb - pa, pe - pa);
  if (d == 0) return std::nullopt;
  const double u = cross(q - pa, pe - pa) / d;  // weight of b
  const double v = cross(pb - pa, q - pa) / d;   // weight of e
  if (u < 0 || v < 0 || u + v > 1) return std::nullopt;
  return a.y + u * (b.y - a.y) + v * (e.y - a.y);
}

}  // namespace waymark::navmesh::detail
