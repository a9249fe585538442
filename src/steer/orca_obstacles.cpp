// ORCA's half-planes for static edges: the velocity obstacle of an edge (the cone from the
// agent round the edge widened by the agent's radius, cut off at the time horizon) and the
// half-plane at the point of its boundary nearest the agent's velocity, after van den Berg,
// Guy, Lin and Manocha, "Reciprocal n-body collision avoidance" (2011), section 5.2, and the
// way their RVO2 library treats an outline's corners (docs/steering.md, "Walls in ORCA").
#include "orca_obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace waymark::steer::detail {
namespace {

/// A cut-off disc lying this far inside an earlier half-plane's forbidden side still counts
/// as covered by it (velocity units).
constexpr double covered_slack = 1e-9;
/// Shorter vectors have no usable direction.
constexpr double tiny_length = 1e-12;

Vec2 turned_left(Vec2 d) { return {-d.y, d.x}; }
Vec2 turned_right(Vec2 d) { return {d.y, -d.x}; }

/// The tangents from the origin to the disc of radius r round `p` (|p| > r): the one passing
/// it on the left and the one passing it on the right, unit.
void tangents(Vec2 p, double r, Vec2& left, Vec2& right) {
  const double d2 = length_squared(p);
  const double leg = std::sqrt(std::max(d2 - r * r, 0.0));
  left = Vec2{p.x * leg - p.y * r, p.x * r + p.y * leg} / d2;
  right = Vec2{p.x * leg + p.y * r, -p.x * r + p.y * leg} / d2;
}

/// The half-plane through the origin that permits moving away from the corner at `rel`
/// (relative to the agent), or, when the agent stands on the corner, off the edge.
HalfPlane away_from_corner(Vec2 rel, const ObstacleEdge& e) {
  const Vec2 d = turned_left(rel);
  const double l = length(d);
  return HalfPlane{{}, l > tiny_length ? d / l : -e.direction};
}

}  // namespace

