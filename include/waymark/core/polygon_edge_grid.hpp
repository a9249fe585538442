#pragma once
/// @file PolygonEdgeGrid: the edges of one polygon listed by the cells of a uniform grid, so
/// that a polygon with thousands of corners answers point-in-polygon, nearest-edge and
/// along-a-segment questions by the cells it needs instead of edge by edge. Shared by the
/// obstacle world (large polygon colliders) and the visibility graph (large concave parts).
/// Built once (immutable); queries are const, allocate nothing and may run on any number of
/// threads. Built on the broad-phase pieces (UniformGrid, CellLists, for_ring, ring_bound)
/// and the one cell walk (CellWalk).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/geometry.hpp"

namespace waymark {

/// Polygons with more corners than this get an edge grid where a world keeps one (the
/// obstacle world's polygons, the visibility graph's concave parts); smaller ones are tested
/// edge by edge, which is faster for them (docs/visibility.md, "Large polygons", measured).
inline constexpr std::size_t polygon_edge_grid_threshold = 32;

/// A polygon's edges by grid cell. Edge i runs from corner i − 1 to corner i (edge 0 is the
/// closing edge from the last corner), the order in which polygon_contains walks them. Every
/// edge is listed in every cell that comes within `margin` (plus a rounding allowance) of it,
/// so a cell lists every edge that passes within `margin` of any of its points.
///
/// Cells: about one per corner (side √(box area / corners), no narrower than the margin, at
/// most `corners` cells along the box's longer side). Memory: the corners, one cell head per
/// cell, one entry per cell an edge is listed in.
class PolygonEdgeGrid {
 public:
  /// The nearest edge to a point: its index, the nearest point on it and the squared distance.
  struct Nearest {
    std::uint32_t edge = 0;
    Vec2 point;
    double distance_squared = 0;
  };

  PolygonEdgeGrid() = default;
  /// Lists the edges of `polygon` (corners in either order, the closing edge implied; at least
  /// one corner, all finite). [Limit: fewer than 2^32 corners]
  explicit PolygonEdgeGrid(std::span<const Vec2> polygon, double margin = 0);

  [[nodiscard]] std::size_t corner_count() const { return corners_.size(); }
  [[nodiscard]] std::span<const Vec2> corners() const { return corners_; }
  /// Edge i: from corner i − 1 (the last corner for i = 0) to corner i.
  [[nodiscard]] Segment2 edge(std::uint32_t i) const {
    return {corners_[i == 0 ? corners_.size() - 1 : i - 1], corners_[i]};
  }
  [[nodiscard]] const UniformGrid& grid() const { return grid_; }
  /// The margin the edges were listed with (as given, without the rounding allowance).
  [[nodiscard]] double margin() const { return margin_; }

  /// Exactly polygon_contains(corners(), p), boundary points included (the same crossing test
  /// on the same numbers): the crossings along p's row of cells on the side with fewer cells,
  /// each edge counted in the one cell its crossing lies in. O(cells and edges in that half row).
  [[nodiscard]] bool contains(Vec2 p) const;
  /// Whether `p` is inside, scanning the shortest of the four half rows and half columns from
  /// p's cell. Equals contains(p) for every point farther from the boundary than the rounding
  /// of the crossing test (a few ulps of the coordinates); on or next to the boundary it may go
  /// either way.
  [[nodiscard]] bool contains_off_boundary(Vec2 p) const;
  /// The edge nearest to `p`, ties to the lowest index: exactly what testing every edge with
  /// Segment2::closest_point, keeping the first strictly nearer one, finds. Rings of cells
  /// around p's cell until ring_bound shows no farther cell can hold a nearer edge.
  [[nodiscard]] Nearest nearest_edge(Vec2 p) const;

  /// The edges listed in the cell holding `p` (clamped into the grid): every edge within
  /// margin() of p, and others. An edge may be listed in many cells.
  [[nodiscard]] std::span<const std::uint32_t> edges_near(Vec2 p) const {
    return cells_.in(grid_.index(grid_.column_of(p.x), grid_.row_of(p.y)));
  }

  /// Walks the cells along o + t·d for t from 0 to t_max (infinity: a ray) in order, calling
  /// `visit(edges, exit)` with each cell's edge list and the parameter at which the walk leaves
  /// that cell; `visit` returns true to stop. Every edge within margin() of the walked piece
  /// is in some visited list, and a point at parameter t lies in the cell visited with
  /// exit ≥ t (to rounding: callers stop a few ulps late). An edge may come in several lists.
  /// Returns true when `visit` stopped it.
  template <class Visit>
  bool walk(Vec2 o, Vec2 d, double t_max, Visit&& visit) const {
    if (!finite(o) || !finite(d)) return false;
    return walk_grid(grid_, o, d, t_max,
                     [&](int x, int y, double exit) { return visit(cells_.in(grid_.index(x, y)), exit); });
  }

  /// Memory held, bytes (about).
  [[nodiscard]] std::size_t memory_bytes() const {
    return corners_.capacity() * sizeof(Vec2) + cells_.memory_bytes();
  }

 private:
  /// Crossings of the half row (dx = ±1) or half column (dy = ±1) from p's cell to the grid's
  /// border; horizontal scans use polygon_contains's test, vertical ones its transpose.
  [[nodiscard]] bool scan(Vec2 p, int dx, int dy) const;

  std::vector<Vec2> corners_;
  UniformGrid grid_;
  CellLists cells_;
  double margin_ = 0;
};

}  // namespace waymark
