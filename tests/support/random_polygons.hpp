#pragma once
// Seeded random polygon worlds for the visibility tests, and reference geometry written apart
// from the library's (winding numbers, parametric intersections), so that a test checks the
// library's segment tests against a second implementation instead of against themselves.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::test {

/// `count` star-shaped polygons (corners at increasing angles around a centre, so simple),
/// centres uniform in [0, extent]², radii in [min_size, max_size], 3 to max_corners corners;
/// polygons visibility::polygon_problem refuses are drawn again. They may overlap.
inline visibility::Obstacles random_obstacles(std::mt19937_64& rng, std::size_t count, double extent, double min_size,
                                              double max_size, int max_corners = 7) {
  std::uniform_real_distribution<double> pos(0, extent), size(min_size, max_size), unit(0, 1);
  std::uniform_int_distribution<int> corners(3, max_corners);
  visibility::Obstacles world;
  while (world.polygons.size() < count) {
    const Vec2 c{pos(rng), pos(rng)};
    const int n = corners(rng);
    std::vector<double> angles;
    for (int k = 0; k < n; ++k) angles.push_back(unit(rng) * 2 * std::numbers::pi);
    std::sort(angles.begin(), angles.end());
    std::vector<Vec2> poly;
    for (const double a : angles) poly.push_back(c + Vec2{std::cos(a), std::sin(a)} * size(rng));
    if (!visibility::polygon_problem(poly)) world.polygons.push_back(std::move(poly));
  }
  return world;
}

namespace ref {

inline double point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double dd = d.x * d.x + d.y * d.y;
  double t = dd > 0 ? ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / dd : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(a.x + t * d.x - p.x, a.y + t * d.y - p.y);
}

/// Whether segments a-b and c-d share a point, by solving for both parameters.
inline bool segments_meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const Vec2 r = b - a, s = d - c;
  const double det = r.x * s.y - r.y * s.x;
  if (det != 0) {
    const double t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / det;
    const double u = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / det;
    if (t >= 0 && t <= 1 && u >= 0 && u <= 1) return true;
  }
  return point_segment_distance(a, c, d) == 0 || point_segment_distance(b, c, d) == 0 ||
         point_segment_distance(c, a, b) == 0 || point_segment_distance(d, a, b) == 0;
}

inline double segment_distance(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  if (segments_meet(a, b, c, d)) return 0;
  return std::min({point_segment_distance(a, c, d), point_segment_distance(b, c, d), point_segment_distance(c, a, b),
                   point_segment_distance(d, a, b)});
}

/// The winding number of the polygon around p (non-zero: inside).
inline int winding(std::span<const Vec2> poly, Vec2 p) {
  int w = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
    const double side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y);
    if (a.y <= p.y && b.y > p.y && side > 0) ++w;
    if (a.y > p.y && b.y <= p.y && side < 0) --w;
  }
  return w;
}

inline double boundary_distance(std::span<const Vec2> poly, Vec2 p) {
  double best = INFINITY;
  for (std::size_t i = 0; i < poly.size(); ++i) best = std::min(best, point_segment_distance(p, poly[i], poly[(i + 1) % poly.size()]));
  return best;
}

/// Inside and farther than `margin` from the boundary.
inline bool inside(std::span<const Vec2> poly, Vec2 p, double margin) {
  return winding(poly, p) != 0 && boundary_distance(poly, p) > margin;
}

/// Whether segment a-b passes through the polygon's inside by more than `margin`: the segment
/// is cut where its line meets an edge, and each piece is judged by its midpoint.
inline bool enters(std::span<const Vec2> poly, Vec2 a, Vec2 b, double margin) {
  std::vector<double> cuts{0, 1};
  const Vec2 r = b - a;
  const double rr = r.x * r.x + r.y * r.y;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 c = poly[i], s = poly[(i + 1) % poly.size()] - c;
    const double det = r.x * s.y - r.y * s.x;
    if (det != 0) {
      const double t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / det;
      const double u = ((c.x - a.x) * r.y - (c.y - a.y) * r.x) / det;
      if (u >= 0 && u <= 1 && t > 0 && t < 1) cuts.push_back(t);
    }
    if (rr > 0 && point_segment_distance(c, a, b) <= margin) cuts.push_back(((c.x - a.x) * r.x + (c.y - a.y) * r.y) / rr);
  }
  std::sort(cuts.begin(), cuts.end());
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    if (cuts[k] <= cuts[k - 1] || cuts[k - 1] < 0 || cuts[k] > 1) continue;
    if (inside(poly, lerp(a, b, (cuts[k] + cuts[k - 1]) / 2), margin)) return true;
  }
  return false;
}

/// The distance between two polygons (0 when they overlap or touch).
inline double polygon_distance(std::span<const Vec2> p, std::span<const Vec2> q) {
  if (winding(p, q[0]) != 0 || winding(q, p[0]) != 0) return 0;
  double best = INFINITY;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = 0; j < q.size(); ++j) {
      best = std::min(best, segment_distance(p[i], p[(i + 1) % p.size()], q[j], q[(j + 1) % q.size()]));
    }
  }
  return best;
}

}  // namespace ref
}  // namespace waymark::test
