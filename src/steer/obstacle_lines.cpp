// ObstacleLines: an obstacle world's solids as oriented edges for ORCA, and their broad phase.
#include "waymark/steer/obstacle_lines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::steer {
namespace {

/// The fewest broad-phase cells before the cells are widened, and the cells allowed per edge.
constexpr double fewest_cells = 65536;
constexpr double cells_per_edge = 16;
/// An edge whose bounds cover more cells than this is tested by every query instead.
constexpr double max_cells_per_edge = 256;
/// Corners closer than this (world units) are one corner.
constexpr double same_corner = 1e-9;
/// An edge is listed in the cells within this share of the cell side, and of the largest
/// coordinate, of it: a nearest point computed a few ulps off the edge still lies in one.
constexpr double side_rounding = 1e-9;
constexpr double coordinate_rounding = 1e-12;

Vec2 left_of(Vec2 d) { return {-d.y, d.x}; }
Vec2 right_of(Vec2 d) { return {d.y, -d.x}; }

}  // namespace

ObstacleLines::ObstacleLines(ObstacleLinesParams params) : params_(params) {
  if (!(params_.cell > 0) || !std::isfinite(params_.cell)) throw BuildError("ObstacleLines: cell must be finite and > 0");
  if (params_.circle_sides < 3 || params_.circle_sides > 64) throw BuildError("ObstacleLines: circle_sides must be 3-64");
}

ObstacleLines::ObstacleLines(const ObstacleWorld& world, ObstacleLinesParams params) : ObstacleLines(params) {
  rebuild(world);
}

void ObstacleLines::rebuild(const ObstacleWorld& world) {
  edges_.clear();
  for (std::uint32_t id = 0; id < world.size(); ++id) {
    if (!world.contains(ColliderId{id})) continue;  // removed
    const int layer = world.layer(ColliderId{id});
    if (params_.mask & layer_bit(layer)) add_shape(world.shape(ColliderId{id}), layer);
  }
  if (world.grid() != nullptr && (params_.mask & layer_bit(world.grid_layer()))) add_grid(*world.grid(), world.grid_layer());
  index_edges();
}

void ObstacleLines::add_shape(const Shape& shape, int layer) {
  corners_.clear();
  switch (shape.index()) {
    case 0: {
      const Circle& c = *std::get_if<Circle>(&shape);
      // The regular polygon whose sides touch the circle: its corners at r / cos(π / n).
      const double step = 2 * std::numbers::pi / params_.circle_sides;
      const double reach = std::max(c.radius, same_corner) / std::cos(step / 2);
      for (int k = 0; k < params_.circle_sides; ++k) {
        const double angle = step * k;
        corners_.push_back(c.centre + Vec2{std::cos(angle), std::sin(angle)} * reach);
      }
      break;
    }
    case 1: {
      const Box& b = *std::get_if<Box>(&shape);
      corners_.insert(corners_.end(), {b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}});
      break;
    }
    case 2: {
      const OrientedBox& b = *std::get_if<OrientedBox>(&shape);
      const Vec2 u{std::cos(b.angle), std::sin(b.angle)};
      const Vec2 x = u * b.half_extents.x, y = left_of(u) * b.half_extents.y;
      corners_.insert(corners_.end(), {b.centre - x - y, b.centre + x - y, b.centre + x + y, b.centre - x + y});
      break;
    }
    case 3: {
      const std::vector<Vec2>& c = std::get_if<Polygon>(&shape)->corners;
      corners_.insert(corners_.end(), c.begin(), c.end());
      if (polygon_signed_area(corners_) < 0) std::reverse(corners_.begin(), corners_.end());
      break;
    }
    default: {
      const Segment2& s = *std::get_if<Segment2>(&shape);
      add_two_sided(s.a, s.b, layer);
      return;
    }
  }
  add_loop(layer);
}

void ObstacleLines::add_two_sided(Vec2 a, Vec2 b, int layer) {
  const double l = distance(a, b);
  if (!(l > same_corner)) return;  // a point: the wall pushes of the simulation are left
  const Vec2 d = (b - a) / l;
  const auto layer8 = static_cast<std::uint8_t>(layer);
  // Each side's edge turns back round its ends onto the other: both ends convex.
  edges_.push_back({a, b, d, -d, -d, true, true, layer8});
  edges_.push_back({b, a, -d, d, d, true, true, layer8});
}

