#pragma once
/// @file GridSpace: a GridMap seen as a search space under one diagonal rule.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

/// The DenseSearchSpace part every grid space shares: nodes are the map's CellIds, blocked
/// cells are not traversable. Holds a reference to the map, which must outlive it.
class GridCells {
 public:
  using node_type = CellId;

  explicit GridCells(const GridMap& map) : map_(&map) {}
  explicit GridCells(const GridMap&&) = delete;  // would dangle

  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] std::size_t node_count() const { return map_->cell_count(); }
  [[nodiscard]] std::size_t index_of(CellId c) const { return c.value; }
  [[nodiscard]] CellId node_at(std::size_t i) const { return CellId{static_cast<std::uint32_t>(i)}; }
  /// Whether `c` is a cell of the map (a start or goal that is not fails as out_of_bounds).
  [[nodiscard]] bool contains(CellId c) const { return c.value < map_->cell_count(); }
  [[nodiscard]] bool is_traversable(CellId c) const { return contains(c) && map_->passable(c); }

 protected:
  const GridMap* map_;
};

/// The eight moves in successor order: the cardinals N, E, S, W (bits 0-3 of a move mask),
/// then the diagonals NE, SE, SW, NW (bits 4-7). N is row y-1.
struct GridMove {
  int dx;
  int dy;
};
inline constexpr std::array<GridMove, 8> grid_moves{
    {{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}};
inline constexpr unsigned first_diagonal_move = 4;

/// Models DenseSearchSpace with CellId nodes.
///
/// Every cell's allowed moves are precomputed into one byte (bit i: grid_moves[i] is allowed
/// by the bounds, the destination and the diagonal rule), so successor generation is a loop
/// over set bits with fixed index offsets: no bounds checks, no neighbour reads.
/// Memory: one byte per cell. After the map is edited the space is stale (searches refuse it,
/// StatusDetail::stale_world) until sync() recomputes the masks around the edits.
class GridSpace : public GridCells {
 public:
  GridSpace(const GridMap& map, DiagonalRule rule);
  GridSpace(const GridMap&&, DiagonalRule) = delete;  // would dangle

  [[nodiscard]] DiagonalRule rule() const { return rule_; }

  /// Whether the map was edited since the masks were last computed.
  [[nodiscard]] bool stale() const { return map_->edited_since(synced_version_); }
  /// Recomputes the masks of the cells around every passability edit since the last sync
  /// (all cells when the map's log no longer reaches back). Returns the cells recomputed.
  /// Not thread-safe: no search may run on the space meanwhile.
  std::size_t sync();

  /// Whether the rule lets a diagonal pass between two cardinal cells with these
  /// passabilities (the destination itself must be passable too).
  [[nodiscard]] bool diagonal_rule_allows(bool side_a_open, bool side_b_open) const {
    return grid::diagonal_rule_allows(rule_, side_a_open, side_b_open);
  }

  /// Whether a diagonal from (x,y) by (dx,dy) is allowed, given the destination is passable.
  [[nodiscard]] bool diagonal_allowed(int x, int y, int dx, int dy) const {
    return diagonal_rule_allows(map_->passable(x + dx, y), map_->passable(x, y + dy));
  }

  /// Bit i set: grid_moves[i] is allowed from `c` (see the class comment).
  [[nodiscard]] std::uint8_t move_mask(CellId c) const { return masks_[c.value]; }

  /// Calls f(neighbour, cost) for each allowed move, in grid_moves order. Forced inline into
  /// the searches, with the relaxation inside it.
  template <class F>
  [[gnu::always_inline]] void for_each_successor(CellId c, F&& f) const {
    const bool uniform = !map_->has_costs();
    for (unsigned mask = masks_[c.value]; mask != 0; mask &= mask - 1) {
      const auto i = static_cast<unsigned>(std::countr_zero(mask));
      const CellId n{c.value + offsets_[i]};
      f(n, uniform ? step_costs_[i] : map_->move_cost(c, n, i >= first_diagonal_move));
    }
  }

 private:
  void compute_masks(CellRect area);

  DiagonalRule rule_;
  std::uint64_t synced_version_;
  std::vector<std::uint8_t> masks_;
  std::array<std::uint32_t, 8> offsets_{};  ///< CellId difference per move (wraps for -1 etc.)
  std::array<Cost, 8> step_costs_{};        ///< move cost on a map without multipliers
};

}  // namespace waymark::grid
