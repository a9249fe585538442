#pragma once
/// @file ObstacleLines: the static colliders of an ObstacleWorld as the oriented line segments
/// ORCA's obstacle half-planes are made from (OrcaSolver::solve with lines; docs/steering.md,
/// "Walls in ORCA"). Each solid's outline becomes edges with the solid on their left and free
/// space on their right: boxes, oriented boxes and polygons their sides (anticlockwise),
/// circles a circumscribed regular polygon (the circle lies inside it), a Segment2 two edges
/// (one per side), and an attached GridMap the outline between its blocked cells (the outside
/// counting as blocked) and its free ones, collinear runs merged. A uniform-grid broad phase
/// finds the edges near an agent. Queries are const and keep no scratch (any number of threads).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer {

struct ObstacleLinesParams {
  /// Side of a broad-phase cell, world units: about an agent's obstacle range (radius +
  /// max_speed × OrcaParams::time_horizon_obstacles). [Limit: > 0, finite] Widened (doubling)
  /// when the edges' bounds would need more than max(2^16, 16 × edges) cells.
  double cell = 4.0;
  /// Only colliders on these layers (and the map, when its layer is in it) become edges.
  LayerMask mask = all_layers;
  /// Sides of the polygon that stands for a circle. [Limit: 3–64]
  int circle_sides = 8;
};

/// One edge: the solid is on its left (cross(direction, p − a) > 0), free space on its right.
struct ObstacleEdge {
  Vec2 a;
  Vec2 b;
  Vec2 direction;         ///< unit, a to b
  Vec2 before;            ///< unit direction of the outline's edge that ends at a
  Vec2 after;             ///< unit direction of the outline's edge that starts at b
  bool convex_a = true;   ///< the outline turns left (or not at all) at a: a corner agents can round
  bool convex_b = true;
  std::uint8_t layer = 0;
};

class ObstacleLines {
 public:
  /// Throws BuildError when `params` break their limits.
  explicit ObstacleLines(ObstacleLinesParams params = {});
  /// Made from `world` at once.
  explicit ObstacleLines(const ObstacleWorld& world, ObstacleLinesParams params = {});

  /// The edges of `world`'s colliders (removed ones left out) and map, as they are now
  /// (edits after this call are not seen until the next: compare ObstacleWorld::version() and
  /// the map's version() to know when to call it again). Never throws; allocates only when the world needs more edges,
  /// cells or map corners than any earlier rebuild. O(colliders' corners + map cells + cells).
  void rebuild(const ObstacleWorld& world);

  /// Calls f(index, distance_squared) once for each edge on a layer in `mask` within `range`
  /// of `p` (closed) that has `p` on its free side or on its line, in an order fixed by the
  /// edges and the query. A non-finite `p` or `range` finds nothing.
  template <class F>
  void for_each_near(Vec2 p, double range, LayerMask mask, F&& f) const;
  /// What for_each_near(p, range, …) looks at: the entries listed in the cells it reads plus
  /// the edges every query tests (large_edges()). Its cost: an edge is listed in the cells it
  /// passes through, so this counts the edges near p, not all the edges (issue 41).
  [[nodiscard]] std::size_t scanned_near(Vec2 p, double range) const;
  /// Edges passing more than max_cells_per_edge cells (at least 256 cells long): every query
  /// tests them.
  [[nodiscard]] std::size_t large_edges() const { return large_.size(); }

  [[nodiscard]] std::size_t size() const { return edges_.size(); }
  [[nodiscard]] const ObstacleEdge& edge(std::size_t i) const { return edges_[i]; }
  [[nodiscard]] std::span<const ObstacleEdge> edges() const { return edges_; }
  [[nodiscard]] const ObstacleLinesParams& params() const { return params_; }

 private:
  /// corners_ as a closed outline, anticlockwise.
  void add_loop(int layer);
  void add_two_sided(Vec2 a, Vec2 b, int layer);
  void add_shape(const Shape& shape, int layer);
  void add_grid(const grid::GridMap& map, int layer);
  void index_edges();
  template <class F>
  void visit_edge(std::uint32_t i, Vec2 p, double range2, LayerMask mask, F& f) const;
  /// An edge listed in the cells it passes (`passing`), met in cell (x, y) of query cells `in`:
  /// reported from the cell of its nearest point only.
  template <class F>
  void visit_passing_edge(std::uint32_t i, int x, int y, Vec2 p, double range2, LayerMask mask,
                                            const UniformGrid::Range& in, F& f) const;

