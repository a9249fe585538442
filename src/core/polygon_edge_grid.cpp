// PolygonEdgeGrid: listing a polygon's edges by cell, and the point queries over the lists
// (the walk along a segment is inline in the header).
#include "waymark/core/polygon_edge_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace waymark {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// A share of the largest coordinate and of the cell side added to the margin: computed
/// crossings and cell borders are a few ulps off, far less than this.
constexpr double coordinate_rounding = 1e-12;
constexpr double side_rounding = 1e-9;

}  // namespace

PolygonEdgeGrid::PolygonEdgeGrid(std::span<const Vec2> polygon, double margin)
    : corners_(polygon.begin(), polygon.end()), margin_(margin) {
  const std::size_t n = corners_.size();
  if (n == 0) return;
  Aabb2 box;
  for (const Vec2 c : corners_) box.expand(c);
  const Vec2 size = box.size();
  const double longer = std::max(size.x, size.y);
  double side = std::max(std::sqrt(size.x * size.y / static_cast<double>(n)), longer / static_cast<double>(n));
  const double largest = std::max({std::abs(box.min.x), std::abs(box.min.y), std::abs(box.max.x), std::abs(box.max.y)});
  // Cells no narrower than the margin, or an edge would be listed in (margin / side)² cells.
  side = std::max({side, margin, coordinate_rounding * largest});
  if (!(side > 0)) side = 1;  // every corner at one point
  const double allow = margin + coordinate_rounding * largest + side_rounding * side;
  grid_.side = side;
  grid_.origin = box.min - Vec2{allow, allow};
  grid_.columns = static_cast<int>((size.x + 2 * allow) / side) + 1;
  grid_.rows = static_cast<int>((size.y + 2 * allow) / side) + 1;

  // Edge i in every cell its points come within `allow` of: per row of cells, the x extent of
  // the edge's piece within `allow` of the row's band, widened by `allow`.
  cells_.build(grid_.cell_count(), n, [&](std::size_t i, auto&& add) {
    const Segment2 e = edge(static_cast<std::uint32_t>(i));
    for_cells_along(grid_, e.a, e.b, allow, [&](int r, int c0, int c1) {
      for (int c = c0; c <= c1; ++c) add(grid_.index(c, r));
    });
  });
}

bool PolygonEdgeGrid::scan(Vec2 p, int dx, int dy) const {
  const std::size_t n = corners_.size();
  bool inside = false;
  int x = grid_.column_of(p.x), y = grid_.row_of(p.y);
  for (; x >= 0 && y >= 0 && x < grid_.columns && y < grid_.rows; x += dx, y += dy) {
    for (const std::uint32_t i : cells_.in(grid_.index(x, y))) {
      // polygon_contains's a and b: corner i and the one before it.
      const Vec2 a = corners_[i], b = corners_[i == 0 ? n - 1 : i - 1];
      if (dy == 0) {
        if ((a.y > p.y) == (b.y > p.y)) continue;
        const double at = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
        if (grid_.column_of(at) == x && (p.x < at) == (dx > 0)) inside = !inside;
      } else {
        if ((a.x > p.x) == (b.x > p.x)) continue;
        const double at = a.y + (p.x - a.x) * (b.y - a.y) / (b.x - a.x);
        if (grid_.row_of(at) == y && (p.y < at) == (dy > 0)) inside = !inside;
      }
    }
  }
  // Crossings before and after p along a whole line number the same mod 2 (the line goes in
  // and out of the polygon alike), so either side's count tells.
  return inside;
}

bool PolygonEdgeGrid::contains(Vec2 p) const {
  if (grid_.empty() || !finite(p)) return polygon_contains(corners_, p);
  return grid_.column_of(p.x) * 2 >= grid_.columns ? scan(p, 1, 0) : scan(p, -1, 0);
}

bool PolygonEdgeGrid::contains_off_boundary(Vec2 p) const {
  if (grid_.empty() || !finite(p)) return polygon_contains(corners_, p);
  const int x = grid_.column_of(p.x), y = grid_.row_of(p.y);
  const int right = grid_.columns - x, left = x + 1, up = grid_.rows - y, down = y + 1;
  const int fewest = std::min({right, left, up, down});
  if (fewest == right) return scan(p, 1, 0);
  if (fewest == left) return scan(p, -1, 0);
  return fewest == up ? scan(p, 0, 1) : scan(p, 0, -1);
}

PolygonEdgeGrid::Nearest PolygonEdgeGrid::nearest_edge(Vec2 p) const {
  Nearest best{0, {}, infinity};
  const auto offer = [&](std::uint32_t i) {
    const Vec2 q = edge(i).closest_point(p);
    const double sq = length_squared(p - q);
    if (sq < best.distance_squared || (sq == best.distance_squared && i < best.edge)) best = {i, q, sq};
  };
  if (grid_.empty() || !finite(p)) {
    for (std::uint32_t i = 0; i < corners_.size(); ++i) offer(i);
    return best;
  }
  const int cx = grid_.column_of(p.x), cy = grid_.row_of(p.y);
  const int rings = std::max(grid_.columns, grid_.rows);
  const double largest = std::max(std::abs(p.x), std::abs(p.y)) + std::abs(grid_.origin.x) + std::abs(grid_.origin.y);
  for (int k = 0; k < rings; ++k) {
    for_ring(cx, cy, k, grid_.columns, grid_.rows, [&](int x, int y) {
      for (const std::uint32_t i : cells_.in(grid_.index(x, y))) offer(i);
    });
    // Edges in no ring so far lie in farther cells: at least `bound` away, and their computed
    // distances at most a few ulps nearer.
    const double bound = ring_bound(grid_, p, cx, cy, k + 1);
    if (std::sqrt(best.distance_squared) < bound - coordinate_rounding * (largest + bound)) break;
  }
  return best;
}

}  // namespace waymark
