#pragma once
/// @file Points, segments and boxes in world units, shared by every world (grid cell centres,
/// graph vertex positions, navmesh vertices) and by what consumes paths (smoothing, movement,
/// rendering). Plain value types; every function is constexpr or inline and allocates nothing.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <cstddef>
#include <limits>
#include <span>

namespace waymark {

/// A point or direction in the plane, world units.
struct Vec2 {
  double x = 0;
  double y = 0;

  friend constexpr bool operator==(Vec2, Vec2) = default;
  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator*(Vec2 a, double s) { return {a.x * s, a.y * s}; }
  friend constexpr Vec2 operator*(double s, Vec2 a) { return a * s; }
  friend constexpr Vec2 operator/(Vec2 a, double s) { return {a.x / s, a.y / s}; }
  friend constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
  constexpr Vec2& operator+=(Vec2 b) { return *this = *this + b; }
  constexpr Vec2& operator-=(Vec2 b) { return *this = *this - b; }
};

/// A point or direction in space, world units. 2D worlds (grids, planar graphs) use z = 0.
struct Vec3 {
  double x = 0;
  double y = 0;
  double z = 0;

  friend constexpr bool operator==(Vec3, Vec3) = default;
  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr Vec3 operator*(double s, Vec3 a) { return a * s; }
  friend constexpr Vec3 operator/(Vec3 a, double s) { return {a.x / s, a.y / s, a.z / s}; }
  friend constexpr Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
  constexpr Vec3& operator+=(Vec3 b) { return *this = *this + b; }
  constexpr Vec3& operator-=(Vec3 b) { return *this = *this - b; }
};

/// The plane point lifted to height `z`, and a space point seen from above (z dropped).
[[nodiscard]] constexpr Vec3 lift(Vec2 p, double z = 0) { return {p.x, p.y, z}; }
[[nodiscard]] constexpr Vec2 drop_z(Vec3 p) { return {p.x, p.y}; }

[[nodiscard]] constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
[[nodiscard]] constexpr double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// Whether every coordinate is finite.
[[nodiscard]] inline bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }
[[nodiscard]] inline bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// z of the 3D cross product: > 0 when b is anticlockwise from a (y up).
[[nodiscard]] constexpr double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
[[nodiscard]] constexpr Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
[[nodiscard]] constexpr double length_squared(Vec2 a) { return dot(a, a); }
[[nodiscard]] constexpr double length_squared(Vec3 a) { return dot(a, a); }
/// sqrt, not std::hypot: hypot's overflow guard costs several times more, and world
/// coordinates stay far below 1e150.
[[nodiscard]] inline double length(Vec2 a) { return std::sqrt(dot(a, a)); }
[[nodiscard]] inline double length(Vec3 a) { return std::sqrt(dot(a, a)); }
[[nodiscard]] inline double distance(Vec2 a, Vec2 b) { return length(b - a); }
[[nodiscard]] inline double distance(Vec3 a, Vec3 b) { return length(b - a); }
/// a + t·(b − a): a at t = 0, b at t = 1.
[[nodiscard]] constexpr Vec2 lerp(Vec2 a, Vec2 b, double t) { return a + (b - a) * t; }
[[nodiscard]] constexpr Vec3 lerp(Vec3 a, Vec3 b, double t) { return a + (b - a) * t; }
/// The unit vector along `a`, or the zero vector when `a` is zero.
[[nodiscard]] inline Vec2 normalized(Vec2 a) {
  const double n = length(a);
  return n > 0 ? a / n : Vec2{};
}
[[nodiscard]] inline Vec3 normalized(Vec3 a) {
  const double n = length(a);
  return n > 0 ? a / n : Vec3{};
}

/// The straight piece between two points.
template <class V>
struct Segment {
  V a;
  V b;

