// One collider shape against a ray, a point and a disc: the obstacle world's narrow phase
// (obstacle_world.cpp builds its broad phase, obstacle_queries.cpp walks it).
#include "obstacle_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace waymark::steer::detail {

constexpr double infinity = std::numeric_limits<double>::infinity();


Vec2 perp(Vec2 v) { return {-v.y, v.x}; }
/// `v` in the frame whose x axis is `axis` (unit), and back.
Vec2 to_local(Vec2 v, Vec2 axis) { return {dot(v, axis), dot(v, perp(axis))}; }
Vec2 to_world(Vec2 v, Vec2 axis) { return axis * v.x + perp(axis) * v.y; }

// ---- rays against one shape (unit direction d) ----------------------------------------------

bool ray_circle(const Circle& c, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 m = o - c.centre;
  const double b = dot(m, d);
  const double cc = dot(m, m) - c.radius * c.radius;
  if (cc < 0) {
    h = {0, -d};
    return true;
  }
  if (b >= 0) return false;  // on or outside the circle, heading away or along it
  const double disc = b * b - cc;
  if (disc < 0) return false;
  // The smaller root as cc / (larger root): no cancellation when the origin is near the rim.
  h.t = cc / (-b + std::sqrt(disc));
  h.normal = normalized(m + d * h.t);
  if (h.normal == Vec2{}) h.normal = -d;  // a circle of radius 0
  return true;
}

/// Slab test against the closed box [lo, hi].
bool ray_box(Vec2 lo, Vec2 hi, Vec2 o, Vec2 d, Hit& h) {
  if (o.x > lo.x && o.x < hi.x && o.y > lo.y && o.y < hi.y) {
    h = {0, -d};
    return true;
  }
  double t_in = -infinity, t_out = infinity;
  Vec2 n;
  if (d.x == 0) {
    if (o.x < lo.x || o.x > hi.x) return false;
  } else {
    const bool forward = d.x > 0;
    t_in = ((forward ? lo.x : hi.x) - o.x) / d.x;
    t_out = ((forward ? hi.x : lo.x) - o.x) / d.x;
    n = {forward ? -1.0 : 1.0, 0.0};
  }
  if (d.y == 0) {
    if (o.y < lo.y || o.y > hi.y) return false;
  } else {
    const bool forward = d.y > 0;
    const double t0 = ((forward ? lo.y : hi.y) - o.y) / d.y;
    const double t1 = ((forward ? hi.y : lo.y) - o.y) / d.y;
    if (t0 > t_in) {
      t_in = t0;
      n = {0.0, forward ? -1.0 : 1.0};
    }
    t_out = std::min(t_out, t1);
  }
  // t_in < 0: the origin is on the surface heading out, or the box is behind.
  if (!(t_in >= 0) || t_in > t_out) return false;
  h = {t_in, n};
  return true;
}

bool ray_oriented_box(const OrientedBox& b, Vec2 axis, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 local = to_local(o - b.centre, axis);
  if (std::abs(local.x) < b.half_extents.x && std::abs(local.y) < b.half_extents.y) {
    h = {0, -d};
    return true;
  }
  if (!ray_box(-b.half_extents, b.half_extents, local, to_local(d, axis), h)) return false;
  h.normal = to_world(h.normal, axis);
  return true;
}

/// A wall without thickness, hit from either side; touching at the origin counts.
bool ray_segment(Vec2 a, Vec2 b, Vec2 o, Vec2 d, Hit& h) {
  const Vec2 e = b - a, ao = a - o;
  const double denom = cross(d, e);
  if (denom == 0) {
    if (cross(ao, d) != 0) return false;  // parallel and apart
    // Along the segment's line: its nearest point at or ahead of the origin.
    const double ta = dot(ao, d), tb = dot(b - o, d);
    if (ta < 0 && tb < 0) return false;
    h = {std::max(0.0, std::min(ta, tb)), -d};
    return true;
  }
  const double t = cross(ao, e) / denom;
  const double u = cross(ao, d) / denom;
  if (!(t >= 0 && u >= 0 && u <= 1)) return false;
  h.t = t;
  h.normal = normalized(perp(e));
  if (dot(h.normal, d) > 0) h.normal = -h.normal;
  return true;
}

