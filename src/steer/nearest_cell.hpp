#pragma once
// The nearest passable cell of a grid map, by a ring search: shared by the grid path service
// (a start or goal its size class does not fit) and the simulation (an agent whose cell
// closed). Internal to the steer module (src/steer).

#include <limits>
#include <optional>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::steer::detail {

/// The passable cell of `map` whose centre lies nearest `p` (ties: the first in for_ring's
/// order), among cell `at` and the `rings` rings of cells around it; nullopt when there is
/// none. `p` lies in or near `at`: rings stop once ring k, whose centres lie at least
/// (k − ½) cells from `p`, can hold no nearer one. `also(cell)` is a further test a cell must
/// pass (the simulation's push-out: a centre clear of every collider).
template <class Also = bool (*)(grid::CellCoord)>
[[nodiscard]] std::optional<grid::CellCoord> nearest_passable_cell(
    const grid::GridMap& map, grid::CellCoord at, Vec2 p, int rings,
    Also also = [](grid::CellCoord) { return true; }) {
  std::optional<grid::CellCoord> best;
  double best_d = std::numeric_limits<double>::infinity();
  const auto consider = [&](int x, int y) {
    if (!map.passable(x, y) || !also(grid::CellCoord{x, y})) return;
    const double d = distance(map.cell_center(grid::CellCoord{x, y}), p);
    if (d < best_d) {
      best_d = d;
      best = grid::CellCoord{x, y};
    }
  };
  consider(at.x, at.y);
  const double s = map.cell_size();
  for (int k = 1; k <= rings && (k - 0.5) * s < best_d; ++k) for_ring(at.x, at.y, k, map.width(), map.height(), consider);
  return best;
}

}  // namespace waymark::steer::detail