void ObstacleLines::add_loop(int layer) {
  // Repeated corners (and a last one equal to the first) are dropped, in place.
  std::size_t n = 0;
  for (std::size_t i = 0; i < corners_.size(); ++i) {
    if (n == 0 || distance(corners_[i], corners_[n - 1]) > same_corner) corners_[n++] = corners_[i];
  }
  while (n > 1 && distance(corners_[n - 1], corners_[0]) <= same_corner) --n;
  if (n < 3 || polygon_signed_area(std::span<const Vec2>(corners_.data(), n)) == 0) {
    // Flat: every side a two-sided wall.
    for (std::size_t i = 0; i + 1 < n; ++i) add_two_sided(corners_[i], corners_[i + 1], layer);
    return;
  }
  const std::size_t first = edges_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = corners_[i], b = corners_[(i + 1) % n];
    edges_.push_back({a, b, normalized(b - a), {}, {}, true, true, static_cast<std::uint8_t>(layer)});
  }
  for (std::size_t i = 0; i < n; ++i) {
    ObstacleEdge& e = edges_[first + i];
    const ObstacleEdge& prev = edges_[first + (i + n - 1) % n];
    const ObstacleEdge& next = edges_[first + (i + 1) % n];
    e.before = prev.direction;
    e.after = next.direction;
    e.convex_a = cross(prev.direction, e.direction) >= 0;
    e.convex_b = cross(e.direction, next.direction) >= 0;
  }
}

void ObstacleLines::add_grid(const grid::GridMap& map, int layer) {
  // The cells with a ring of blocked ones round them: (x, y) of the map is (x + 1, y + 1) here.
  const int w = map.width() + 2, h = map.height() + 2;
  blocked_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 1);
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      blocked_[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x + 1)] =
          map.passable(x, y) ? 0 : 1;
    }
  }
  const auto solid = [&](int x, int y) {  // padded coordinates
    return blocked_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] != 0;
  };
  const double s = map.cell_size();
  const Vec2 origin = map.params().origin - Vec2{s, s};
  const auto corner = [&](int x, int y) { return origin + Vec2{x * s, y * s}; };
  // At a run's end corner (x, y): convex when one of the four cells round it is blocked or
  // two diagonal ones are (the outline then keeps each blocked cell to itself), else concave.
  const auto convex_at = [&](int x, int y) {
    const bool sw = solid(x - 1, y - 1), se = solid(x, y - 1), nw = solid(x - 1, y), ne = solid(x, y);
    const int count = sw + se + nw + ne;
    return count == 1 || (count == 2 && sw == ne);
  };
  const auto layer8 = static_cast<std::uint8_t>(layer);
  const auto push = [&](Vec2 a, Vec2 b, Vec2 d, bool convex_a, bool convex_b) {
    // Convex: the outline turns left (solid on the left); concave: right.
    edges_.push_back({a, b, d, convex_a ? right_of(d) : left_of(d), convex_b ? left_of(d) : right_of(d), convex_a,
                      convex_b, layer8});
  };
  // Horizontal corner lines y = 1 .. h − 1 between rows y − 1 and y; runs of one kind merge:
  // kind +1 (free below, blocked above) runs towards +x, −1 towards −x.
  for (int y = 1; y < h; ++y) {
    int x = 1;
    while (x < w - 1) {
      const int kind = solid(x, y) == solid(x, y - 1) ? 0 : (solid(x, y) ? 1 : -1);
      int end = x + 1;
      while (end < w - 1 && kind != 0 &&
             (solid(end, y) == solid(end, y - 1) ? 0 : (solid(end, y) ? 1 : -1)) == kind) {
        ++end;
      }
      if (kind > 0) push(corner(x, y), corner(end, y), {1, 0}, convex_at(x, y), convex_at(end, y));
      if (kind < 0) push(corner(end, y), corner(x, y), {-1, 0}, convex_at(end, y), convex_at(x, y));
      x = end;
    }
  }
  // Vertical corner lines x between columns x − 1 and x: kind +1 (blocked left, free right)
  // runs towards +y, −1 towards −y.
  for (int x = 1; x < w; ++x) {
    int y = 1;
    while (y < h - 1) {
      const int kind = solid(x - 1, y) == solid(x, y) ? 0 : (solid(x - 1, y) ? 1 : -1);
      int end = y + 1;
      while (end < h - 1 && kind != 0 &&
             (solid(x - 1, end) == solid(x, end) ? 0 : (solid(x - 1, end) ? 1 : -1)) == kind) {
        ++end;
      }
      if (kind > 0) push(corner(x, y), corner(x, end), {0, 1}, convex_at(x, y), convex_at(x, end));
      if (kind < 0) push(corner(x, end), corner(x, y), {0, -1}, convex_at(x, end), convex_at(x, y));
      y = end;
    }
  }
}