/// Whether the ray may enter the polygon through the edge a → b: from outside the first
/// crossing is one, and an origin on the boundary heading out hits nothing.
bool enters_through(Vec2 a, Vec2 b, double orientation, Vec2 d) {
  const Vec2 outward = Vec2{b.y - a.y, a.x - b.x} * orientation;
  return orientation == 0 || dot(outward, d) < 0;
}

bool ray_polygon(const Polygon& p, double orientation, Vec2 o, Vec2 d, Hit& h) {
  if (polygon_contains(p.corners, o)) {
    h = {0, -d};
    return true;
  }
  bool found = false;
  const std::size_t n = p.corners.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = p.corners[j], b = p.corners[i];
    if (!enters_through(a, b, orientation, d)) continue;
    Hit edge;
    if (ray_segment(a, b, o, d, edge) && (!found || edge.t < h.t)) {
      h = edge;
      found = true;
    }
  }
  return found;
}

/// ray_polygon by the cells the ray crosses: the nearest hit, ties to the lowest edge (the
/// one the loop above meets first), once the walk is past it by more than rounding.
bool ray_polygon(const PolygonEdgeGrid& g, double orientation, Vec2 o, Vec2 d, double limit, Hit& h) {
  if (g.contains(o)) {
    h = {0, -d};
    return true;
  }
  bool found = false;
  std::uint32_t found_edge = 0;
  const double rounding = 1e-9 * g.grid().side + 1e-12 * (std::abs(o.x) + std::abs(o.y));
  g.walk(o, d, limit, [&](std::span<const std::uint32_t> edges, double exit) {
    for (const std::uint32_t i : edges) {
      const Segment2 e = g.edge(i);
      if (!enters_through(e.a, e.b, orientation, d)) continue;
      Hit edge;
      if (ray_segment(e.a, e.b, o, d, edge) && (!found || edge.t < h.t || (edge.t == h.t && i < found_edge))) {
        h = edge;
        found = true;
        found_edge = i;
      }
    }
    return found && exit > h.t + rounding * (1 + 1e-3 * h.t);
  });
  return found;
}

bool ray_shape(const Shape& shape, Vec2 axis, double orientation, const PolygonEdgeGrid* edges, Vec2 o, Vec2 d,
               double limit, Hit& h) {
  switch (shape.index()) {
    case 0: return ray_circle(*std::get_if<Circle>(&shape), o, d, h);
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return ray_box(b.min, b.max, o, d, h);
    }
    case 2: return ray_oriented_box(*std::get_if<OrientedBox>(&shape), axis, o, d, h);
    case 3:
      return edges != nullptr ? ray_polygon(*edges, orientation, o, d, limit, h)
                              : ray_polygon(*std::get_if<Polygon>(&shape), orientation, o, d, h);
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      return ray_segment(s.a, s.b, o, d, h);
    }
  }
}

// ---- distances and disc contacts --------------------------------------------------------------

double box_distance(Vec2 lo, Vec2 hi, Vec2 p) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

Push box_push(Vec2 lo, Vec2 hi, Vec2 c, double r) {
  const Vec2 q{std::clamp(c.x, lo.x, hi.x), std::clamp(c.y, lo.y, hi.y)};
  if (q != c) {
    const double dist = distance(c, q);
    return {(c - q) / dist, r - dist};
  }
  // Inside: out through the nearest face.
  const double faces[4] = {c.x - lo.x, hi.x - c.x, c.y - lo.y, hi.y - c.y};
  const Vec2 normals[4] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  const auto nearest = static_cast<std::size_t>(std::min_element(faces, faces + 4) - faces);
  return {normals[nearest], r + faces[nearest]};
}

