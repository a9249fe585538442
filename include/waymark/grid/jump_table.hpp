#pragma once
/// @file JPS+ (Rabin, Game AI Pro 2, 2015): jump distances precomputed for every cell and
/// direction, so a query reads one table entry per direction instead of scanning the grid.
/// Same rules and same optimal costs as online JPS (jump_point.hpp).

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "waymark/grid/jump_point.hpp"

namespace waymark::grid {

/// Per padded cell and direction: d > 0 — the next jump point is d moves away; d <= 0 — no
/// jump point, and -d free moves are possible before a wall.
/// Memory: 16 bytes per cell of the padded grid. Immutable once built; share it between
/// threads.
class JumpTable {
 public:
  /// Precomputes the table for `map` (no-corner-cutting, uniform costs; check
  /// jump_search_unsupported first). O(cells), one sweep per direction.
  explicit JumpTable(const GridMap& map);
  explicit JumpTable(const GridMap&&) = delete;  // would dangle

  /// Writes the table to a binary file (with a trailing checksum).
  /// @throws SaveError when the file cannot be written.
  void save(const std::string& path) const;
  /// Reads a table written by save(); throws LoadError when the file is unreadable, damaged
  /// (checksum), built for another map (size or obstacle fingerprint), or has any entry that
  /// differs from what a build for this map gives (checked in O(cells), so a forged file can
  /// never send a search off the map or through a wall).
  static JumpTable load(const std::string& path, const GridMap& map);
  static JumpTable load(const std::string&, const GridMap&&) = delete;  // would dangle
  /// The same from a stream; `name` is used in error messages.
  static JumpTable load(std::istream& in, const std::string& name, const GridMap& map);
  static JumpTable load(std::istream&, const std::string&, const GridMap&&) = delete;  // would dangle

  /// The map it was built for (which must outlive it), and whether that map was edited since.
  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] bool stale() const { return map_->edited_since(version_); }
  /// The map's version the table was built at (stale() is also true while the map is behind
  /// one it follows, which no rebuild here changes).
  [[nodiscard]] std::uint64_t built_version() const { return version_; }
  /// Builds the table again for the map as it is now. O(cells).
  /// @warning Not thread-safe: no search may use the table meanwhile.
  void rebuild();

  [[nodiscard]] std::int32_t distance(std::uint32_t padded, int dir) const {
    return distances_[static_cast<std::size_t>(padded) * direction_count + static_cast<std::size_t>(dir)];
  }
  [[nodiscard]] const PaddedGrid& grid() const { return grid_; }
  [[nodiscard]] const JumpRules& rules() const { return rules_; }
  [[nodiscard]] std::size_t memory_bytes() const { return distances_.size() * sizeof(std::int16_t); }

  JumpTable(JumpTable&& other) noexcept;
  JumpTable& operator=(JumpTable&&) = delete;
  JumpTable(const JumpTable&) = delete;

 private:
  JumpTable(const GridMap& map, std::vector<std::int16_t> distances);
  void build();
  /// Visits every entry in build order with the value the build gives it from the entries
  /// already visited: visit(entry, value) -> bool (false stops the sweep, which returns false).
  template <class Visit>
  bool sweep(Visit&& visit);

  const GridMap* map_;
  std::uint64_t version_;
  PaddedGrid grid_;
  JumpRules rules_;  ///< refers to grid_
  std::vector<std::int16_t> distances_;
};

/// JPS+ as a search space over CellIds; holds references to the map and table. Stale while
/// the table is (the map was edited and the table not rebuilt); unsupported while the map has
/// costs (searches refuse those queries at once).
class JumpPointPlusSpace : public GridCells {
 public:
  JumpPointPlusSpace(const GridMap& map, const JumpTable& table) : GridCells(map), table_(&table) {}
  JumpPointPlusSpace(const GridMap&&, const JumpTable&) = delete;  // would dangle
  JumpPointPlusSpace(const GridMap&, const JumpTable&&) = delete;  // would dangle

  [[nodiscard]] bool stale() const { return table_->stale(); }
  /// The map has cost multipliers: searches refuse (invalid_query | unsupported).
  [[nodiscard]] bool unsupported() const { return map_->has_costs(); }
  [[nodiscard]] const JumpTable& table() const { return *table_; }

  template <class F>
  void for_each_successor(CellId n, const CellId* parent, CellId goal, F&& f) const {
    const PaddedGrid& g = table_->grid();
    const std::uint32_t p = g.index(n);
    const CellCoord at = map_->coord(n);
    const DirectionSet dirs =
        table_->rules().successors(p, parent ? run_between(map_->coord(*parent), at).direction : -1);
    const CellCoord to = goal.valid() ? map_->coord(goal) : CellCoord{-1, -1};
    for (int d = 0; d < direction_count; ++d) {
      if ((dirs & (1u << d)) == 0) continue;
      const std::int32_t steps = successor_steps(at, to, goal.valid(), d, table_->distance(p, d));
      if (steps > 0) {
        const std::uint32_t q = p + static_cast<std::uint32_t>(steps * table_->rules().offset(d));
        f(g.cell(q), run_cost(d, steps, map_->cell_size()));
      }
    }
  }
  template <class F>
  void for_each_successor(CellId n, F&& f) const {
    for_each_successor(n, nullptr, CellId::invalid(), std::forward<F>(f));
  }

 private:
  /// Moves to the successor in direction d, or 0: the goal (or, diagonally, the cell level
  /// with the goal's row or column) when it lies within reach, else the stored jump point.
  static std::int32_t successor_steps(CellCoord at, CellCoord goal, bool has_goal, int d, std::int32_t dist) {
    const std::int32_t reach = dist > 0 ? dist : -dist;
    if (has_goal) {
      const int dx = direction_dx[static_cast<std::size_t>(d)], dy = direction_dy[static_cast<std::size_t>(d)];
      const int gx = (goal.x - at.x) * dx, gy = (goal.y - at.y) * dy;  // progress along d, per axis
      if (is_diagonal(d)) {
        const int m = gx < gy ? gx : gy;
        if (m > 0 && m <= reach) return m;
      } else if ((dx == 0 ? goal.x == at.x : goal.y == at.y)) {
        const int m = dx == 0 ? gy : gx;
        if (m > 0 && m <= reach) return m;
      }
    }
    return dist > 0 ? dist : 0;
  }

  const JumpTable* table_;
};

}  // namespace waymark::grid
