// The obstacle world's queries: raycasts through the broad phase and over the map's cells, disc
// contacts and clearance (the narrow phase per shape in obstacle_shapes.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "obstacle_shapes.hpp"
#include "waymark/core/clip.hpp"
#include "waymark/core/grid_walk.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer {
namespace {

using detail::box_distance;
using detail::box_push;
using detail::Hit;
using detail::Push;

constexpr double infinity = std::numeric_limits<double>::infinity();
/// Cell-edge crossings are computed to a few ulps; the ray walk looks this far (× the cell
/// side) past where it could stop, so rounding never hides a hit in the next cell.
constexpr double walk_slack = 1e-9;

ColliderRef shape_ref(std::uint32_t id) { return {ColliderRef::Kind::shape, ColliderId{id}, CellId{}}; }
ColliderRef cell_ref(CellId cell) { return {ColliderRef::Kind::cell, ColliderId{}, cell}; }

}  // namespace

/// The nearest hit so far; hits beyond `limit` (max_distance, then the nearest hit's
/// distance) are ignored.
struct ObstacleWorld::Best {
  double limit;
  bool found = false;
  RayHit hit{};

  void offer(double t, Vec2 point, Vec2 normal, ColliderRef ref) {
    if (!(t <= limit)) return;
    limit = t;
    found = true;
    hit = {point, normal, t, ref};
  }
};
void ObstacleWorld::test_shape(std::uint32_t id, Vec2 o, Vec2 d, Best& best) const {
  const Shape& shape = shapes_[id];
  if (shape.index() == 3) {  // polygons: their bounds first, the edges only when the ray gets there
    const Bounds& b = bounds_[id];
    double t0 = 0, t1 = best.limit;
    if (!clip_to_box(o, d, b.min, b.max, t0, t1)) return;
  }
  Hit h;
  const Prepared& prep = prepared_[id];
  if (detail::ray_shape(shape, prep.axis, prep.orientation, prep.edges.get(), o, d, best.limit, h)) {
    best.offer(h.t, h.t == 0 ? o : o + d * h.t, h.normal, shape_ref(id));
  }
}

void ObstacleWorld::raycast_shapes(Vec2 o, Vec2 d, LayerMask mask, Best& best) const {
  for (const std::uint32_t id : large_) {
    if (mask & layer_bit(layers_[id])) test_shape(id, o, d, best);
  }
  if (cells_.empty()) return;
  const double slack = walk_slack * cells_.side;
  double t0 = 0, t1 = best.limit;
  if (!clip_to_box(o, d, occupied_.min - Vec2{slack, slack}, occupied_.max + Vec2{slack, slack}, t0, t1)) return;

  // The broad-phase cells from where the ray enters the occupied box.
  const Vec2 start = o + d * std::max(0.0, t0 - slack);
  CellWalk walk(cells_.origin, cells_.side, o, d, cells_.column_of(start.x), cells_.row_of(start.y));
  int px = -1, py = -1;  // the cell visited before this one
  for (;;) {
    for (std::uint32_t e = heads_[cells_.index(walk.x(), walk.y())]; e != no_entry; e = entries_[e].next) {
      const std::uint32_t id = entries_[e].shape;
      if (!(mask & layer_bit(layers_[id]))) continue;
      // A shape that also covers the cell before was tested there (or in the one before that).
      if (ranges_[id].contains(px, py)) continue;
      test_shape(id, o, d, best);
    }
    if (walk.exit() > std::min(best.limit, t1) + slack) return;
    px = walk.x();
    py = walk.y();
    walk.step();
    if (walk.x() < 0 || walk.x() >= cells_.columns || walk.y() < 0 || walk.y() >= cells_.rows) return;
  }
}