void add_obstacle_planes(const ObstacleLines& lines, Vec2 position, Vec2 velocity, double radius, double max_speed,
                         LayerMask mask, double horizon, std::vector<EdgeNear>& found, std::vector<HalfPlane>& planes) {
  found.clear();
  lines.for_each_near(position, radius + max_speed * horizon, mask, [&](std::size_t i, double d2) {
    found.push_back({d2, static_cast<std::uint32_t>(i)});
  });
  std::sort(found.begin(), found.end(), [](const EdgeNear& x, const EdgeNear& y) {
    return x.distance_squared < y.distance_squared || (x.distance_squared == y.distance_squared && x.index < y.index);
  });
  const std::size_t first = planes.size();
  const double inv = 1 / horizon;
  const double r2 = radius * radius;
  for (const EdgeNear& near : found) {
    const ObstacleEdge& e = lines.edge(near.index);
    const Vec2 rel_a = e.a - position, rel_b = e.b - position;

    // Skipped when both cut-off discs lie wholly on the forbidden side of an earlier plane.
    const auto forbids = [&](const HalfPlane& h, Vec2 centre) {
      return cross(h.direction, centre * inv - h.point) <= -radius * inv + covered_slack;
    };
    bool covered = false;
    for (std::size_t j = first; j < planes.size() && !covered; ++j) {
      covered = forbids(planes[j], rel_a) && forbids(planes[j], rel_b);
    }
    if (covered) continue;

    // Where the agent is along the edge (s in [0, 1]: beside it) and how far from its line.
    const Vec2 edge = e.b - e.a;
    const double s = -dot(rel_a, edge) / length_squared(edge);
    const double d2a = length_squared(rel_a), d2b = length_squared(rel_b);
    const double d2line = length_squared(rel_a + edge * s);

    // Already touching: only moving away is permitted. A concave corner, and a convex one the
    // next edge covers, are left to the neighbouring edge.
    if (s < 0 && d2a <= r2) {
      if (e.convex_a) planes.push_back(away_from_corner(rel_a, e));
      continue;
    }
    if (s > 1 && d2b <= r2) {
      if (e.convex_b && cross(rel_b, e.after) >= 0) planes.push_back(away_from_corner(rel_b, e));
      continue;
    }
    if (s >= 0 && s <= 1 && d2line <= r2) {
      planes.push_back(HalfPlane{{}, -e.direction});
      continue;
    }

    // The legs of the cone: from the left corner (a) and the right one (b) as the agent sees
    // the edge, or both from one corner when the edge is seen end-on.
    Vec2 left_leg, right_leg, left_corner = rel_a, right_corner = rel_b;
    Vec2 before_left = e.before, after_right = e.after;
    bool convex_left = e.convex_a, convex_right = e.convex_b;
    const bool one_corner = d2line <= r2;  // (s < 0 or s > 1 here)
    if (one_corner && s < 0) {
      if (!e.convex_a) continue;
      right_corner = rel_a;
      after_right = e.direction;
      convex_right = true;
      tangents(rel_a, radius, left_leg, right_leg);
    } else if (one_corner) {
      if (!e.convex_b) continue;
      left_corner = rel_b;
      before_left = e.direction;
      convex_left = true;
      tangents(rel_b, radius, left_leg, right_leg);
    } else {
      Vec2 unused;
      if (e.convex_a) {
        tangents(rel_a, radius, left_leg, unused);
      } else {
        left_leg = -e.direction;  // a concave corner: the leg goes on along the edge's line
      }
      if (e.convex_b) {
        tangents(rel_b, radius, unused, right_leg);
      } else {
        right_leg = e.direction;
      }
    }
    // A leg must not point into the neighbouring edge at a convex corner: it is replaced by
    // that edge's direction, and a velocity nearest such a borrowed leg is left to that edge.
    // A tangent leg's line passes through the origin (rest is always permitted): its plane is
    // put there exactly, so that rounding cannot forbid standing still.
    bool left_borrowed = false, right_borrowed = false;
    const bool left_tangent = convex_left, right_tangent = convex_right;
    if (convex_left && cross(left_leg, -before_left) >= 0) {
      left_leg = -before_left;
      left_borrowed = true;
    }
    if (convex_right && cross(right_leg, after_right) <= 0) {
      right_leg = after_right;
      right_borrowed = true;
    }

    // The nearest point of the truncated cone's boundary to the velocity: on a cut-off disc,
    // on the cut-off segment between them, or on a leg.
    const Vec2 cl = left_corner * inv, cr = right_corner * inv, cut = cr - cl;
    const double reach = radius * inv;
    const double t = one_corner ? 0.5 : dot(velocity - cl, cut) / length_squared(cut);
    const double tl = dot(velocity - cl, left_leg), tr = dot(velocity - cr, right_leg);
    const auto on_disc = [&](Vec2 centre, Vec2 corner) {
      Vec2 w = velocity - centre;
      double l = length(w);
      if (!(l > tiny_length)) {  // the velocity is the disc's centre: out along the agent's side
        w = -corner;
        l = length(w);
        if (!(l > tiny_length)) {
          w = turned_right(e.direction);
          l = 1;
        }
      }
      w = w / l;
      planes.push_back(HalfPlane{centre + w * reach, turned_right(w)});
    };
    if ((t < 0 && tl < 0) || (one_corner && tl < 0 && tr < 0)) {
      on_disc(cl, left_corner);
      continue;
    }
    if (t > 1 && tr < 0) {
      on_disc(cr, right_corner);
      continue;
    }
    constexpr double never = std::numeric_limits<double>::infinity();
    const double d_cut = (t < 0 || t > 1 || one_corner) ? never : length_squared(velocity - (cl + cut * t));
    const double d_left = tl < 0 ? never : length_squared(velocity - (cl + left_leg * tl));
    const double d_right = tr < 0 ? never : length_squared(velocity - (cr + right_leg * tr));
    if (d_cut <= d_left && d_cut <= d_right) {
      const Vec2 d = -e.direction;
      planes.push_back(HalfPlane{cl + turned_left(d) * reach, d});
    } else if (d_left <= d_right) {
      const bool through_origin = left_tangent && !left_borrowed;
      planes.push_back(HalfPlane{through_origin ? Vec2{} : cl + turned_left(left_leg) * reach, left_leg});
    } else {
      const Vec2 d = -right_leg;
      const bool through_origin = right_tangent && !right_borrowed;
      planes.push_back(HalfPlane{through_origin ? Vec2{} : cr + turned_left(d) * reach, d});
    }
  }
}

}  // namespace waymark::steer::detail
