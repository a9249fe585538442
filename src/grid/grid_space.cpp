#include "waymark/grid/grid_space.hpp"

namespace waymark::grid {

GridSpace::GridSpace(const GridMap& map, DiagonalRule rule)
    : GridCells(map), rule_(rule), masks_(map.cell_count(), 0) {
  const auto w = static_cast<std::uint32_t>(map.width());
  for (unsigned i = 0; i < grid_moves.size(); ++i) {
    const GridMove m = grid_moves[i];
    offsets_[i] = static_cast<std::uint32_t>(m.dy) * w + static_cast<std::uint32_t>(m.dx);
    const bool diagonal = i >= first_diagonal_move;
    step_costs_[i] = map.cell_size() * (diagonal ? diagonal_step : cardinal_step);
  }
  const bool eight = is_eight_connected(rule);
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable(x, y)) continue;
      unsigned mask = 0;
      for (unsigned i = 0; i < grid_moves.size(); ++i) {
        const GridMove m = grid_moves[i];
        if (!map.passable(x + m.dx, y + m.dy)) continue;
        if (i >= first_diagonal_move && !(eight && diagonal_allowed(x, y, m.dx, m.dy))) continue;
        mask |= 1u << i;
      }
      masks_[map.cell(x, y).value] = static_cast<std::uint8_t>(mask);
    }
  }
}

}  // namespace waymark::grid
