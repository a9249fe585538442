#include "waymark/navmesh/funnel.hpp"

#include "plan_geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::navmesh {

namespace {

/// Plan points within detail::snap_distance are one point to the funnel.
bool same(Vec3 a, Vec3 b) { return detail::same_point(plan(a), plan(b)); }

/// > 0 when `c` is left of the ray from `a` through `b`, in plan.
double side(Vec3 a, Vec3 b, Vec3 c) { return detail::turn(plan(a), plan(b), plan(c)); }

}  // namespace

void string_pull(Vec3 start, Vec3 goal, std::span<const Portal> portals, std::vector<Vec3>& corners) {
  corners.clear();
  corners.push_back(start);
  const std::size_t n = portals.size() + 1;  // the goal closes the corridor as a last portal
  Vec3 apex = start, left = start, right = start;
  // Where the apex and the funnel's sides came from: 0 the start, i + 1 portal i.
  std::size_t apex_at = 0, left_at = 0, right_at = 0;
  const auto restart_at = [&](Vec3 corner, std::size_t at) {
    apex = left = right = corner;
    apex_at = left_at = right_at = at;
    if (!same(corners.back(), corner)) corners.push_back(corner);
  };
  std::size_t i = 0;
  while (i < n) {
    const Portal p = i < portals.size() ? portals[i] : Portal{goal, goal};
    // A side closes in unless it would cross the other one: then the other side's end is a
    // corner, and the scan resumes after it. A side still at the apex is open.
    if (side(apex, right, p.right) >= 0) {
      if (same(apex, right) || same(apex, left) || side(apex, left, p.right) < 0) {
        right = p.right;
        right_at = i + 1;
      } else {
        restart_at(left, left_at);
        i = apex_at;
        continue;
      }
    }
    if (side(apex, left, p.left) <= 0) {
      if (same(apex, left) || same(apex, right) || side(apex, right, p.left) > 0) {
        left = p.left;
        left_at = i + 1;
      } else {
        restart_at(right, right_at);
        i = apex_at;
        continue;
      }
    }
    ++i;
  }
  if (corners.size() == 1 || !same(corners.back(), goal)) corners.push_back(goal);
}

}  // namespace waymark::navmesh
