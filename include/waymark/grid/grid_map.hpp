#pragma once
/// @file GridMap: a rectangular world of square cells, each passable or blocked, with optional
/// per-cell cost multipliers (terrain) and cost zones.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/divider.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

/// Integer cell coordinates: x is the column, y the row, both 0-based.
struct CellCoord {
  int x = 0;
  int y = 0;
  friend constexpr bool operator==(CellCoord, CellCoord) = default;
};

/// An area whose cells get `delta` added to their cost multiplier: positive for danger,
/// negative for reward. A cell belongs to the zone when its centre lies inside.
struct CostZone {
  enum class Shape : std::uint8_t { circle, rect };
  Shape shape = Shape::circle;
  Vec2 center;      ///< circle centre, world units
  double radius = 0;  ///< circle radius, world units. [Limit: >= 0]
  Vec2 min;         ///< rectangle lower corner, world units
  Vec2 max;         ///< rectangle upper corner, world units
  double delta = 0;  ///< added to the multiplier of every covered cell

  static CostZone circle(Vec2 c, double r, double d) { return {Shape::circle, c, r, {}, {}, d}; }
  static CostZone rect(Vec2 lo, Vec2 hi, double d) { return {Shape::rect, {}, 0, lo, hi, d}; }
};

/// Placement of the grid in the world and the limits of its costs.
struct GridMapParams {
  double cell_size = 1.0;  ///< edge length of a cell, world units. [Limit: > 0]
  Vec2 origin;             ///< world position of the corner of cell (0,0)
  /// Zones never push a multiplier below this, so every move keeps a positive cost.
  /// [Limit: > 0]
  double min_cost_multiplier = 0.1;
};

/// Rectangular grid. Cell (x,y) covers world [origin.x + x·s, origin.x + (x+1)·s) ×
/// [origin.y + y·s, origin.y + (y+1)·s) for cell size s; row y grows with world y.
///
/// Move costs: a step's length in world units (cell_size for cardinal, √2·cell_size for
/// diagonal) times the mean of the two cells' multipliers, so costs are symmetric.
///
/// Immutable while searched: build it, then share it read-only between any number of searches.
class GridMap {
 public:
  /// All cells passable with multiplier 1. [Limit: width, height >= 1, width·height < 2^32]
  GridMap(int width, int height, GridMapParams params = {});

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] std::size_t cell_count() const { return passable_.size(); }
  [[nodiscard]] const GridMapParams& params() const { return params_; }
  [[nodiscard]] double cell_size() const { return params_.cell_size; }

  [[nodiscard]] bool in_bounds(int x, int y) const {
    return x >= 0 && y >= 0 && x < width_ && y < height_;
  }
  [[nodiscard]] CellId cell(int x, int y) const {
    WAYMARK_ASSERT(in_bounds(x, y));
    return CellId{static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(width_) +
                  static_cast<std::uint32_t>(x)};
  }
  [[nodiscard]] CellCoord coord(CellId c) const {
    const auto [y, x] = row_of_.divide(c.value);
    return CellCoord{static_cast<int>(x), static_cast<int>(y)};
  }

  [[nodiscard]] bool passable(CellId c) const { return passable_[c.value] != 0; }
  [[nodiscard]] bool passable(int x, int y) const { return in_bounds(x, y) && passable(cell(x, y)); }
  void set_passable(int x, int y, bool passable);

  /// Cost multiplier of a cell (1 unless terrain or zones changed it).
  [[nodiscard]] double cost_multiplier(CellId c) const {
    return multipliers_.empty() ? 1.0 : multipliers_[c.value];
  }
  /// [Limit: multiplier > 0 and finite]
  void set_cost_multiplier(int x, int y, double multiplier);
  /// Adds a zone's delta to every covered cell, clamped at params().min_cost_multiplier.
  void add_zone(const CostZone& zone);
  /// True once any multiplier may differ from 1.
  [[nodiscard]] bool has_costs() const { return !multipliers_.empty(); }
  /// A lower bound of all multipliers (exact unless a lowered multiplier was raised again);
  /// heuristics scale by it to stay admissible.
  [[nodiscard]] double min_cost_multiplier() const { return min_multiplier_; }

  /// Cost of moving between two adjacent cells (`diagonal`: a diagonal step).
  [[nodiscard]] double move_cost(CellId from, CellId to, bool diagonal) const {
    const double length = (diagonal ? diagonal_length_ : params_.cell_size);
    if (multipliers_.empty()) return length;
    return length * 0.5 * (multipliers_[from.value] + multipliers_[to.value]);
  }

  /// World position of a cell's centre.
  [[nodiscard]] Vec2 cell_center(CellCoord c) const;
  /// The cell containing a world point, or nullopt when the point is outside the grid.
  [[nodiscard]] std::optional<CellCoord> world_to_cell(Vec2 p) const;

  [[nodiscard]] std::size_t passable_count() const;

 private:
  void ensure_multipliers();

  int width_;
  int height_;
  Divider row_of_;  ///< cell id → (row, column) without a hardware division
  GridMapParams params_;
  double diagonal_length_;
  std::vector<std::uint8_t> passable_;
  std::vector<double> multipliers_;  ///< empty while every multiplier is 1
  double min_multiplier_ = 1.0;
};

}  // namespace waymark::grid
