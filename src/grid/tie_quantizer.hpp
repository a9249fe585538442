#pragma once
// Private to the grid module: A*'s key rounding on grids, shared by the planner's dense and
// sparse searches.

#include "waymark/grid/grid_map.hpp"
#include "waymark/search/priorities.hpp"

namespace waymark::grid::detail {

/// Exact f ties on uniform-cost maps (see KeyQuantizer); exact keys with terrain, where
/// rounding could merge distinct costs.
inline search::KeyQuantizer tie_quantizer(const GridMap& map) {
  constexpr double steps_per_quantum = 0x1p-20;
  return map.has_costs() ? search::KeyQuantizer{} : search::KeyQuantizer{map.cell_size() * steps_per_quantum};
}

}  // namespace waymark::grid::detail
