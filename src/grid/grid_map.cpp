#include "waymark/grid/grid_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "waymark/grid/moves.hpp"

namespace waymark::grid {

GridMap::GridMap(int width, int height, GridMapParams params)
    : width_(width), height_(height), row_of_(static_cast<std::uint32_t>(width)), params_(params), diagonal_length_(diagonal_step * params.cell_size) {
  WAYMARK_ASSERT(width >= 1 && height >= 1);
  WAYMARK_ASSERT(static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) <
                 std::numeric_limits<std::uint32_t>::max());
  WAYMARK_ASSERT(params.cell_size > 0 && params.min_cost_multiplier > 0);
  passable_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 1);
}

void GridMap::set_passable(int x, int y, bool passable) { passable_[cell(x, y).value] = passable ? 1 : 0; }

void GridMap::ensure_multipliers() {
  if (multipliers_.empty()) multipliers_.assign(passable_.size(), 1.0);
}

void GridMap::set_cost_multiplier(int x, int y, double multiplier) {
  WAYMARK_ASSERT(multiplier > 0 && std::isfinite(multiplier));
  ensure_multipliers();
  multipliers_[cell(x, y).value] = multiplier;
  min_multiplier_ = std::min(min_multiplier_, multiplier);
}

void GridMap::add_zone(const CostZone& zone) {
  ensure_multipliers();
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Vec2 c = cell_center({x, y});
      const bool inside =
          zone.shape == CostZone::Shape::circle
              ? std::hypot(c.x - zone.center.x, c.y - zone.center.y) <= zone.radius
              : c.x >= zone.min.x && c.x <= zone.max.x && c.y >= zone.min.y && c.y <= zone.max.y;
      if (!inside) continue;
      double& m = multipliers_[cell(x, y).value];
      m = std::max(m + zone.delta, params_.min_cost_multiplier);
      min_multiplier_ = std::min(min_multiplier_, m);
    }
  }
}

Vec2 GridMap::cell_center(CellCoord c) const {
  return {params_.origin.x + (c.x + 0.5) * params_.cell_size,
          params_.origin.y + (c.y + 0.5) * params_.cell_size};
}

std::optional<CellCoord> GridMap::world_to_cell(Vec2 p) const {
  const double fx = std::floor((p.x - params_.origin.x) / params_.cell_size);
  const double fy = std::floor((p.y - params_.origin.y) / params_.cell_size);
  if (!(fx >= 0 && fy >= 0 && fx < width_ && fy < height_)) return std::nullopt;  // also NaN
  return CellCoord{static_cast<int>(fx), static_cast<int>(fy)};
}

std::size_t GridMap::passable_count() const {
  return static_cast<std::size_t>(std::count(passable_.begin(), passable_.end(), std::uint8_t{1}));
}

}  // namespace waymark::grid
