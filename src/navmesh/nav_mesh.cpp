#include "waymark/navmesh/nav_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "plan_geometry.hpp"

#include "waymark/core/text.hpp"

namespace waymark::navmesh {

using detail::height_in_triangle;
using detail::turns_left_or_straight;

namespace {

[[noreturn]] void fail(PolyId p, const std::string& reason) {
  throw BuildError("navmesh polygon " + number_text(p.value) + ": " + reason);
}

/// Twice the plan area of the polygon with these corners (> 0 when counter-clockwise).
double twice_plan_area(const NavMeshData& d, std::span<const std::uint32_t> c) {
  // About the first corner: far from the origin the corners' own cross products cancel.
  double twice = 0;
  const Vec2 first = plan(d.vertices[c[0]]);
  for (std::size_t k = 1; k + 1 < c.size(); ++k) twice += cross(plan(d.vertices[c[k]]) - first, plan(d.vertices[c[k + 1]]) - first);
  return twice;
}

}  // namespace

NavMesh::NavMesh(NavMeshData data) : data_(std::move(data)) {
  check();
  check_links();
  build_index();
  resolve_links();
}

void NavMesh::check() const {
  const NavMeshData& d = data_;
  const std::size_t polys = d.areas.size();
  if (polys >= PolyId::invalid_value) throw BuildError("a navmesh holds fewer than 2^32 - 1 polygons");
  if (d.flags.size() != polys || d.poly_begin.size() != polys + 1 || d.poly_begin.front() != 0 ||
      d.poly_begin.back() != d.corners.size() || d.neighbors.size() != d.corners.size()) {
    throw BuildError("navmesh data: the polygon, corner, neighbour, area and flag arrays disagree in size");
  }
  for (const Vec3& v : d.vertices) {
    if (!finite(v)) throw BuildError("navmesh data: a vertex has a coordinate that is not finite");
  }
  if (!(d.climb >= 0 && std::isfinite(d.climb))) throw BuildError("navmesh data: climb must be finite and >= 0");
  if (!d.detail_begin.empty()) {
    if (d.detail_begin.size() != polys + 1 || d.detail_begin.front() != 0 || d.detail_begin.back() != d.detail.size() ||
        !std::is_sorted(d.detail_begin.begin(), d.detail_begin.end())) {
      throw BuildError("navmesh data: the detail triangles disagree with the polygons");
    }
    for (const auto& tri : d.detail) {
      if (!finite(tri[0]) || !finite(tri[1]) || !finite(tri[2])) {
        throw BuildError("navmesh data: a detail triangle has a coordinate that is not finite");
      }
    }
  }
  for (std::uint32_t i = 0; i < polys; ++i) {
    const PolyId p{i};
    if (d.poly_begin[i + 1] < d.poly_begin[i]) fail(p, "its corners end before they begin");
    const std::size_t n = corner_count(p);
    if (n < 3 || n > max_polygon_corners) {
      fail(p, "has " + number_text(n) + " corners (3 to " + number_text(max_polygon_corners) + " allowed)");
    }
    if (d.areas[i] >= max_areas) fail(p, "area type " + number_text(d.areas[i]) + " is not below " + number_text(max_areas));
    const auto c = corners(p);
    for (std::uint32_t v : c) {
      if (v >= d.vertices.size()) fail(p, "corner " + number_text(v) + " is not a vertex");
    }
    for (std::size_t k = 0; k < n; ++k) {
      const Vec2 a = plan(d.vertices[c[k]]), b = plan(d.vertices[c[(k + 1) % n]]), e = plan(d.vertices[c[(k + 2) % n]]);
      if (a == b) fail(p, "two consecutive corners are at the same place");
      if (!turns_left_or_straight(a, b, e)) fail(p, "is not convex and counter-clockwise in plan (x, z)");
    }
    if (!(twice_plan_area(d, c) > 0)) fail(p, "has no area in plan");
    const auto nb = neighbors(p);
    for (std::size_t k = 0; k < n; ++k) {
      const PolyId q = nb[k];
      if (!q.valid()) continue;
      if (q.value >= polys || q == p) fail(p, "neighbour " + number_text(q.value) + " is not another polygon");
      const std::uint32_t a = c[k], b = c[(k + 1) % n];
      const auto qc = corners(q);
      const auto qn = neighbors(q);
      bool mirrored = false;
      for (std::size_t j = 0; j < qc.size() && !mirrored; ++j) {
        mirrored = qc[j] == b && qc[(j + 1) % qc.size()] == a && qn[j] == p;
      }
      if (!mirrored) fail(p, "neighbour " + number_text(q.value) + " does not share edge " + number_text(a) + "-" + number_text(b) + " back");
    }
  }
}

bool NavMesh::passes_all(const QueryFilter& filter) const {
  return std::all_of(distinct_flags_.begin(), distinct_flags_.end(), [&](std::uint16_t f) { return filter.passes(f); });
}

Vec3 NavMesh::centroid(PolyId p) const {
  Vec3 sum;
  for (std::uint32_t v : corners(p)) sum += data_.vertices[v];
  return sum / static_cast<double>(corner_count(p));
}

bool NavMesh::contains_in_plan(PolyId p, Vec2 q) const {
  const auto c = corners(p);
  Vec2 a = plan(data_.vertices[c.back()]);  // the edges from the last corner's on
  for (const std::uint32_t v : c) {
    const Vec2 b = plan(data_.vertices[v]), edge = b - a;
    // Right of the edge by more than snap_distance: t < -snap_distance·|edge|, compared squared.
    const double t = cross(edge, q - a);
    if (t < 0 && t * t > detail::snap_distance * detail::snap_distance * length_squared(edge)) return false;
    a = b;
  }
  return true;
}

Vec3 NavMesh::closest_point(PolyId p, Vec3 q) const { return closest_point(p, q, contains_in_plan(p, plan(q))); }

Vec3 NavMesh::closest_point(PolyId p, Vec3 q, bool inside) const {
  const auto c = corners(p);
  const Vec2 target = plan(q);
  if (inside) {
    if (!data_.detail_begin.empty()) {
      for (std::uint32_t t = data_.detail_begin[p.value]; t < data_.detail_begin[p.value + 1]; ++t) {
        const auto& tri = data_.detail[t];
        if (const auto h = height_in_triangle(tri[0], tri[1], tri[2], target)) return {q.x, *h, q.z};
      }
    }
    // The fan triangle (c0, ck, ck+1) under q gives the surface height there.
    const Vec3 a = data_.vertices[c[0]];
    for (std::size_t k = 1; k + 1 < c.size(); ++k) {
      const Vec3 b = data_.vertices[c[k]], e = data_.vertices[c[k + 1]];
      if (const auto h = height_in_triangle(a, b, e, target)) return {q.x, *h, q.z};
    }
    return {q.x, a.y, q.z};  // only when rounding puts q between fan triangles
  }
  Vec3 best = data_.vertices[c[0]];
  double best_d2 = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < c.size(); ++k) {
    const Vec3 a = data_.vertices[c[k]], b = data_.vertices[c[(k + 1) % c.size()]];
    const double t = Segment2{plan(a), plan(b)}.closest_parameter(target);
    const Vec3 on = lerp(a, b, t);
    const double d2 = length_squared(plan(on) - target);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = on;
    }
  }
  return best;
}