void ObstacleWorld::raycast_grid(Vec2 o, Vec2 d, Best& best) const {
  const grid::GridMap& map = *grid_;
  const double s = map.cell_size();
  const Vec2 origin = map.params().origin;
  const double u = (o.x - origin.x) / s, v = (o.y - origin.y) / s;
  // The cell the ray is in just after the origin: on a cell edge, the one it heads into.
  const double fx = d.x < 0 ? std::ceil(u) - 1 : std::floor(u);
  const double fy = d.y < 0 ? std::ceil(v) - 1 : std::floor(v);
  if (!(fx >= 0 && fy >= 0 && fx < map.width() && fy < map.height())) {
    best.offer(0, o, -d, cell_ref(CellId{}));
    return;
  }
  const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
  if (!map.passable(ix, iy)) {
    best.offer(0, o, -d, cell_ref(map.cell(ix, iy)));
    return;
  }
  CellWalk walk(origin, s, o, d, ix, iy);
  for (;;) {
    const CellWalk::Step step = walk.step();
    const double t = std::max(step.t, 0.0);
    if (t > best.limit) return;  // the cell stepped into lies beyond the nearest hit
    const Vec2 point = step.across_x ? Vec2{step.border, o.y + d.y * t} : Vec2{o.x + d.x * t, step.border};
    const Vec2 normal = step.across_x ? Vec2{static_cast<double>(-walk.step_x()), 0.0}
                                      : Vec2{0.0, static_cast<double>(-walk.step_y())};
    if (!map.in_bounds(walk.x(), walk.y())) {
      best.offer(t, point, normal, cell_ref(CellId{}));  // the map's border
      return;
    }
    const CellId cell = map.cell(walk.x(), walk.y());
    if (!map.passable(cell)) {
      best.offer(t, point, normal, cell_ref(cell));
      return;
    }
  }
}

std::optional<RayHit> ObstacleWorld::raycast(Vec2 origin, Vec2 direction, double max_distance, LayerMask mask) const {
  const double len = length(direction);
  if (!(len > 0) || !std::isfinite(len) || !(max_distance >= 0) || !std::isfinite(origin.x) ||
      !std::isfinite(origin.y)) {
    return std::nullopt;
  }
  const Vec2 d = direction / len;
  Best best{max_distance};
  raycast_shapes(origin, d, mask, best);
  if (grid_ != nullptr && (mask & layer_bit(grid_layer_))) raycast_grid(origin, d, best);
  if (!best.found) return std::nullopt;
  return best.hit;
}

std::size_t ObstacleWorld::disc_contacts(Vec2 c, double radius, LayerMask mask, std::vector<Contact>& out) const {
  out.clear();
  if (!(radius > 0) || !std::isfinite(radius) || !std::isfinite(c.x) || !std::isfinite(c.y)) return 0;
  const Vec2 reach{radius, radius};
  const auto consider = [&](std::uint32_t id) {
    const Bounds& b = bounds_[id];
    if (b.min.x >= c.x + radius || b.max.x <= c.x - radius || b.min.y >= c.y + radius || b.max.y <= c.y - radius) return;
    const Prepared& prep = prepared_[id];
    const Push p = detail::shape_push(shapes_[id], prep.axis, prep.orientation, prep.edges.get(), c, radius);
    if (p.depth > 0) out.push_back({p.normal, p.depth, shape_ref(id)});
  };
  for (const std::uint32_t id : large_) {
    if (mask & layer_bit(layers_[id])) consider(id);
  }
  if (!cells_.empty() && occupied_.min.x < c.x + radius && occupied_.max.x > c.x - radius &&
      occupied_.min.y < c.y + radius && occupied_.max.y > c.y - radius) {
    const CellRange q = cells_of({c - reach, c + reach});
    for (int y = q.y0; y <= q.y1; ++y) {
      for (int x = q.x0; x <= q.x1; ++x) {
        for (std::uint32_t e = heads_[cells_.index(x, y)]; e != no_entry; e = entries_[e].next) {
          const std::uint32_t id = entries_[e].shape;
          if (!(mask & layer_bit(layers_[id]))) continue;
          // Each shape once: in the first of its cells the query rectangle visits.
          const CellRange& r = ranges_[id];
          if (x != std::max(r.x0, q.x0) || y != std::max(r.y0, q.y0)) continue;
          consider(id);
        }
      }
    }
  }

  if (grid_ == nullptr || !(mask & layer_bit(grid_layer_))) return out.size();
  const grid::GridMap& map = *grid_;
  const double s = map.cell_size();
  const Vec2 lo = map.params().origin;
  const Vec2 hi = lo + Vec2{map.width() * s, map.height() * s};
  // Outside the map: the half-planes beyond its four sides.
  const double inward[4] = {c.x - lo.x, hi.x - c.x, c.y - lo.y, hi.y - c.y};
  const Vec2 normals[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int i = 0; i < 4; ++i) {
    if (inward[i] < radius) out.push_back({normals[i], radius - inward[i], cell_ref(CellId{})});
  }
  const auto index = [&](double w, double o, int n) {
    return static_cast<int>(std::clamp(std::floor((w - o) / s), 0.0, static_cast<double>(n - 1)));
  };
  if (c.x + radius <= lo.x || c.x - radius >= hi.x || c.y + radius <= lo.y || c.y - radius >= hi.y) return out.size();
  const int x0 = index(c.x - radius, lo.x, map.width()), x1 = index(c.x + radius, lo.x, map.width());
  const int y0 = index(c.y - radius, lo.y, map.height()), y1 = index(c.y + radius, lo.y, map.height());
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const CellId cell = map.cell(x, y);
      if (map.passable(cell)) continue;
      const Vec2 cell_lo = lo + Vec2{x * s, y * s};
      const Push p = box_push(cell_lo, cell_lo + Vec2{s, s}, c, radius);
      if (p.depth > 0) out.push_back({p.normal, p.depth, cell_ref(cell)});
    }
  }
  return out.size();
}

