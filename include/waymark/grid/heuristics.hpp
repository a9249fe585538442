#pragma once
/// @file Grid distance heuristics.
///
/// Admissibility (never overestimating, so A* and IDA* stay optimal), with costs as GridMap
/// defines them (cardinal 1, diagonal √2, times multipliers ≥ the map's minimum):
///
/// | heuristic  | 4-connected (never) | 8-connected (any other rule) |
/// |------------|---------------------|------------------------------|
/// | manhattan  | admissible, exact on open maps | NOT admissible (counts a diagonal as 2) |
/// | octile     | admissible          | admissible, exact on open maps |
/// | euclidean  | admissible          | admissible                   |
/// | chebyshev  | admissible          | admissible (counts a diagonal as 1) |
/// | zero       | admissible          | admissible (A* becomes Dijkstra) |
///
/// All are also consistent under those conditions. They are scaled by cell_size × the map's
/// minimum cost multiplier, which keeps them admissible with terrain costs and zones (read at
/// each call: a map edit never leaves them overestimating). They hold a pointer to the map.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "waymark/core/divider.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {

/// Distance metrics on absolute cell offsets (dx, dy >= 0), in cells.
struct ManhattanMetric {
  static double distance(double dx, double dy) { return dx + dy; }
};
struct OctileMetric {
  static double distance(double dx, double dy) {
    return std::max(dx, dy) + (diagonal_step - 1.0) * std::min(dx, dy);
  }
};
struct EuclideanMetric {
  static double distance(double dx, double dy) { return std::hypot(dx, dy); }
};
struct ChebyshevMetric {
  static double distance(double dx, double dy) { return std::max(dx, dy); }
};
struct ZeroMetric {
  static double distance(double, double) { return 0; }
};

/// Absolute column and row distance between two cells.
struct CellOffset {
  double dx;
  double dy;
};

/// Turns cell ids of one map into offsets; scale() converts cells to admissible cost. The
/// scale is read from the map at each call, so edits that lower a multiplier keep the
/// heuristics admissible without rebuilding them.
struct CellOffsetter {
  explicit CellOffsetter(const GridMap& grid) : width(static_cast<std::uint32_t>(grid.width())), map(&grid) {}
  explicit CellOffsetter(const GridMap&&) = delete;  // would dangle

  CellOffset between(CellId a, CellId b) const {
    const auto [ay, ax] = width.divide(a.value);
    const auto [by, bx] = width.divide(b.value);
    return {static_cast<double>(ax > bx ? ax - bx : bx - ax),
            static_cast<double>(ay > by ? ay - by : by - ay)};
  }
  [[nodiscard]] double scale() const { return map->heuristic_scale(); }

  Divider width;  ///< cell id → (row, column)
  const GridMap* map;
};

/// A metric bound to a map: h(a, b) = metric(|ax-bx|, |ay-by|) × cell_size × min multiplier.
template <class Metric>
class GridHeuristic {
 public:
  explicit GridHeuristic(const GridMap& map) : offset_(map) {}
  explicit GridHeuristic(const GridMap&&) = delete;  // would dangle

  double operator()(CellId a, CellId b) const {
    const CellOffset d = offset_.between(a, b);
    return offset_.scale() * Metric::distance(d.dx, d.dy);
  }

 private:
  CellOffsetter offset_;
};

using ManhattanHeuristic = GridHeuristic<ManhattanMetric>;
using OctileHeuristic = GridHeuristic<OctileMetric>;
using EuclideanHeuristic = GridHeuristic<EuclideanMetric>;
using ChebyshevHeuristic = GridHeuristic<ChebyshevMetric>;

/// Heuristic chosen at run time (CLI, scenario runner).
/// Fixed values (WM_HEURISTIC_* in the C API).
enum class HeuristicKind : std::uint8_t { manhattan = 0, octile = 1, euclidean = 2, chebyshev = 3, zero = 4 };

[[nodiscard]] std::string_view to_string(HeuristicKind k);
[[nodiscard]] std::optional<HeuristicKind> parse_heuristic(std::string_view name);
/// Whether `k` never overestimates under `rule` (see the table above).
[[nodiscard]] bool is_admissible(HeuristicKind k, DiagonalRule rule);
/// The tightest admissible heuristic for a rule: manhattan for 4-connected, else octile.
[[nodiscard]] HeuristicKind default_heuristic(DiagonalRule rule);

/// A runtime-selected metric with the same scaling as GridHeuristic. One switch per call; for
/// the hot path use the GridHeuristic<Metric> types directly.
class AnyGridHeuristic {
 public:
  AnyGridHeuristic(const GridMap& map, HeuristicKind kind) : offset_(map), kind_(kind) {}
  AnyGridHeuristic(const GridMap&&, HeuristicKind) = delete;  // would dangle

  // Inlined into the searches' relaxation: called once per generated node.
  [[gnu::always_inline]] double operator()(CellId a, CellId b) const {
    const CellOffset d = offset_.between(a, b);
    switch (kind_) {
      case HeuristicKind::manhattan: return offset_.scale() * ManhattanMetric::distance(d.dx, d.dy);
      case HeuristicKind::octile: return offset_.scale() * OctileMetric::distance(d.dx, d.dy);
      case HeuristicKind::euclidean: return offset_.scale() * EuclideanMetric::distance(d.dx, d.dy);
      case HeuristicKind::chebyshev: return offset_.scale() * ChebyshevMetric::distance(d.dx, d.dy);
      case HeuristicKind::zero: return 0;
    }
    return 0;
  }

 private:
  CellOffsetter offset_;
  HeuristicKind kind_;
};

}  // namespace waymark::grid