template <class F>
void NavMesh::for_each_in(const Aabb3& box, F&& f) const {
  if (nodes_.empty()) return;
  std::array<std::uint32_t, max_bvh_depth + 1> stack;  // not zeroed: written before read
  std::size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::uint32_t index = stack[--top];
    const BvhNode& node = nodes_[index];
    if (!node.box.overlaps(box)) continue;
    if (node.count == 0) {
      stack[top++] = node.first;  // the right child
      stack[top++] = index + 1;   // the left child, visited first
      continue;
    }
    for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
      if (poly_bounds_[bvh_polys_[i].value].overlaps(box)) f(bvh_polys_[i]);
    }
  }
}

std::optional<NearestPoly> NavMesh::nearest_poly(Vec3 center, Vec3 half_extents, const QueryFilter& filter) const {
  if (!finite(center) || !finite(half_extents)) return std::nullopt;
  std::optional<NearestPoly> best;
  double best_d2 = std::numeric_limits<double>::infinity();
  // The answer is the least (distance, id) over the candidates, whatever their order: a
  // candidate is skipped only when it cannot be nearer than the best so far, nor as near. So
  // the polygons whose plan holds the centre (the nearest, as a rule) are measured during the
  // walk, and the others after it (up to `later`'s size; beyond, at once), against the best.
  const Vec2 at = plan(center);
  const auto consider = [&](PolyId p, bool inside) {
    // Skipped when farther in plan from its bounds than the best: its closest point, over it or
    // on its rim, is at least that far. The bounds are widened by bounds_margin: a point counts
    // as over a polygon up to snap_distance from each edge's line, which past a corner of angle
    // a reaches snap_distance / sin(a / 2) beyond it (under bounds_margin for a above 0.12°).
    constexpr double bounds_margin = 1e-6;
    const Aabb3& b = poly_bounds_[p.value];
    const double dx = std::max({b.min.x - bounds_margin - center.x, center.x - b.max.x - bounds_margin, 0.0});
    const double dz = std::max({b.min.z - bounds_margin - center.z, center.z - b.max.z - bounds_margin, 0.0});
    if (dx * dx + dz * dz > best_d2) return;
    // Outside p's plan (beyond snap_distance of an edge's line), its closest point is on its
    // rim, farther than 0 in plan: never as near as a best at 0.
    if (!inside && best_d2 == 0) return;
    const Vec3 on = closest_point(p, center, inside);
    double d2 = length_squared(on - center);
    if (on.x == center.x && on.z == center.z) {  // over the polygon
      const double rise = std::max(std::abs(on.y - center.y) - data_.climb, 0.0);
      d2 = rise * rise;
    }
    if (d2 < best_d2 || (d2 == best_d2 && best && p < best->poly)) {
      best_d2 = d2;
      best = NearestPoly{p, on};
    }
  };
  std::array<PolyId, 16> later;  // not zeroed: written before read
  std::size_t deferred = 0;
  for_each_in(Aabb3::around(center - half_extents, center + half_extents), [&](PolyId p) {
    if (!filter.passes(flags(p))) return;
    if (contains_in_plan(p, at)) {
      consider(p, true);
    } else if (deferred < later.size()) {
      later[deferred++] = p;
    } else {
      consider(p, false);
    }
  });
  for (std::size_t i = 0; i < deferred; ++i) consider(later[i], false);
  return best;
}

