#include "waymark/navmesh/nav_obstacle.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "waymark/core/text.hpp"

namespace waymark::navmesh {

namespace {

bool in_range(double v) { return std::abs(v) <= max_obstacle_coordinate; }
bool in_range(Vec3 v) { return in_range(v.x) && in_range(v.y) && in_range(v.z); }
bool in_range(Vec2 v) { return in_range(v.x) && in_range(v.y); }

/// "<what> is out of range (past navmesh::max_obstacle_coordinate = 1e+15 either way)".
std::string out_of_range(const char* what) {
  return std::string(what) + " is out of range (past navmesh::max_obstacle_coordinate = " + number_text(max_obstacle_coordinate) +
         " either way)";
}

/// A size's problem: not finite, not > 0, or past max_obstacle_coordinate.
std::optional<std::string> size_problem(double v, const char* what) {
  if (!(std::isfinite(v) && v > 0)) return std::string(what) + " must be finite and > 0";
  if (!in_range(v)) return out_of_range(what);
  return std::nullopt;
}

std::optional<std::string> problem_of(const CylinderObstacle& c) {
  if (!finite(c.foot)) return "its foot is not finite";
  if (!in_range(c.foot)) return out_of_range("its foot");
  if (auto why = size_problem(c.radius, "its radius")) return why;
  return size_problem(c.height, "its height");
}

std::optional<std::string> problem_of(const BoxObstacle& b) {
  if (!finite(b.min) || !finite(b.max)) return "a corner is not finite";
  if (!in_range(b.min) || !in_range(b.max)) return out_of_range("a corner");
  if (!(b.min.x < b.max.x && b.min.y < b.max.y && b.min.z < b.max.z)) return "its min must be below its max on every axis";
  return std::nullopt;
}

std::optional<std::string> problem_of(const PrismObstacle& p) {
  if (p.corners.size() < 3 || p.corners.size() > max_prism_corners) {
    return "it needs 3 to " + number_text(max_prism_corners) + " corners (navmesh::max_prism_corners), not " +
           number_text(p.corners.size());
  }
  if (!std::all_of(p.corners.begin(), p.corners.end(), [](Vec2 c) { return finite(c); })) return "a corner is not finite";
  if (!std::all_of(p.corners.begin(), p.corners.end(), [](Vec2 c) { return in_range(c); })) return out_of_range("a corner");
  if (!(std::isfinite(p.min_y) && std::isfinite(p.max_y) && p.min_y < p.max_y)) {
    return "its heights must be finite with min_y below max_y";
  }
  if (!in_range(p.min_y) || !in_range(p.max_y)) return out_of_range("a height");
  const double area = polygon_signed_area(p.corners);
  if (area == 0) return "its corners are all on one line";
  std::vector<Vec2> ccw(p.corners.begin(), p.corners.end());
  if (area < 0) std::reverse(ccw.begin(), ccw.end());
  // Every edge has a length, and the polygon is convex (a star is not: polygon_convex_ccw).
  for (std::size_t i = 0, n = ccw.size(); i < n; ++i) {
    if (ccw[i] == ccw[(i + 1) % n]) return "two corners in a row are the same point";
  }
  if (!polygon_convex_ccw(ccw)) return "its corners do not make a convex polygon";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> find_obstacle_problem(const NavObstacle& obstacle) {
  return std::visit([](const auto& o) { return problem_of(o); }, obstacle);
}

Aabb3 bounds(const NavObstacle& obstacle) {
  Aabb3 box;
  if (const auto* cylinder = std::get_if<CylinderObstacle>(&obstacle)) {
    box.expand(cylinder->foot - Vec3{cylinder->radius, 0, cylinder->radius});
    box.expand(cylinder->foot + Vec3{cylinder->radius, cylinder->height, cylinder->radius});
  } else if (const auto* b = std::get_if<BoxObstacle>(&obstacle)) {
    box.expand(b->min);
    box.expand(b->max);
  } else {
    const auto& p = std::get<PrismObstacle>(obstacle);
    for (const Vec2 c : p.corners) {
      box.expand(Vec3{c.x, p.min_y, c.y});
      box.expand(Vec3{c.x, p.max_y, c.y});
    }
  }
  return box;
}

const char* shape_name(const NavObstacle& obstacle) {
  static constexpr const char* names[] = {"cylinder", "box", "prism"};
  return names[obstacle.index()];
}

}  // namespace waymark::navmesh
