#pragma once
/// @file The pieces of a uniform-grid broad phase, shared by the visibility graph (parts by
/// cell), the obstacle world (colliders by cell) and the graph's vertex index (vertices by
/// bucket): the grid's frame (which cell a coordinate falls in), the cells a box covers, the
/// rings of cells around a cell for nearest queries, and the cell lists built by counting
/// sort, and the walk of the cells along a segment or ray. Inline; only CellLists::build
/// allocates (its vectors' capacity is reused).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <vector>

#include "waymark/core/clip.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/grid_walk.hpp"

namespace waymark {

/// Square cells of side `side` in `columns` × `rows`, cell (0, 0) with its low corner at
/// `origin`. Coordinates outside the grid fall in its border cells (clamped).
struct UniformGrid {
  /// Cells a box covers, inclusive; x0 > x1 (the default) for none.
  struct Range {
    int x0 = 1, y0 = 1, x1 = 0, y1 = 0;
    [[nodiscard]] bool contains(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
  };

  Vec2 origin;
  double side = 1;
  int columns = 0;
  int rows = 0;

  [[nodiscard]] bool empty() const { return columns == 0 || rows == 0; }
  [[nodiscard]] std::size_t cell_count() const { return static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows); }
  /// The column of world x and the row of world y, clamped into the grid.
  [[nodiscard]] int column_of(double x) const { return clamp_cell((x - origin.x) / side, columns); }
  [[nodiscard]] int row_of(double y) const { return clamp_cell((y - origin.y) / side, rows); }
  /// The cell's index, row by row.
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(x);
  }
  /// The cells the closed box [lo, hi] covers (clamped into the grid).
  [[nodiscard]] [[gnu::always_inline]] Range cells_of(Vec2 lo, Vec2 hi) const { return {column_of(lo.x), row_of(lo.y), column_of(hi.x), row_of(hi.y)}; }
  /// The low corner of cell (x, y).
  [[nodiscard]] Vec2 cell_min(int x, int y) const { return origin + Vec2{x * side, y * side}; }
  /// The grid's far corner.
  [[nodiscard]] Vec2 max() const { return origin + Vec2{columns * side, rows * side}; }

  /// floor(q) clamped into 0..n-1.
  [[nodiscard]] static int clamp_cell(double q, int n) {
    return static_cast<int>(std::clamp(std::floor(q), 0.0, static_cast<double>(n - 1)));
  }
};

/// Calls `visit(row, first column, last column)` for the cells of `grid` that the points of
/// segment [a, b] come within `allow` of, row by row: per row, the x extent of the piece of the
/// segment within `allow` of the row's band, widened by `allow` (ObstacleLines, PolygonEdgeGrid).
template <class Visit>
void for_cells_along(const UniformGrid& grid, Vec2 a, Vec2 b, double allow, Visit&& visit) {
  const double side = grid.side;
  const double y_lo = std::min(a.y, b.y), y_hi = std::max(a.y, b.y);
  const int r0 = grid.row_of(y_lo - allow), r1 = grid.row_of(y_hi + allow);
  for (int r = r0; r <= r1; ++r) {
    const double band_lo = std::max(grid.origin.y + r * side - allow, y_lo);
    const double band_hi = std::min(grid.origin.y + (r + 1) * side + allow, y_hi);
    double x_lo = std::min(a.x, b.x), x_hi = std::max(a.x, b.x);
    if (a.y != b.y && band_lo <= band_hi) {
      const double slope = (b.x - a.x) / (b.y - a.y);
      const double u = a.x + (band_lo - a.y) * slope, v = a.x + (band_hi - a.y) * slope;
      x_lo = std::max(x_lo, std::min(u, v));
      x_hi = std::min(x_hi, std::max(u, v));
    }
    visit(r, grid.column_of(x_lo - allow), grid.column_of(x_hi + allow));
  }
}

