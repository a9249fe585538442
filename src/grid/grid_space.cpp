#include "waymark/grid/grid_space.hpp"

namespace waymark::grid {

GridSpace::GridSpace(const GridMap& map, DiagonalRule rule)
    : GridCells(map), rule_(rule), synced_version_(map.version()), masks_(map.cell_count(), 0) {
  const auto w = static_cast<std::uint32_t>(map.width());
  for (unsigned i = 0; i < grid_moves.size(); ++i) {
    const GridMove m = grid_moves[i];
    offsets_[i] = static_cast<std::uint32_t>(m.dy) * w + static_cast<std::uint32_t>(m.dx);
    const bool diagonal = i >= first_diagonal_move;
    step_costs_[i] = map.cell_size() * (diagonal ? diagonal_step : cardinal_step);
  }
  compute_masks(map.bounds());
}

void GridSpace::compute_masks(CellRect area) {
  const GridMap& map = *map_;
  const bool eight = is_eight_connected(rule_);
  for (int y = area.y0; y < area.y1; ++y) {
    for (int x = area.x0; x < area.x1; ++x) {
      unsigned mask = 0;
      if (map.passable(x, y)) {
        for (unsigned i = 0; i < grid_moves.size(); ++i) {
          const GridMove m = grid_moves[i];
          if (!map.passable(x + m.dx, y + m.dy)) continue;
          if (i >= first_diagonal_move && !(eight && diagonal_allowed(x, y, m.dx, m.dy))) continue;
          mask |= 1u << i;
        }
      }
      masks_[map.cell(x, y).value] = static_cast<std::uint8_t>(mask);
    }
  }
}

std::size_t GridSpace::sync() {
  // A cell's mask reads its 8 neighbours, so the cells around an edit change too.
  constexpr int neighbourhood = 1;
  const std::size_t n = replay_passability_changes(*map_, synced_version_, neighbourhood,
                                                   [&](CellRect area) { compute_masks(area); });
  synced_version_ = map_->version();
  return n;
}

}  // namespace waymark::grid