std::optional<NearestPoly> NavMesh::poly_at(Vec3 p, double max_vertical, const QueryFilter& filter) const {
  if (!finite(p) || !(max_vertical >= 0 && std::isfinite(max_vertical))) return std::nullopt;
  std::optional<NearestPoly> best;
  double best_dy = std::numeric_limits<double>::infinity();
  const Vec3 reach{detail::snap_distance, max_vertical, detail::snap_distance};
  for_each_in(Aabb3::around(p - reach, p + reach), [&](PolyId q) {
    if (!filter.passes(flags(q)) || !contains_in_plan(q, plan(p))) return;
    const Vec3 on = closest_point(q, p);
    const double dy = std::abs(on.y - p.y);
    if (dy <= max_vertical && (dy < best_dy || (dy == best_dy && q < best->poly))) {
      best_dy = dy;
      best = NearestPoly{q, on};
    }
  });
  return best;
}

void NavMesh::build_index() {
  const std::size_t polys = poly_count();
  corner_poly_.resize(data_.corners.size());
  for (std::uint32_t i = 0; i < polys; ++i) {
    std::fill(corner_poly_.begin() + data_.poly_begin[i], corner_poly_.begin() + data_.poly_begin[i + 1], PolyId{i});
  }
  twin_.assign(data_.corners.size(), PolyId::invalid_value);
  on_wall_.assign(data_.vertices.size(), 0);
  for (std::uint32_t k = 0; k < data_.corners.size(); ++k) {
    const PolyId q = data_.neighbors[k];
    if (!q.valid()) {
      on_wall_[data_.corners[k]] = on_wall_[data_.corners[next_corner(k)]] = 1;
      continue;
    }
    for (std::uint32_t j = data_.poly_begin[q.value]; j < data_.poly_begin[q.value + 1]; ++j) {
      if (data_.corners[j] == data_.corners[next_corner(k)] && data_.corners[next_corner(j)] == data_.corners[k]) twin_[k] = j;
    }
  }
  dead_end_.assign(polys, 0);
  for (std::uint32_t i = 0; i < polys; ++i) {
    const auto n = neighbors(PolyId{i});
    dead_end_[i] = std::count_if(n.begin(), n.end(), [](PolyId q) { return q.valid(); }) <= 1;
  }
  area_prefix_.assign(polys + 1, 0.0);
  for (std::uint32_t i = 0; i < polys; ++i) area_prefix_[i + 1] = area_prefix_[i] + twice_plan_area(data_, corners(PolyId{i})) / 2;
  island_.assign(polys, PolyId::invalid_value);
  std::vector<PolyId> stack;
  for (std::uint32_t i = 0, next = 0; i < polys; ++i) {
    if (island_[i] != PolyId::invalid_value) continue;
    island_[i] = next;
    stack.push_back(PolyId{i});
    while (!stack.empty()) {
      const PolyId p = stack.back();
      stack.pop_back();
      for (const PolyId q : neighbors(p)) {
        if (q.valid() && island_[q.value] == PolyId::invalid_value) {
          island_[q.value] = next;
          stack.push_back(q);
        }
      }
    }
    ++next;
  }
  distinct_flags_.assign(data_.flags.begin(), data_.flags.end());
  std::sort(distinct_flags_.begin(), distinct_flags_.end());
  distinct_flags_.erase(std::unique(distinct_flags_.begin(), distinct_flags_.end()), distinct_flags_.end());
  poly_bounds_.resize(polys);
  for (std::uint32_t i = 0; i < polys; ++i) {
    for (std::uint32_t v : corners(PolyId{i})) poly_bounds_[i].expand(data_.vertices[v]);
    bounds_.expand(poly_bounds_[i]);
  }
  bvh_polys_.resize(polys);
  for (std::uint32_t i = 0; i < polys; ++i) bvh_polys_[i] = PolyId{i};
  nodes_.clear();
  if (polys > 0) build_node(0, static_cast<std::uint32_t>(polys), 1);
}

