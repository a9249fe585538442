#pragma once
/// @file AnyAngleSpace: a GridSpace that also offers straight segments between any two cells,
/// so that the one best-first engine runs Theta* on it (search::ShortcutSearchSpace).

#include "waymark/core/cost.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/line_of_sight.hpp"

namespace waymark::grid {

/// The moves of a GridSpace, plus shortcut_cost(from, to) = segment_cost() under the space's
/// diagonal rule. A* over it with the Euclidean heuristic is Theta*: each successor is also
/// tried straight from the expanded cell's parent, so paths bend only where they must (not
/// only at multiples of 45°). Not cost-optimal in either sense: its paths cost at most the
/// grid-optimal path (with reopening, which the planner turns on) but can be longer than the
/// true shortest any-angle path, since they bend only at cell centres.
///
/// Holds a pointer to the GridSpace (and through it the map), which must outlive it; stale
/// exactly when that space is.
class AnyAngleSpace : public GridCells {
 public:
  explicit AnyAngleSpace(const GridSpace& grid) : GridCells(grid.map()), grid_(&grid) {}
  explicit AnyAngleSpace(const GridSpace&&) = delete;  // would dangle

  [[nodiscard]] DiagonalRule rule() const { return grid_->rule(); }
  /// The grid space whose moves and rule the segments follow.
  [[nodiscard]] const GridSpace& grid() const { return *grid_; }
  [[nodiscard]] bool stale() const { return grid_->stale(); }

  template <class F>
  [[gnu::always_inline]] void for_each_successor(CellId c, F&& f) const {
    grid_->for_each_successor(c, f);
  }
  /// O(cells the segment crosses). Infinite when the segment is not allowed.
  [[nodiscard]] Cost shortcut_cost(CellId from, CellId to) const {
    return segment_cost(*map_, grid_->rule(), from, to);
  }

 private:
  const GridSpace* grid_;
};

}  // namespace waymark::grid