  ObstacleLinesParams params_;
  std::vector<ObstacleEdge> edges_;
  std::vector<Vec2> corners_;   ///< scratch: one loop's corners
  std::vector<std::uint8_t> blocked_;  ///< scratch: the map's cells with a border of blocked ones
  UniformGrid cells_{{}, 1, 0, 0};
  CellLists lists_;          ///< the edges listed in the cells of their box
  CellLists passing_lists_;  ///< the edges listed in the cells they pass (`passing`); none on a grid's walls
  /// ranges_ of an edge listed in the cells it passes, not its box's.
  static constexpr UniformGrid::Range passing{0, -1, 0, 0};
  std::vector<UniformGrid::Range> ranges_;  ///< per edge: its box's cells, `passing`, or none (kept in large_)
  std::vector<std::uint32_t> large_;        ///< edges passing too many cells, tested by every query
  double allow_ = 0;                        ///< an edge passing cells is listed in those within this of it
};

template <class F>
void ObstacleLines::visit_edge(std::uint32_t i, Vec2 p, double range2, LayerMask mask, F& f) const {
  const ObstacleEdge& e = edges_[i];
  if (!(mask & layer_bit(e.layer))) return;
  if (cross(e.direction, p - e.a) > 0) return;  // behind the edge: inside the solid's side
  const Segment2 s{e.a, e.b};
  const double d2 = length_squared(p - s.closest_point(p));
  if (d2 <= range2) f(static_cast<std::size_t>(i), d2);
}

template <class F>
void ObstacleLines::for_each_near(Vec2 p, double range, LayerMask mask, F&& f) const {
  if (!(range >= 0) || !std::isfinite(range) || !std::isfinite(p.x) || !std::isfinite(p.y)) return;
  const double range2 = range * range;
  for (const std::uint32_t i : large_) visit_edge(i, p, range2, mask, f);
  if (cells_.empty()) return;
  const UniformGrid::Range q = cells_.cells_of(p - Vec2{range, range}, p + Vec2{range, range});
  for (int y = q.y0; y <= q.y1; ++y) {
    for (int x = q.x0; x <= q.x1; ++x) {
      for (const std::uint32_t i : lists_.in(cells_.index(x, y))) {
        // An edge listed in several cells of the query is visited in the first of them only.
        const UniformGrid::Range& r = ranges_[i];
        if (x != std::max(r.x0, q.x0) || y != std::max(r.y0, q.y0)) continue;
        visit_edge(i, p, range2, mask, f);
      }
    }
  }
  if (passing_lists_.items.empty()) return;
  for (int y = q.y0; y <= q.y1; ++y) {
    for (int x = q.x0; x <= q.x1; ++x) {
      for (const std::uint32_t i : passing_lists_.in(cells_.index(x, y))) visit_passing_edge(i, x, y, p, range2, mask, q, f);
    }
  }
}

template <class F>
void ObstacleLines::visit_passing_edge(std::uint32_t i, int x, int y, Vec2 p, double range2, LayerMask mask,
                                       const UniformGrid::Range& in, F& f) const {
  const ObstacleEdge& e = edges_[i];
  if (!(mask & layer_bit(e.layer))) return;
  if (cross(e.direction, p - e.a) > 0) return;  // behind the edge: inside the solid's side
  const Segment2 s{e.a, e.b};
  const Vec2 q = s.closest_point(p);
  const double d2 = length_squared(p - q);
  if (!(d2 <= range2)) return;
  // Listed in the cells it passes: reported in the one holding its nearest point to p
  // (clamped into the query's cells), where it is listed too.
  if (x != std::clamp(cells_.column_of(q.x), in.x0, in.x1) || y != std::clamp(cells_.row_of(q.y), in.y0, in.y1)) return;
  f(static_cast<std::size_t>(i), d2);
}

}  // namespace waymark::steer
