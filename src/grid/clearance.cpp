#include "waymark/grid/clearance.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::grid {

namespace {
constexpr double max_reach_cells = 4096;

/// The smallest k with (k − ½)·cell ≥ max_clearance: no cell k or more cells away along an
/// axis is nearer than the cap.
int reach_for(const GridMap& map, double max_clearance) {
  if (!(max_clearance > 0) || !std::isfinite(max_clearance) || max_clearance / map.cell_size() > max_reach_cells)
    throw BuildError("ClearanceParams::max_clearance must be finite, > 0 and at most 4096 cells (" +
                     number_text(max_clearance) + " with cell size " + number_text(map.cell_size()) + ")");
  return static_cast<int>(std::ceil(max_clearance / map.cell_size() + 0.5));
}

std::size_t cells_in(CellRect r) {
  return r.empty() ? 0 : static_cast<std::size_t>(r.x1 - r.x0) * static_cast<std::size_t>(r.y1 - r.y0);
}

/// The smallest rect holding `a` and `b` (either may be empty).
CellRect bounding(CellRect a, CellRect b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}
}  // namespace

ClearanceMap::ClearanceMap(const GridMap& map, ClearanceParams params)
    : map_(&map),
      max_clearance_(0),
      half_cell_(0.5 * map.cell_size()),
      reach_(0),
      synced_version_(map.version()),
      row_(map.cell_count(), 0),
      squared_(map.cell_count(), 0),
      scratch_(static_cast<std::size_t>(map.width()), 0) {
  rebuild(params.max_clearance);
}

void ClearanceMap::rebuild(double max_clearance) {
  reach_ = reach_for(*map_, max_clearance);  // throws before anything changes
  max_clearance_ = max_clearance;
  f_.assign(static_cast<std::size_t>(reach_) + 1, 0);
  for (std::size_t k = 1; k < f_.size(); ++k) f_[k] = static_cast<std::uint32_t>((2 * k - 1) * (2 * k - 1));
  ClearanceSync ignored;
  recompute(map_->bounds(), ignored);
  synced_version_ = map_->version();
}

void ClearanceMap::raise_max_clearance(double max_clearance) {
  if (max_clearance <= max_clearance_) return;  // NaN goes on, for reach_for to refuse
  rebuild(max_clearance);
}

double ClearanceMap::clearance(CellId c) const {
  return std::min(max_clearance_, half_cell_ * std::sqrt(static_cast<double>(squared_[c.value])));
}

void ClearanceMap::compute_rows(int y0, int y1, int xa, int xb) {
  const int width = map_->width();
  const int far = reach_;  // distances are capped here
  // The sweeps start `far` cells before the window: a blocked cell further away cannot matter.
  const int s = std::max(0, xa - far);
  const int e = std::min(width, xb + far) - 1;
  for (int y = y0; y < y1; ++y) {
    const std::size_t base = static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    const auto blocked = [&](int x) { return !map_->passable(CellId{static_cast<std::uint32_t>(base) + static_cast<std::uint32_t>(x)}); };
    // Left to right: the distance to the nearest blocked cell at or left of x (the outside
    // is column −1), parked in row_.
    int last = s == 0 ? -1 : s - far;
    for (int x = s; x < xb; ++x) {
      if (blocked(x)) last = x;
      if (x >= xa) row_[base + static_cast<std::size_t>(x)] = static_cast<std::uint32_t>(std::min(x - last, far));
    }
    // Right to left: the same on the right (the outside is column `width`); keep the nearer.
    int next = e == width - 1 ? width : e + far;
    for (int x = e; x >= xa; --x) {
      if (blocked(x)) next = x;
      if (x >= xb) continue;
      std::uint32_t& r = row_[base + static_cast<std::size_t>(x)];
      r = f_[static_cast<std::size_t>(std::min(static_cast<int>(r), next - x))];
    }
  }
}

void ClearanceMap::compute_cells(CellRect area, ClearanceSync& out) {
  const int width = map_->width(), height = map_->height();
  const auto at = [&](int x, int y) { return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x); };
  for (int y = area.y0; y < area.y1; ++y) {
    // The nearest blocked cell is in row y ± dy: keep the least f(dy) + row pass over dy, up
    // to the reach or until no cell of the row can get nearer.
    std::uint32_t worst = 0;
    for (int x = area.x0; x < area.x1; ++x) {
      scratch_[static_cast<std::size_t>(x)] = row_[at(x, y)];
      worst = std::max(worst, row_[at(x, y)]);
    }
    for (int dy = 1; dy < reach_ && f_[static_cast<std::size_t>(dy)] < worst; ++dy) {
      const std::uint32_t across = f_[static_cast<std::size_t>(dy)];
      for (const int y2 : {y - dy, y + dy}) {
        if (y2 < 0 || y2 >= height) {  // the outside: the whole row is a wall
          for (int x = area.x0; x < area.x1; ++x) scratch_[static_cast<std::size_t>(x)] = std::min(scratch_[static_cast<std::size_t>(x)], across);
          continue;
        }
        for (int x = area.x0; x < area.x1; ++x) {
          std::uint32_t& s = scratch_[static_cast<std::size_t>(x)];
          s = std::min(s, across + row_[at(x, y2)]);
        }
      }
      worst = 0;
      for (int x = area.x0; x < area.x1; ++x) worst = std::max(worst, scratch_[static_cast<std::size_t>(x)]);
    }
    int first = area.x1, last = area.x0 - 1;
    for (int x = area.x0; x < area.x1; ++x) {
      std::uint32_t& d = squared_[at(x, y)];
      if (d == scratch_[static_cast<std::size_t>(x)]) continue;
      d = scratch_[static_cast<std::size_t>(x)];
      ++out.changed_cells;
      first = std::min(first, x);
      last = x;
    }
    if (last >= first) out.changed = bounding(out.changed, CellRect{first, y, last + 1, y + 1});
  }
  out.recomputed_cells += cells_in(area);
}