/// The polygon's nearest boundary point to `p`, and the edge it lies on (its start corner).
struct NearestEdge {
  Vec2 point;
  double distance = infinity;
  std::size_t edge = 0;
};
NearestEdge nearest_edge(const Polygon& p, const PolygonEdgeGrid* edges, Vec2 c) {
  NearestEdge best;
  const std::size_t n = p.corners.size();
  if (edges != nullptr) {
    const PolygonEdgeGrid::Nearest e = edges->nearest_edge(c);
    best.point = e.point;
    best.distance = std::sqrt(e.distance_squared);
    best.edge = (e.edge + n - 1) % n;  // the grid's edge i starts at corner i - 1
    return best;
  }
  double best_sq = infinity;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 q = Segment2{p.corners[j], p.corners[i]}.closest_point(c);
    const double sq = length_squared(c - q);
    if (sq < best_sq) {
      best_sq = sq;
      best.point = q;
      best.edge = j;
    }
  }
  best.distance = std::sqrt(best_sq);
  return best;
}

/// polygon_contains, by the edge grid when there is one.
bool polygon_holds(const Polygon& p, const PolygonEdgeGrid* edges, Vec2 c) {
  return edges != nullptr ? edges->contains(c) : polygon_contains(p.corners, c);
}

/// The unit normal of the edge from corner `edge` pointing out of the polygon (left of the
/// edge for a degenerate one).
Vec2 outward_normal(const Polygon& p, double orientation, std::size_t edge) {
  const Vec2 a = p.corners[edge], b = p.corners[(edge + 1) % p.corners.size()];
  const Vec2 n = normalized(Vec2{b.y - a.y, a.x - b.x} * (orientation != 0 ? orientation : -1.0));
  return n == Vec2{} ? Vec2{1, 0} : n;
}

double shape_distance(const Shape& shape, Vec2 axis, const PolygonEdgeGrid* edges, Vec2 p) {
  switch (shape.index()) {
    case 0: {
      const Circle& c = *std::get_if<Circle>(&shape);
      return std::max(0.0, distance(p, c.centre) - c.radius);
    }
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return box_distance(b.min, b.max, p);
    }
    case 2: {
      const OrientedBox& b = *std::get_if<OrientedBox>(&shape);
      return box_distance(-b.half_extents, b.half_extents, to_local(p - b.centre, axis));
    }
    case 3: {
      const Polygon& poly = *std::get_if<Polygon>(&shape);
      return polygon_holds(poly, edges, p) ? 0.0 : nearest_edge(poly, edges, p).distance;
    }
    default: return std::get_if<Segment2>(&shape)->distance_to(p);
  }
}

Push shape_push(const Shape& shape, Vec2 axis, double orientation, const PolygonEdgeGrid* edges, Vec2 c, double r) {
  switch (shape.index()) {
    case 0: {
      const Circle& circle = *std::get_if<Circle>(&shape);
      const Vec2 m = c - circle.centre;
      const double len = length(m);
      return {len > 0 ? m / len : Vec2{1, 0}, r + circle.radius - len};
    }
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      return box_push(b.min, b.max, c, r);
    }
    case 2: {
      const OrientedBox& b = *std::get_if<OrientedBox>(&shape);
      Push push = box_push(-b.half_extents, b.half_extents, to_local(c - b.centre, axis), r);
      push.normal = to_world(push.normal, axis);
      return push;
    }
    case 3: {
      const Polygon& poly = *std::get_if<Polygon>(&shape);
      const NearestEdge e = nearest_edge(poly, edges, c);
      const bool inside = polygon_holds(poly, edges, c);
      if (e.distance == 0) return {outward_normal(poly, orientation, e.edge), r};
      if (inside) return {(e.point - c) / e.distance, r + e.distance};
      return {(c - e.point) / e.distance, r - e.distance};
    }
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      const Vec2 q = s.closest_point(c);
      const double dist = distance(c, q);
      if (dist > 0) return {(c - q) / dist, r - dist};
      const Vec2 side = normalized(perp(s.direction()));
      return {side == Vec2{} ? Vec2{1, 0} : side, r};
    }
  }
}


}  // namespace waymark::steer::detail