  [[nodiscard]] V direction() const { return b - a; }
  [[nodiscard]] double length() const { return waymark::length(b - a); }
  /// The point at parameter t (a at 0, b at 1).
  [[nodiscard]] V at(double t) const { return lerp(a, b, t); }
  /// The parameter in [0, 1] of the segment point closest to `p` (0 for a zero-length segment).
  [[nodiscard]] double closest_parameter(V p) const {
    const V d = b - a;
    const double dd = dot(d, d);
    return dd > 0 ? std::clamp(dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
  }
  [[nodiscard]] V closest_point(V p) const { return at(closest_parameter(p)); }
  [[nodiscard]] double distance_to(V p) const { return distance(p, closest_point(p)); }
};
using Segment2 = Segment<Vec2>;
using Segment3 = Segment<Vec3>;

/// The distance between two closed segments: 0 when they touch or cross.
[[nodiscard]] inline double segment_distance(const Segment2& s, const Segment2& t) {
  const double s_a = cross(s.b - s.a, t.a - s.a), s_b = cross(s.b - s.a, t.b - s.a);
  const double t_a = cross(t.b - t.a, s.a - t.a), t_b = cross(t.b - t.a, s.b - t.a);
  if (((s_a < 0 && s_b > 0) || (s_a > 0 && s_b < 0)) && ((t_a < 0 && t_b > 0) || (t_a > 0 && t_b < 0))) return 0;
  return std::min(std::min(s.distance_to(t.a), s.distance_to(t.b)), std::min(t.distance_to(s.a), t.distance_to(s.b)));
}

/// The signed area of a polygon given by its corners in order (the closing edge implied):
/// > 0 when they run counter-clockwise (y up); 0 for fewer than three corners.
/// Summed as a fan about the first corner, so that the products are of the polygon's own size:
/// far from the origin (corners near 1e8) products of whole coordinates lose a small polygon's
/// area to rounding.
[[nodiscard]] inline double polygon_signed_area(std::span<const Vec2> polygon) {
  const std::size_t n = polygon.size();
  if (n < 3) return 0.0;
  const Vec2 o = polygon[0];
  double twice = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) twice += cross(polygon[i] - o, polygon[i + 1] - o);
  return twice / 2;
}

/// Whether a polygon given counter-clockwise turns left (or goes straight) at every corner and
/// its turns make one full turn: convex (a star's corners all turn left too, twice round).
[[nodiscard]] inline bool polygon_convex_ccw(std::span<const Vec2> ccw) {
  const std::size_t n = ccw.size();
  double turned = 0;  // a star's corners all turn left too, but twice round or more
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = ccw[i], b = ccw[(i + 1) % n], c = ccw[(i + 2) % n];
    const double t = cross(b - a, c - b);
    if (t < 0) return false;
    turned += std::atan2(t, dot(b - a, c - b));
  }
  return n < 3 || std::abs(turned - 2 * std::numbers::pi) <= 1e-6;
}

/// Whether `p` lies inside the polygon (even-odd rule, the closing edge implied). Points on the
/// boundary may go either way: callers that care test the boundary distance first.
[[nodiscard]] inline bool polygon_contains(std::span<const Vec2> polygon, Vec2 p) {
  bool inside = false;
  for (std::size_t i = 0, n = polygon.size(), j = n - 1; i < n; j = i++) {
    const Vec2 a = polygon[i], b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) inside = !inside;
  }
  return inside;
}

/// An axis-aligned box. Default-constructed it is empty (min above max) and grows with
/// expand(); contains() treats it as closed.
template <class V>
struct Aabb {
  static constexpr double huge = std::numeric_limits<double>::infinity();

  V min = empty_min();
  V max = empty_max();

  /// The smallest box holding both points.
  [[nodiscard]] static Aabb around(V p, V q) {
    Aabb box;
    box.expand(p);
    box.expand(q);
    return box;
  }
  [[nodiscard]] bool empty() const { return !(min.x <= max.x); }
  void expand(V p) {
    min.x = std::min(min.x, p.x);
    min.y = std::min(min.y, p.y);
    max.x = std::max(max.x, p.x);
    max.y = std::max(max.y, p.y);
    if constexpr (requires { p.z; }) {
      min.z = std::min(min.z, p.z);
      max.z = std::max(max.z, p.z);
    }
  }
  void expand(const Aabb& other) {
    if (other.empty()) return;
    expand(other.min);
    expand(other.max);
  }
  [[nodiscard]] bool contains(V p) const {
    bool inside = p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
    if constexpr (requires { p.z; }) inside = inside && p.z >= min.z && p.z <= max.z;
    return inside;
  }
  [[nodiscard]] bool overlaps(const Aabb& o) const {
    // Comparisons joined by &, not &&: one branch, not one per comparison (in a navmesh's
    // bounding-volume walk they mispredicted).
    bool hit = (min.x <= o.max.x) & (o.min.x <= max.x) & (min.y <= o.max.y) & (o.min.y <= max.y);
    if constexpr (requires { min.z; }) hit = hit & (min.z <= o.max.z) & (o.min.z <= max.z);
    return hit;
  }
  [[nodiscard]] V center() const { return (min + max) * 0.5; }
  [[nodiscard]] V size() const { return max - min; }

 private:
  static constexpr V empty_min() {
    V v{};
    v.x = v.y = huge;
    if constexpr (requires { v.z; }) v.z = huge;
    return v;
  }
  static constexpr V empty_max() {
    V v{};
    v.x = v.y = -huge;
    if constexpr (requires { v.z; }) v.z = -huge;
    return v;
  }
};
using Aabb2 = Aabb<Vec2>;
using Aabb3 = Aabb<Vec3>;

}  // namespace waymark