std::size_t ObstacleLines::scanned_near(Vec2 p, double range) const {
  if (!(range >= 0) || !std::isfinite(range) || !std::isfinite(p.x) || !std::isfinite(p.y)) return 0;
  std::size_t n = large_.size();
  if (cells_.empty()) return n;
  const UniformGrid::Range q = cells_.cells_of(p - Vec2{range, range}, p + Vec2{range, range});
  for (int y = q.y0; y <= q.y1; ++y) {
    for (int x = q.x0; x <= q.x1; ++x) {
      n += lists_.in(cells_.index(x, y)).size();
      if (!passing_lists_.items.empty()) n += passing_lists_.in(cells_.index(x, y)).size();
    }
  }
  return n;
}


void ObstacleLines::index_edges() {
  large_.clear();
  ranges_.resize(edges_.size());
  if (edges_.empty()) {
    cells_ = {{}, 1, 0, 0};
    lists_.build(0, 0, [](std::size_t, auto&&) {});
    passing_lists_.build(0, 0, [](std::size_t, auto&&) {});
    return;
  }
  constexpr double huge = std::numeric_limits<double>::infinity();
  Vec2 lo{huge, huge}, hi{-huge, -huge};
  for (const ObstacleEdge& e : edges_) {
    lo = {std::min({lo.x, e.a.x, e.b.x}), std::min({lo.y, e.a.y, e.b.y})};
    hi = {std::max({hi.x, e.a.x, e.b.x}), std::max({hi.y, e.a.y, e.b.y})};
  }
  const Vec2 extent = hi - lo;
  const double cap = std::max(fewest_cells, cells_per_edge * static_cast<double>(edges_.size()));
  double side = params_.cell;
  while (std::ceil(extent.x / side + 1) * std::ceil(extent.y / side + 1) > cap) side *= 2;
  cells_.origin = lo;
  cells_.side = side;
  cells_.columns = static_cast<int>(std::ceil(extent.x / side)) + 1;
  cells_.rows = static_cast<int>(std::ceil(extent.y / side)) + 1;
  const double largest = std::max({std::abs(lo.x), std::abs(lo.y), std::abs(hi.x), std::abs(hi.y)});
  allow_ = side_rounding * side + coordinate_rounding * largest;
  // Each edge in the cells of its box, or, when that is more, in the cells it passes through
  // (a long diagonal edge crosses a few cells a row, its box a square of them); an edge
  // passing more than max_cells_per_edge is tested by every query instead.
  for (std::size_t i = 0; i < edges_.size(); ++i) {
    const ObstacleEdge& e = edges_[i];
    const UniformGrid::Range box = cells_.cells_of({std::min(e.a.x, e.b.x), std::min(e.a.y, e.b.y)},
                                                   {std::max(e.a.x, e.b.x), std::max(e.a.y, e.b.y)});
    const double in_box = (double{1} + box.x1 - box.x0) * (double{1} + box.y1 - box.y0);
    double passed = 0;
    if (in_box > 1) for_cells_along(cells_, e.a, e.b, allow_, [&](int, int c0, int c1) { passed += 1.0 + c1 - c0; });
    ranges_[i] = box;
    if (in_box <= 1 || passed >= in_box) continue;
    ranges_[i] = passing;
    if (passed > max_cells_per_edge) {
      ranges_[i] = {};
      large_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  // Two lists, so that a map of only box-listed edges (a grid's walls) queries as before.
  lists_.build(cells_.cell_count(), edges_.size(), [&](std::size_t i, auto&& add) {
    const UniformGrid::Range& r = ranges_[i];
    if (r.x0 > r.x1 || r.y0 == passing.y0) return;  // tested by every query, or passing
    for (int y = r.y0; y <= r.y1; ++y) {
      for (int x = r.x0; x <= r.x1; ++x) add(cells_.index(x, y));
    }
  });
  const bool any_passing = std::any_of(ranges_.begin(), ranges_.end(), [](const UniformGrid::Range& r) { return r.y0 == passing.y0; });
  passing_lists_.build(any_passing ? cells_.cell_count() : 0, any_passing ? edges_.size() : 0, [&](std::size_t i, auto&& add) {
    if (ranges_[i].y0 != passing.y0) return;
    for_cells_along(cells_, edges_[i].a, edges_[i].b, allow_, [&](int row, int c0, int c1) {
      for (int c = c0; c <= c1; ++c) add(cells_.index(c, row));
    });
  });
}

}  // namespace waymark::steer