double ObstacleWorld::distance(ColliderId id, Vec2 p) const {
  return detail::shape_distance(shapes_[id.value], prepared_[id.value].axis, prepared_[id.value].edges.get(), p);
}

double ObstacleWorld::clearance(Vec2 p, double max_distance, LayerMask mask) const {
  if (!(max_distance > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) return 0;
  double best = max_distance;

  if (grid_ != nullptr && (mask & layer_bit(grid_layer_))) {
    const grid::GridMap& map = *grid_;
    const std::optional<grid::CellCoord> at = map.world_to_cell(p);
    if (!at || !map.passable(at->x, at->y)) return 0;
    const double s = map.cell_size();
    const Vec2 lo = map.params().origin;
    best = std::min({best, p.x - lo.x, lo.x + map.width() * s - p.x, p.y - lo.y, lo.y + map.height() * s - p.y});
    const UniformGrid map_cells{lo, s, map.width(), map.height()};
    for (int k = 1; ring_bound(map_cells, p, at->x, at->y, k) < best; ++k) {
      for_ring(at->x, at->y, k, map.width(), map.height(), [&](int x, int y) {
        if (map.passable(x, y)) return;
        const Vec2 cell_lo = lo + Vec2{x * s, y * s};
        best = std::min(best, box_distance(cell_lo, cell_lo + Vec2{s, s}, p));
      });
    }
  }

  const auto consider = [&](std::uint32_t id) {
    const Bounds& b = bounds_[id];
    if (box_distance(b.min, b.max, p) >= best) return;
    best = std::min(best, detail::shape_distance(shapes_[id], prepared_[id].axis, prepared_[id].edges.get(), p));
  };
  for (const std::uint32_t id : large_) {
    if (best > 0 && (mask & layer_bit(layers_[id]))) consider(id);
  }
  if (cells_.empty() || box_distance(occupied_.min, occupied_.max, p) >= best) return best;
  // Rings of broad-phase cells around p's cell (clamped onto the grid) until the next ring
  // lies farther than the nearest solid found.
  const int cx = cells_.column_of(p.x), cy = cells_.row_of(p.y);
  for (int k = 0; best > 0 && (k == 0 || ring_bound(cells_, p, cx, cy, k) < best); ++k) {
    for_ring(cx, cy, k, cells_.columns, cells_.rows, [&](int x, int y) {
      for (std::uint32_t e = heads_[cells_.index(x, y)]; e != no_entry; e = entries_[e].next) {
        const std::uint32_t id = entries_[e].shape;
        if (!(mask & layer_bit(layers_[id]))) continue;
        // Each shape once: in its cell nearest (cx, cy), the first ring that reaches it.
        const CellRange& r = ranges_[id];
        if (x != std::clamp(cx, r.x0, r.x1) || y != std::clamp(cy, r.y0, r.y1)) continue;
        consider(id);
      }
    });
  }
  return best;
}

}  // namespace waymark::steer