void ClearanceMap::recompute(CellRect area, ClearanceSync& out) {
  // A cell's row pass reads its row within reach_ − 1 cells; its clearance, the row passes of
  // the rows within reach_ − 1.
  const int w = map_->width(), h = map_->height();
  const CellRect rows = CellRect{area.x0 - (reach_ - 1), area.y0, area.x1 + (reach_ - 1), area.y1}.clipped(w, h);
  compute_rows(rows.y0, rows.y1, rows.x0, rows.x1);
  compute_cells(area.grown(reach_ - 1).clipped(w, h), out);
}

ClearanceSync ClearanceMap::sync() {
  ClearanceSync out;
  if (!stale()) return out;
  const auto changes = map_->changes_since(synced_version_);
  if (!changes) {
    out.rebuilt = true;
    recompute(map_->bounds(), out);
  } else {
    for (const GridChange& c : *changes) {
      if (c.passability) recompute(c.area.clipped(map_->width(), map_->height()), out);
    }
  }
  synced_version_ = map_->version();
  return out;
}

// ---- SizeClassMap -------------------------------------------------------------------------

namespace {
double checked_radius(const ClearanceMap& clearance, double radius) {
  if (!std::isfinite(radius) || radius < 0 || radius > clearance.max_clearance())
    throw BuildError("SizeClassMap: the radius must be finite and in [0, max_clearance = " +
                     number_text(clearance.max_clearance()) + "], not " + number_text(radius));
  return radius;
}

/// The base map's cells where a disc of `radius` fits, with the base's multipliers.
std::unique_ptr<GridMap> fitted_map(const ClearanceMap& clearance, double radius) {
  const GridMap& base = clearance.map();
  std::vector<std::uint8_t> passable(base.cell_count());
  std::vector<double> terrain;
  if (base.has_costs()) terrain.resize(base.cell_count());
  for (std::size_t i = 0; i < passable.size(); ++i) {
    const CellId c{static_cast<std::uint32_t>(i)};
    passable[i] = clearance.fits(c, radius) ? 1 : 0;
    if (!terrain.empty()) terrain[i] = base.cost_multiplier(c);
  }
  return std::make_unique<GridMap>(base.width(), base.height(), std::move(passable), std::move(terrain), base.params());
}
}  // namespace

SizeClassMap::SizeClassMap(ClearanceMap& clearance, double radius)
    : clearance_(&clearance), radius_(checked_radius(clearance, radius)), synced_version_(0) {
  clearance_->sync();
  synced_version_ = clearance_->map().version();
  map_ = fitted_map(clearance, radius_);
  map_->follow(clearance_->map());  // planners on map() are stale while the base is ahead
}

std::size_t SizeClassMap::refit(CellRect area) {
  const CellRect a = area.clipped(map_->width(), map_->height());
  std::size_t changed = 0;
  for (int y = a.y0; y < a.y1; ++y) {
    // Runs of cells that must change the same way: one edit each.
    int x = a.x0;
    while (x < a.x1) {
      const CellId c = map_->cell(x, y);
      const bool fits = clearance_->fits(c, radius_);
      if (fits == map_->passable(c)) {
        ++x;
        continue;
      }
      int end = x + 1;
      while (end < a.x1) {
        const CellId n = map_->cell(end, y);
        if (clearance_->fits(n, radius_) != fits || map_->passable(n) == fits) break;
        ++end;
      }
      map_->set_passable(CellRect{x, y, end, y + 1}, fits);
      changed += static_cast<std::size_t>(end - x);
      x = end;
    }
  }
  return changed;
}

std::size_t SizeClassMap::copy_costs(CellRect area) {
  const GridMap& b = base();
  const CellRect a = area.clipped(map_->width(), map_->height());
  std::size_t changed = 0;
  for (int y = a.y0; y < a.y1; ++y) {
    for (int x = a.x0; x < a.x1; ++x) {
      const CellId c = map_->cell(x, y);
      const double m = b.cost_multiplier(c);
      if (m == map_->cost_multiplier(c)) continue;
      map_->set_cost_multiplier(x, y, m);
      ++changed;
    }
  }
  return changed;
}

SizeClassSync SizeClassMap::sync() {
  SizeClassSync out;
  clearance_->sync();
  if (!stale()) return out;
  const GridMap& b = base();
  const auto changes = b.changes_since(synced_version_);
  if (!changes) {
    out.rebuilt = true;
    out.fit_changes = refit(b.bounds());
    out.cost_changes = copy_costs(b.bounds());
  } else {
    // A passability edit changes the fit only of cells nearer than the radius to it: k cells
    // away (Chebyshev) is at least (k − ½) cells away, so k < radius / cell + ½. One ring more
    // against rounding; never more than the clearance's own reach.
    const int reach = std::min(clearance_->reach() - 1, static_cast<int>(std::ceil(radius_ / b.cell_size() + 0.5)));
    for (const GridChange& c : *changes) {
      if (c.passability) {
        out.fit_changes += refit(c.area.grown(reach));
      } else {
        out.cost_changes += copy_costs(c.area);
      }
    }
  }
  synced_version_ = b.version();
  map_->follow(b);
  return out;
}

}  // namespace waymark::grid