/// Builds the node for bvh_polys_[first, first + count) at `depth` (the root is 1): a leaf of at
/// most max_leaf_polys polygons, else two halves split at the median centre along the longer
/// plan axis. An internal node keeps its right child's index in `first`; its left child is the
/// next node. Median splits keep the depth within log2(polygons) + 1 < max_bvh_depth.
std::uint32_t NavMesh::build_node(std::uint32_t first, std::uint32_t count, std::size_t depth) {
  const auto self = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  Aabb3 box;
  for (std::uint32_t i = first; i < first + count; ++i) box.expand(poly_bounds_[bvh_polys_[i].value]);
  nodes_[self].box = box;
  if (count <= max_leaf_polys || depth + 1 >= max_bvh_depth) {
    nodes_[self].first = first;
    nodes_[self].count = count;
    return self;
  }
  const bool along_x = box.size().x >= box.size().z;
  const auto key = [&](PolyId p) {
    const Vec3 c = poly_bounds_[p.value].center();
    return along_x ? c.x : c.z;
  };
  const std::uint32_t half = count / 2;
  std::nth_element(bvh_polys_.begin() + first, bvh_polys_.begin() + first + half, bvh_polys_.begin() + first + count,
                   [&](PolyId a, PolyId b) { return key(a) < key(b); });
  build_node(first, half, depth + 1);
  const std::uint32_t right = build_node(first + half, count - half, depth + 1);
  nodes_[self].first = right;
  nodes_[self].count = 0;
  return self;
}

