#pragma once
/// @file GridMap: a rectangular world of square cells, each passable or blocked, with optional
/// per-cell cost multipliers (terrain) and cost zones.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "waymark/core/assert.hpp"
#include "waymark/core/change_log.hpp"
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

/// The cells [x0, x1) × [y0, y1).
struct CellRect {
  int x0 = 0;
  int y0 = 0;
  int x1 = 0;
  int y1 = 0;

  [[nodiscard]] static constexpr CellRect cell(int x, int y) { return {x, y, x + 1, y + 1}; }
  [[nodiscard]] constexpr bool empty() const { return x0 >= x1 || y0 >= y1; }
  [[nodiscard]] constexpr bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
  /// `by` more cells on every side.
  [[nodiscard]] constexpr CellRect grown(int by) const { return {x0 - by, y0 - by, x1 + by, y1 + by}; }
  /// The part inside a width × height grid.
  [[nodiscard]] constexpr CellRect clipped(int width, int height) const {
    return {x0 < 0 ? 0 : x0, y0 < 0 ? 0 : y0, x1 > width ? width : x1, y1 > height ? height : y1};
  }
  friend constexpr bool operator==(CellRect, CellRect) = default;
};

/// One edit of a map, as its change log keeps it.
struct GridChange {
  std::uint64_t version = 0;  ///< the map's version after the edit
  CellRect area;              ///< every cell whose passability or cost may have changed
  bool passability = false;   ///< passability changed (false: only costs)
};

/// A cost zone added to a map, for removing it again.
using ZoneId = StrongId<struct ZoneTag>;

