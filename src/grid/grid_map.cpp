#include "waymark/grid/grid_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "waymark/grid/moves.hpp"

namespace waymark::grid {

namespace {
/// width × height, checked before anything of that size is allocated.
std::size_t checked_cell_count(int width, int height) {
  WAYMARK_ASSERT(width >= 1 && height >= 1);
  WAYMARK_ASSERT(static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) <
                 std::numeric_limits<std::uint32_t>::max());
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
}
}  // namespace

GridMap::GridMap(int width, int height, GridMapParams params)
    : GridMap(width, height, std::vector<std::uint8_t>(checked_cell_count(width, height), 1), {}, params) {}

GridMap::GridMap(int width, int height, std::vector<std::uint8_t> passable, std::vector<double> terrain,
                 GridMapParams params)
    : width_(width),
      height_(height),
      row_of_(static_cast<std::uint32_t>(width)),
      params_(params),
      diagonal_length_(diagonal_step * params.cell_size),
      heuristic_scale_(params.cell_size) {
  const std::size_t cells = checked_cell_count(width, height);
  WAYMARK_ASSERT(params.cell_size > 0 && params.min_cost_multiplier > 0);
  WAYMARK_ASSERT(passable.size() == cells && (terrain.empty() || terrain.size() == cells));
  passable_ = std::move(passable);
  for (std::uint8_t& p : passable_) p = p != 0 ? 1 : 0;
  if (terrain.empty()) return;
  multipliers_ = terrain;
  terrain_ = std::move(terrain);
  for (const double m : terrain_) {
    WAYMARK_ASSERT(m > 0 && std::isfinite(m));
    costly_cells_ += m != 1.0 ? 1 : 0;
    min_multiplier_ = std::min(min_multiplier_, m);
  }
  heuristic_scale_ = params_.cell_size * min_multiplier_;
}

void GridMap::log(CellRect area, bool passability) { log_.record(GridChange{0, area, passability}); }

bool GridMap::set_passable(int x, int y, bool passable) {
  if (!in_bounds(x, y)) return false;
  std::uint8_t& p = passable_[cell(x, y).value];
  if ((p != 0) == passable) return true;
  p = passable ? 1 : 0;
  log(CellRect::cell(x, y), true);
  return true;
}

void GridMap::set_passable(CellRect area, bool passable) {
  const CellRect a = area.clipped(width_, height_);
  bool changed = false;
  for (int y = a.y0; y < a.y1; ++y) {
    for (int x = a.x0; x < a.x1; ++x) {
      std::uint8_t& p = passable_[cell(x, y).value];
      changed = changed || (p != 0) != passable;
      p = passable ? 1 : 0;
    }
  }
  if (changed) log(a, true);
}

void GridMap::ensure_multipliers() {
  if (!multipliers_.empty()) return;
  multipliers_.assign(passable_.size(), 1.0);
  terrain_.assign(passable_.size(), 1.0);
}

bool GridMap::covers(const CostZone& zone, int x, int y) const {
  const Vec2 c = cell_center({x, y});
  return zone.shape == CostZone::Shape::circle
             ? std::hypot(c.x - zone.center.x, c.y - zone.center.y) <= zone.radius
             : c.x >= zone.min.x && c.x <= zone.max.x && c.y >= zone.min.y && c.y <= zone.max.y;
}

CellRect GridMap::zone_cells(const CostZone& zone) const {
  const Vec2 lo = zone.shape == CostZone::Shape::circle ? zone.center - Vec2{zone.radius, zone.radius} : zone.min;
  const Vec2 hi = zone.shape == CostZone::Shape::circle ? zone.center + Vec2{zone.radius, zone.radius} : zone.max;
  const auto index = [&](double world, double origin) {
    const double f = std::floor((world - origin) / params_.cell_size);
    constexpr double far = 1e9;  // beyond any grid: keeps the int conversion defined
    return static_cast<int>(std::clamp(f, -far, far));
  };
  const CellRect r{index(lo.x, params_.origin.x), index(lo.y, params_.origin.y), index(hi.x, params_.origin.x) + 1,
                   index(hi.y, params_.origin.y) + 1};
  return r.clipped(width_, height_);
}

void GridMap::refresh_multiplier(int x, int y) {
  const std::size_t i = cell(x, y).value;
  double m = terrain_[i];
  bool zoned = false;
  // In id order, so removing a zone gives exactly the value it would have had without it.
  for (std::size_t z = 0; z < zones_.size(); ++z) {
    if (!zone_active_[z] || !covers(zones_[z], x, y)) continue;
    m += zones_[z].delta;
    zoned = true;
  }
  if (zoned) m = std::max(m, params_.min_cost_multiplier);
  const bool was_costly = multipliers_[i] != 1.0, is_costly = m != 1.0;
  costly_cells_ = costly_cells_ - (was_costly ? 1 : 0) + (is_costly ? 1 : 0);
  multipliers_[i] = m;
  if (m < min_multiplier_) {
    min_multiplier_ = m;
    heuristic_scale_ = params_.cell_size * min_multiplier_;
  }
}

bool GridMap::set_cost_multiplier(int x, int y, double multiplier) {
  if (!in_bounds(x, y) || !(multiplier > 0) || !std::isfinite(multiplier)) return false;
  ensure_multipliers();
  const std::size_t i = cell(x, y).value;
  if (terrain_[i] == multiplier) return true;
  terrain_[i] = multiplier;
  refresh_multiplier(x, y);
  log(CellRect::cell(x, y), false);
  return true;
}

ZoneId GridMap::add_zone(const CostZone& zone) {
  WAYMARK_ASSERT(std::isfinite(zone.delta) && zone.radius >= 0);
  ensure_multipliers();
  const ZoneId id{static_cast<std::uint32_t>(zones_.size())};
  zones_.push_back(zone);
  zone_active_.push_back(true);
  refresh_zone_cells(zone);
  return id;
}

bool GridMap::remove_zone(ZoneId id) {
  if (!id.valid() || id.value >= zones_.size() || !zone_active_[id.value]) return false;
  zone_active_[id.value] = false;
  refresh_zone_cells(zones_[id.value]);
  return true;
}

void GridMap::refresh_zone_cells(const CostZone& zone) {
  const CellRect area = zone_cells(zone);
  for (int y = area.y0; y < area.y1; ++y) {
    for (int x = area.x0; x < area.x1; ++x) {
      if (covers(zone, x, y)) refresh_multiplier(x, y);
    }
  }
  log(area, false);
}

const CostZone* GridMap::zone(ZoneId id) const {
  if (!id.valid() || id.value >= zones_.size() || !zone_active_[id.value]) return nullptr;
  return &zones_[id.value];
}

Vec2 GridMap::cell_center(CellCoord c) const {
  return {params_.origin.x + (c.x + 0.5) * params_.cell_size, params_.origin.y + (c.y + 0.5) * params_.cell_size};
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