/// Calls `visit(x, y)` for the cells at Chebyshev distance k from (cx, cy) inside [0, w) ×
/// [0, h): the rows cy − k and cy + k, then the columns cx − k and cx + k between them.
template <class Visit>
void for_ring(int cx, int cy, int k, int w, int h, Visit&& visit) {
  if (k == 0) {
    visit(cx, cy);
    return;
  }
  const int x0 = std::max(cx - k, 0), x1 = std::min(cx + k, w - 1);
  for (const int y : {cy - k, cy + k}) {
    if (y < 0 || y >= h) continue;
    for (int x = x0; x <= x1; ++x) visit(x, y);
  }
  const int y0 = std::max(cy - k + 1, 0), y1 = std::min(cy + k - 1, h - 1);
  for (const int x : {cx - k, cx + k}) {
    if (x < 0 || x >= w) continue;
    for (int y = y0; y <= y1; ++y) visit(x, y);
  }
}

/// A lower bound of the distance from `p` to every cell of `grid` at Chebyshev distance k ≥ 1
/// from (cx, cy); infinity when no such cell lies in the grid. Never decreases with k.
[[nodiscard]] inline double ring_bound(const UniformGrid& grid, Vec2 p, int cx, int cy, int k) {
  const double s = grid.side;
  const Vec2 o = grid.origin;
  double bound = std::numeric_limits<double>::infinity();
  if (cx + k < grid.columns) bound = std::min(bound, std::max(0.0, o.x + (cx + k) * s - p.x));
  if (cx - k >= 0) bound = std::min(bound, std::max(0.0, p.x - (o.x + (cx - k + 1) * s)));
  if (cy + k < grid.rows) bound = std::min(bound, std::max(0.0, o.y + (cy + k) * s - p.y));
  if (cy - k >= 0) bound = std::min(bound, std::max(0.0, p.y - (o.y + (cy - k + 1) * s)));
  return bound;
}

/// Calls `visit(x, y, exit)` for the cells of `grid` along o + t·d, t from 0 to t_max
/// (infinity: a ray), in order (CellWalk), with the parameter at which the walk leaves each
/// cell, from the cell where the piece enters the grid until it leaves the grid or passes
/// t_max; `visit` returns true to stop. Returns true when `visit` stopped it.
template <class Visit>
bool walk_grid(const UniformGrid& grid, Vec2 o, Vec2 d, double t_max, Visit&& visit) {
  if (grid.empty()) return false;
  double t0 = 0, t1 = t_max;
  if (!clip_to_box(o, d, grid.origin, grid.max(), t0, t1)) return false;
  const Vec2 start = o + d * t0;
  CellWalk walk(grid.origin, grid.side, o, d, grid.column_of(start.x), grid.row_of(start.y));
  for (;;) {
    if (visit(walk.x(), walk.y(), walk.exit())) return true;
    if (walk.exit() > t1) return false;
    walk.step();
    if (walk.x() < 0 || walk.y() < 0 || walk.x() >= grid.columns || walk.y() >= grid.rows) return false;
  }
}

/// Items listed per cell, all lists in one array: cell c holds items()[begin[c], begin[c + 1]).
struct CellLists {
  std::vector<std::uint32_t> begin;  ///< cells + 1 entries
  std::vector<std::uint32_t> items;

  /// Lists items 0..n-1 by counting sort: `cells_of(i, add)` calls add(cell) once for each
  /// cell item i lies in (called twice per item: once to count, once to place). Within a cell
  /// the items keep their order. O(cells + n + listings).
  template <class CellsOf>
  void build(std::size_t cells, std::size_t n, CellsOf&& cells_of) {
    begin.assign(cells + 1, 0);
    for (std::size_t i = 0; i < n; ++i) cells_of(i, [&](std::size_t c) { ++begin[c + 1]; });
    for (std::size_t c = 0; c < cells; ++c) begin[c + 1] += begin[c];
    items.resize(begin[cells]);
    // begin[c] serves as cell c's fill cursor and ends at begin[c + 1]: shifted back after.
    for (std::size_t i = 0; i < n; ++i) {
      cells_of(i, [&](std::size_t c) { items[begin[c]++] = static_cast<std::uint32_t>(i); });
    }
    for (std::size_t c = cells; c > 0; --c) begin[c] = begin[c - 1];
    begin[0] = 0;
  }

  [[nodiscard]] std::span<const std::uint32_t> in(std::size_t cell) const {
    return {items.data() + begin[cell], items.data() + begin[cell + 1]};
  }
  [[nodiscard]] std::size_t memory_bytes() const { return (begin.capacity() + items.capacity()) * sizeof(std::uint32_t); }
};

}  // namespace waymark
