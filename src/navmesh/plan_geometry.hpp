#pragma once
// Plan (x, z) predicates shared by the navmesh sources (not installed, not public).

#include <algorithm>
#include <cmath>
#include <optional>

#include "waymark/core/geometry.hpp"

namespace waymark::navmesh::detail {

/// Relative tolerance of the convexity test: a corner may turn right by this much of its two
/// edges' lengths multiplied (rounding in a builder's sums), and still count as straight.
inline constexpr double convexity_tolerance = 1e-9;

/// Points this close (world units) are one point, and a point this close to a line or a
/// polygon's edge is on it: rounding in the points' own arithmetic (interval ends come from
/// chains of intersections), not a tolerance for sloppy input.
inline constexpr double snap_distance = 1e-9;

/// Twice the signed area of a, b, c: > 0 when c is left of the ray from a through b.
inline double turn(Vec2 a, Vec2 b, Vec2 c) { return cross(b - a, c - a); }

/// Which side of the ray from a through b the point c is on: 1 left, -1 right, 0 on its line
/// (within snap_distance).
inline int side(Vec2 a, Vec2 b, Vec2 c) {
  const double t = turn(a, b, c);
  if (std::abs(t) <= snap_distance * length(b - a)) return 0;
  return t > 0 ? 1 : -1;
}

inline bool same_point(Vec2 a, Vec2 b) { return length_squared(a - b) <= snap_distance * snap_distance; }

/// The point where the line from `r` through `p` crosses the segment a-b (clamped to it, and
/// snapped to a or b when that close).
[[gnu::always_inline]] inline Vec2 line_hit(Vec2 r, Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = p - r;
  const double den = cross(d, b - a);
  if (den == 0) return a;
  const Vec2 hit = lerp(a, b, std::clamp(cross(d, r - a) / den, 0.0, 1.0));
  return same_point(hit, a) ? a : same_point(hit, b) ? b : hit;
}

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
  const double cu = cross(q - pa, pe - pa), cv = cross(pb - pa, q - pa);
  // A weight below 0 (its cross product's sign against d's) rejects q before any division.
  if (d > 0 ? (cu < 0 || cv < 0) : (cu > 0 || cv > 0)) return std::nullopt;
  const double u = cu / d;  // weight of b
  const double v = cv / d;  // weight of e
  if (u < 0 || v < 0 || u + v > 1) return std::nullopt;
  return a.y + u * (b.y - a.y) + v * (e.y - a.y);
}

}  // namespace waymark::navmesh::detail