Status NavMesh::raycast(PolyId start, Vec3 from, Vec3 to, RaycastHit& out, const QueryFilter& filter) const {
  out.polys.clear();
  out.hit = false;
  out.t = 0;
  out.normal = {};
  if (!finite(from) || !finite(to) || start.value >= poly_count() || !filter.passes(flags(start))) {
    return Status::failure(StatusDetail::invalid_query);
  }
  from = closest_point(start, from);
  const Vec2 s = plan(from), d = plan(to) - s;
  PolyId p = start;
  std::uint32_t entry = PolyId::invalid_value;  // the edge p was entered by, not to leave by
  double t_in = 0;
  // Each polygon is entered at a larger t than the last: no more steps than polygons (the
  // bound only guards against rounding on a hostile mesh).
  for (std::size_t step = 0; step <= poly_count(); ++step) {
    out.polys.push_back(p);
    // The edge the line leaves p's (convex) plan through first: where it crosses to an edge's
    // outer side earliest.
    double t_out = std::numeric_limits<double>::infinity();
    std::uint32_t exit = PolyId::invalid_value;
    for (std::uint32_t k = data_.poly_begin[p.value]; k < data_.poly_begin[p.value + 1]; ++k) {
      if (k == entry) continue;
      const Segment3 e = edge(k);
      const Vec2 a = plan(e.a), b = plan(e.b);
      const double leaving = cross(b - a, d);  // < 0: the line heads to the edge's outer side
      if (leaving >= 0) continue;
      const double t = cross(b - a, s - a) / -leaving;
      if (t < t_out) {
        t_out = t;
        exit = k;
      }
    }
    if (exit == PolyId::invalid_value || t_out >= 1) {  // `to` lies in p
      out.t = 1;
      out.point = closest_point(p, to);
      return Status::success();
    }
    t_in = std::max(t_in, t_out);
    const PolyId q = data_.neighbors[exit];
    if (!q.valid() || !filter.passes(flags(q))) {
      out.hit = true;
      out.t = t_in;
      const Vec2 at = s + d * t_in;
      out.point = closest_point(p, Vec3{at.x, from.y + (to.y - from.y) * t_in, at.y});
      const Segment3 wall = edge(exit);
      const Vec2 along = plan(wall.b) - plan(wall.a);
      const Vec2 inward = normalized(Vec2{-along.y, along.x});  // left of a counter-clockwise edge
      out.normal = {inward.x, 0, inward.y};
      return Status::success();
    }
    entry = twin(exit);
    p = q;
  }
  return Status::failure(StatusDetail::out_of_nodes);
}

std::optional<NearestPoly> NavMesh::random_point(const QueryFilter& filter, double u_poly, double u_a,
                                                 double u_b) const {
  const std::size_t polys = poly_count();
  const bool all = passes_all(filter);
  double total = 0;
  if (all) {
    total = area_prefix_.back();
  } else {
    for (std::uint32_t i = 0; i < polys; ++i) total += filter.passes(data_.flags[i]) ? plan_area(PolyId{i}) : 0;
  }
  if (!(total > 0)) return std::nullopt;
  // The polygon whose share of the total area holds u_poly · total, and how far into it.
  double target = std::clamp(u_poly, 0.0, 1.0) * total;
  PolyId p;
  if (all) {
    const auto it = std::upper_bound(area_prefix_.begin() + 1, area_prefix_.end(), target);
    p = PolyId{static_cast<std::uint32_t>(std::min<std::size_t>(it - area_prefix_.begin() - 1, polys - 1))};
    target -= area_prefix_[p.value];
  } else {
    for (std::uint32_t i = 0; i < polys; ++i) {
      if (!filter.passes(data_.flags[i]) || !(plan_area(PolyId{i}) > 0)) continue;
      p = PolyId{i};
      if (target < plan_area(p)) break;
      target -= plan_area(p);
    }
  }
  // The fan triangle that holds the rest of target, then a uniform point in it.
  const auto c = corners(p);
  const Vec3 a = vertex(c[0]);
  Vec3 b = vertex(c[1]), e = vertex(c[2]);
  for (std::size_t k = 1; k + 1 < c.size(); ++k) {
    b = vertex(c[k]);
    e = vertex(c[k + 1]);
    const double area = cross(plan(b) - plan(a), plan(e) - plan(a)) / 2;
    if (target < area) break;
    target -= area;
  }
  const double r = std::sqrt(std::clamp(u_a, 0.0, 1.0)), v = std::clamp(u_b, 0.0, 1.0);
  const Vec3 point = a * (1 - r) + b * (r * (1 - v)) + e * (r * v);
  return NearestPoly{p, closest_point(p, point)};
}

}  // namespace waymark::navmesh
