#pragma once
/// @file GridSpace: a GridMap seen as a search space under one diagonal rule.

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "waymark/core/cost.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark {

/// The DenseSearchSpace part every grid space shares: nodes are the map's CellIds, blocked
/// cells are not traversable. Holds a reference to the map, which must outlive it.
class GridCells {
 public:
  using node_type = CellId;

  explicit GridCells(const GridMap& map) : map_(&map) {}

  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] std::size_t node_count() const { return map_->cell_count(); }
  [[nodiscard]] std::size_t index_of(CellId c) const { return c.value; }
  [[nodiscard]] CellId node_at(std::size_t i) const { return CellId{static_cast<std::uint32_t>(i)}; }
  [[nodiscard]] bool is_traversable(CellId c) const {
    return c.value < map_->cell_count() && map_->passable(c);
  }

 protected:
  const GridMap* map_;
};

/// Models DenseSearchSpace with CellId nodes. Cheap to copy (two words).
class GridSpace : public GridCells {
 public:
  GridSpace(const GridMap& map, DiagonalRule rule) : GridCells(map), rule_(rule) {}

  [[nodiscard]] DiagonalRule rule() const { return rule_; }

  /// Whether the rule lets a diagonal pass between two cardinal cells with these
  /// passabilities (the destination itself must be passable too).
  [[nodiscard]] bool diagonal_rule_allows(bool side_a_open, bool side_b_open) const {
    switch (rule_) {
      case DiagonalRule::never: return false;
      case DiagonalRule::always: return true;
      case DiagonalRule::at_most_one_obstacle: return side_a_open || side_b_open;
      case DiagonalRule::no_corner_cutting: return side_a_open && side_b_open;
    }
    return false;
  }

  /// Whether a diagonal from (x,y) by (dx,dy) is allowed, given the destination is passable.
  [[nodiscard]] bool diagonal_allowed(int x, int y, int dx, int dy) const {
    return diagonal_rule_allows(map_->passable(x + dx, y), map_->passable(x, y + dy));
  }

  /// Calls f(neighbour, cost) for each allowed move: the four cardinals (N, E, S, W), then
  /// the four diagonals (NE, SE, SW, NW) when 8-connected. Each cell is read once.
  template <class F>
  void for_each_successor(CellId c, F&& f) const {
    const GridMap& m = *map_;
    const CellCoord p = m.coord(c);
    const auto w = static_cast<std::uint32_t>(m.width());
    const std::array<bool, 4> inside{p.y > 0, p.x + 1 < m.width(), p.y + 1 < m.height(), p.x > 0};
    const std::array<std::uint32_t, 4> ids{c.value - w, c.value + 1, c.value + w, c.value - 1};
    // Gather first, then call f from one place: a single call site lets the compiler inline
    // the search's relaxation code instead of calling it up to eight times.
    std::array<CellId, 8> next;
    std::array<bool, 8> diagonal{};
    std::size_t count = 0;
    std::array<bool, 4> open{};
    for (std::size_t i = 0; i < 4; ++i) {
      open[i] = inside[i] && m.passable(CellId{ids[i]});
      if (open[i]) next[count++] = CellId{ids[i]};
    }
    if (is_eight_connected(rule_)) {
      for (const auto& [vertical, horizontal] : diagonal_sides) {
        if (!inside[vertical] || !inside[horizontal]) continue;
        const CellId n{ids[vertical] + ids[horizontal] - c.value};
        if (m.passable(n) && diagonal_rule_allows(open[vertical], open[horizontal])) {
          diagonal[count] = true;
          next[count++] = n;
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) f(next[i], m.move_cost(c, next[i], diagonal[i]));
  }

 private:
  /// Indices into the cardinal arrays (N=0, E=1, S=2, W=3) of the two cells each diagonal
  /// passes: NE, SE, SW, NW.
  static constexpr std::array<std::pair<std::size_t, std::size_t>, 4> diagonal_sides{
      {{0, 1}, {2, 1}, {2, 3}, {0, 3}}};

  DiagonalRule rule_;
};

}  // namespace waymark
