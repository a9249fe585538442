#pragma once
/// @file GridSpace: a GridMap seen as a search space under one diagonal rule.

#include <array>
#include <cstddef>

#include "waymark/core/cost.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark {

/// Models DenseSearchSpace with CellId nodes. Cheap to copy (two words); holds a reference to
/// the map, which must outlive it.
class GridSpace {
 public:
  using node_type = CellId;

  GridSpace(const GridMap& map, DiagonalRule rule) : map_(&map), rule_(rule) {}

  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] DiagonalRule rule() const { return rule_; }

  [[nodiscard]] std::size_t node_count() const { return map_->cell_count(); }
  [[nodiscard]] std::size_t index_of(CellId c) const { return c.value; }
  [[nodiscard]] CellId node_at(std::size_t i) const { return CellId{static_cast<std::uint32_t>(i)}; }
  [[nodiscard]] bool is_traversable(CellId c) const {
    return c.value < map_->cell_count() && map_->passable(c);
  }

  /// Whether a diagonal from (x,y) by (dx,dy) is allowed, given the destination is passable.
  [[nodiscard]] bool diagonal_allowed(int x, int y, int dx, int dy) const {
    const bool a = map_->passable(x + dx, y);
    const bool b = map_->passable(x, y + dy);
    switch (rule_) {
      case DiagonalRule::never: return false;
      case DiagonalRule::always: return true;
      case DiagonalRule::at_most_one_obstacle: return a || b;
      case DiagonalRule::no_corner_cutting: return a && b;
    }
    return false;
  }

  /// Calls f(neighbour, cost) for each allowed move: the four cardinals (N, E, S, W), then
  /// the four diagonals (NE, SE, SW, NW) when 8-connected.
  template <class F>
  void for_each_successor(CellId c, F&& f) const {
    const CellCoord p = map_->coord(c);
    for (const auto& d : cardinal_dirs) {
      if (map_->passable(p.x + d[0], p.y + d[1])) {
        const CellId n = map_->cell(p.x + d[0], p.y + d[1]);
        f(n, map_->move_cost(c, n, false));
      }
    }
    if (!is_eight_connected(rule_)) return;
    for (const auto& d : diagonal_dirs) {
      if (map_->passable(p.x + d[0], p.y + d[1]) && diagonal_allowed(p.x, p.y, d[0], d[1])) {
        const CellId n = map_->cell(p.x + d[0], p.y + d[1]);
        f(n, map_->move_cost(c, n, true));
      }
    }
  }

 private:
  static constexpr std::array<std::array<int, 2>, 4> cardinal_dirs{{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}};
  static constexpr std::array<std::array<int, 2>, 4> diagonal_dirs{{{1, -1}, {1, 1}, {-1, 1}, {-1, -1}}};

  const GridMap* map_;
  DiagonalRule rule_;
};

}  // namespace waymark