/// Rectangular grid. Cell (x,y) covers world [origin.x + x·s, origin.x + (x+1)·s) ×
/// [origin.y + y·s, origin.y + (y+1)·s) for cell size s; row y grows with world y.
///
/// Move costs: a step's length in world units (cell_size for cardinal, √2·cell_size for
/// diagonal) times the mean of the two cells' multipliers, so costs are symmetric. A cell's
/// multiplier is its terrain multiplier (1 unless set), plus the deltas of the zones covering
/// it, clamped at params().min_cost_multiplier when any zone covers it.
///
/// Editable between queries: every edit that changes something bumps version() and is named
/// in the change log (changes_since()), so data derived from the map (move masks, jump
/// tables, planners) can update itself or refuse to answer from the old map. Immutable while
/// searched: edit only when no search runs on it, then sync the planners.
class GridMap {
 public:
  /// All cells passable with multiplier 1. [Limit: width, height >= 1, width·height < 2^32]
  GridMap(int width, int height, GridMapParams params = {});
  /// A map from its cells, row-major: `passable[i]` non-zero for a passable cell, `terrain[i]`
  /// its multiplier (empty: all 1). What loaders build; version 0, nothing logged.
  /// [Limit: as above; passable.size() = width·height; terrain empty or the same size, > 0, finite]
  GridMap(int width, int height, std::vector<std::uint8_t> passable, std::vector<double> terrain,
          GridMapParams params = {});

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] std::size_t cell_count() const { return passable_.size(); }
  [[nodiscard]] const GridMapParams& params() const { return params_; }
  [[nodiscard]] double cell_size() const { return params_.cell_size; }
  [[nodiscard]] CellRect bounds() const { return {0, 0, width_, height_}; }

  [[nodiscard]] bool in_bounds(int x, int y) const {
    return x >= 0 && y >= 0 && x < width_ && y < height_;
  }
  /// The cell at (x, y), or nullopt when (x, y) is outside the map: the checked form, for
  /// coordinates from a user, a file or a click.
  [[nodiscard]] std::optional<CellId> try_cell(int x, int y) const {
    if (!in_bounds(x, y)) return std::nullopt;
    return cell(x, y);
  }
  /// The cell at (x, y), unchecked: [Limit: in_bounds(x, y); outside it aborts, in Release
  /// too]. Use try_cell() for coordinates that may be outside.
  [[nodiscard]] CellId cell(int x, int y) const {
    WAYMARK_ASSERT(in_bounds(x, y));
    return CellId{static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(width_) +
                  static_cast<std::uint32_t>(x)};
  }
  /// Whether `c` is a cell of this map.
  [[nodiscard]] bool contains(CellId c) const { return c.value < passable_.size(); }
  /// The coordinates of a cell. [Limit: contains(c); unchecked]
  [[nodiscard]] CellCoord coord(CellId c) const {
    const auto [y, x] = row_of_.divide(c.value);
    return CellCoord{static_cast<int>(x), static_cast<int>(y)};
  }

  /// Whether `c` may be stood on; false for an id that is not a cell of this map.
  [[nodiscard]] bool passable(CellId c) const { return c.value < passable_.size() && passable_[c.value] != 0; }
  [[nodiscard]] bool passable(int x, int y) const { return in_bounds(x, y) && passable(cell(x, y)); }

  /// Cost multiplier of a cell (1 unless terrain or zones changed it). [Limit: contains(c); unchecked]
  [[nodiscard]] double cost_multiplier(CellId c) const {
    return multipliers_.empty() ? 1.0 : multipliers_[c.value];
  }
  /// True while any multiplier differs from 1 (false again once every one is back at 1).
  [[nodiscard]] bool has_costs() const { return costly_cells_ != 0; }
  /// A lower bound of all multipliers (exact unless a lowered multiplier was raised again);
  /// heuristics scale by it to stay admissible.
  [[nodiscard]] double min_cost_multiplier() const { return min_multiplier_; }
  /// cell_size() × min_cost_multiplier(): the factor that keeps grid heuristics admissible.
  [[nodiscard]] double heuristic_scale() const { return heuristic_scale_; }

  /// Cost of moving between two adjacent cells (`diagonal`: a diagonal step).
  [[nodiscard]] double move_cost(CellId from, CellId to, bool diagonal) const {
    const double length = (diagonal ? diagonal_length_ : params_.cell_size);
    if (multipliers_.empty()) return length;
    return length * 0.5 * (multipliers_[from.value] + multipliers_[to.value]);
  }

  // ---- edits ------------------------------------------------------------------------------
  // Each bumps version() and logs the cells it touched, unless it changes nothing.

  /// Blocks or frees one cell. Returns false, changing nothing, when (x, y) is outside the map.
  bool set_passable(int x, int y, bool passable);
  /// Blocks or frees every cell of `area` (clipped to the grid): a door, a wall, a collapse.
  void set_passable(CellRect area, bool passable);
  /// The terrain multiplier of one cell. Returns false, changing nothing, when (x, y) is outside
  /// the map or the multiplier is not finite and > 0.
  bool set_cost_multiplier(int x, int y, double multiplier);
  /// Adds `zone.delta` to the multiplier of every cell whose centre it covers; returns the
  /// id that removes it again. [Limit: delta finite, radius >= 0]
  ZoneId add_zone(const CostZone& zone);
  /// Takes a zone back out: its cells get the multiplier they would have without it. False
  /// when `id` is not a zone of this map (or was removed already).
  bool remove_zone(ZoneId id);
  /// The zone `id`, or null when it is not (or no longer) a zone of this map.
  [[nodiscard]] const CostZone* zone(ZoneId id) const;

  /// Incremented by every edit; 0 for a map no edit has changed since construction.
  [[nodiscard]] std::uint64_t version() const { return log_.version(); }
  /// The edits after `version`, oldest first (empty when there are none); nullopt when the
  /// log no longer reaches back that far (ChangeLog::capacity edits are kept).
  [[nodiscard]] std::optional<std::span<const GridChange>> changes_since(std::uint64_t version) const {
    return log_.since(version);
  }

  // ---- maps made from another (SizeClassMap::map() from its base) --------------------------

  /// Marks the map as made from `source` and up to date with it as of now. Until the next
  /// call, behind() is true once `source` is edited (or is itself behind a map it follows),
  /// and everything derived from this map is stale meanwhile (edited_since()): planners on it
  /// refuse to answer (stale_world) instead of planning on the old world. `source` must
  /// outlive the map; a copy of the map follows nothing (a move keeps following).
  void follow(const GridMap& source) { source_ = Source(&source, source.version()); }
  /// Whether the map follows a source (follow()) edited since the map was brought up to date.
  [[nodiscard]] bool behind() const {
    return source_.map != nullptr && (source_.map->version() != source_.version || source_.map->behind());
  }
  /// Whether data derived from the map at version `synced` is out of date: the map was edited
  /// since, or it is behind() the map it follows. What derived data's stale() asks.
  [[nodiscard]] bool edited_since(std::uint64_t synced) const { return synced != version() || behind(); }

  /// World position of a cell's centre.
  [[nodiscard]] Vec2 cell_center(CellCoord c) const;
  [[nodiscard]] Vec2 cell_center(CellId c) const { return cell_center(coord(c)); }
  /// The cell's centre as a world position in space (z = 0): what paths hand to movement.
  [[nodiscard]] Vec3 position(CellId c) const { return lift(cell_center(c)); }
  /// The cell containing a world point, or nullopt when the point is outside the grid.
  [[nodiscard]] std::optional<CellCoord> world_to_cell(Vec2 p) const;

  [[nodiscard]] std::size_t passable_count() const;

 private:
  void ensure_multipliers();
  /// Recomputes a cell's multiplier from its terrain and the zones covering it.
  void refresh_multiplier(int x, int y);
  [[nodiscard]] bool covers(const CostZone& zone, int x, int y) const;
  /// The cells a zone may cover.
  [[nodiscard]] CellRect zone_cells(const CostZone& zone) const;
  /// Recomputes the multipliers of the cells `zone` covers and logs the edit.
  void refresh_zone_cells(const CostZone& zone);
  void log(CellRect area, bool passability);

  int width_;
  int height_;
  Divider row_of_;  ///< cell id → (row, column) without a hardware division
  GridMapParams params_;
  double diagonal_length_;
  std::vector<std::uint8_t> passable_;
  std::vector<double> multipliers_;  ///< effective multipliers; empty while every one is 1
  std::vector<double> terrain_;      ///< terrain multipliers; allocated with multipliers_
  std::vector<CostZone> zones_;      ///< by ZoneId
  std::vector<bool> zone_active_;
  std::size_t costly_cells_ = 0;     ///< cells whose multiplier is not 1
  double min_multiplier_ = 1.0;
  double heuristic_scale_;
  ChangeLog<GridChange> log_;
  /// The map this one follows and the version of it this one reflects; a copy follows nothing.
  struct Source {
    const GridMap* map = nullptr;
    std::uint64_t version = 0;
    Source() = default;
    Source(const GridMap* m, std::uint64_t v) : map(m), version(v) {}
    Source(const Source&) noexcept {}
    Source(Source&& other) noexcept : map(other.map), version(other.version) {}
    Source& operator=(const Source& other) noexcept {
      if (this != &other) *this = Source();
      return *this;
    }
    Source& operator=(Source&& other) noexcept {
      map = other.map;
      version = other.version;
      return *this;
    }
    ~Source() = default;
  };
  Source source_;
};

/// Replays the passability edits of `map` after `since` for data derived from it: calls
/// `update(area)` with each changed area grown by `margin` cells (neighbours whose derived
/// values depend on the changed cells) and clipped to the grid, or once with the whole grid
/// when the log no longer reaches back to `since`. Returns how many cells it passed on.
template <class Update>
std::size_t replay_passability_changes(const GridMap& map, std::uint64_t since, int margin, Update&& update) {
  const auto changes = map.changes_since(since);
  const auto cells = [](CellRect r) { return static_cast<std::size_t>(r.x1 - r.x0) * static_cast<std::size_t>(r.y1 - r.y0); };
  if (!changes) {
    update(map.bounds());
    return cells(map.bounds());
  }
  std::size_t total = 0;
  for (const GridChange& c : *changes) {
    if (!c.passability) continue;
    const CellRect area = c.area.grown(margin).clipped(map.width(), map.height());
    update(area);
    total += cells(area);
  }
  return total;
}

}  // namespace waymark::grid
