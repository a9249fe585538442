#pragma once
/// @file GridPlanner: any of the searches on a GridMap, chosen at run time.

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/grid/jump_point.hpp"
#include "waymark/grid/jump_table.hpp"
#include "waymark/grid/algorithm.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"

namespace waymark::grid {

struct GridPlannerOptions {
  Algorithm algorithm = Algorithm::astar;
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Unset: the tightest admissible one for the rule (octile, or manhattan when 4-connected).
  /// Jump searches always use octile.
  std::optional<HeuristicKind> heuristic;
  /// Weighted A* inflation. [Limit: >= 1]
  double weight = search::WeightedAStarPriority::default_weight;
  /// JPS+ only: a prebuilt table for this map (shared, e.g. loaded from a file); null: the
  /// planner builds its own.
  const JumpTable* jump_table = nullptr;
};

/// Why `options` cannot run on `map` (jump searches need uniform costs and no corner
/// cutting), or nullopt when they can.
[[nodiscard]] inline std::optional<std::string> planner_unsupported(const GridMap& map,
                                                                    const GridPlannerOptions& options) {
  if (options.algorithm == Algorithm::jps || options.algorithm == Algorithm::jps_plus)
    return jump_search_unsupported(map, options.diagonal);
  return std::nullopt;
}

/// Owns one reusable search of the chosen kind over one map; reuse it for many queries on the
/// same map. Construction is the warm-up: O(cells) time and memory (move masks, and node
/// records for the best-first searches). After it, plan() allocates only while the open list
/// and path grow past their largest size so far. One planner per thread. A combination
/// that planner_unsupported() rejects fails every query at once.
/// @warning jps-plus without options.jump_table builds a JPS+ table here: O(cells) time and
/// 16 bytes per cell.
template <class Obs = search::NullObserver>
class BasicGridPlanner {
 public:
  BasicGridPlanner(const GridMap& map, const GridPlannerOptions& options, Obs observer = {})
      : space_(map, options.diagonal), options_(options), unsupported_(planner_unsupported(map, options)) {
    const AnyGridHeuristic h(map, options.heuristic.value_or(default_heuristic(options.diagonal)));
    const search::BestFirstOptions bf{};
    if (unsupported_) return;
    const search::AStarPriority astar{tie_quantizer(map)};
    switch (options.algorithm) {
      case Algorithm::astar: search_.template emplace<1>(space_, h, astar, bf, observer); break;
      case Algorithm::wastar:
        search_.template emplace<2>(space_, h, search::WeightedAStarPriority{options.weight}, bf, observer);
        break;
      case Algorithm::dijkstra:
        search_.template emplace<3>(space_, search::ZeroHeuristic{}, search::DijkstraPriority{}, bf, observer);
        break;
      case Algorithm::greedy: search_.template emplace<4>(space_, h, search::GreedyPriority{}, bf, observer); break;
      case Algorithm::bfs: search_.template emplace<5>(space_, observer); break;
      case Algorithm::dfs: search_.template emplace<6>(space_, observer); break;
      case Algorithm::ida: search_.template emplace<7>(space_, h, search::IdaStarOptions{}, observer); break;
      case Algorithm::jps:
        padded_ = std::make_unique<PaddedGrid>(map);
        jump_space_.emplace(map, *padded_);
        search_.template emplace<8>(*jump_space_, OctileHeuristic(map), astar, bf, observer);
        break;
      case Algorithm::jps_plus:
        if (options.jump_table == nullptr) owned_table_ = std::make_unique<JumpTable>(map);
        WAYMARK_ASSERT(options.jump_table == nullptr || (options.jump_table->grid().width() == map.width() &&
                                                         options.jump_table->grid().height() == map.height()));
        jump_plus_space_.emplace(map, options.jump_table ? *options.jump_table : *owned_table_);
        search_.template emplace<9>(*jump_plus_space_, OctileHeuristic(map), astar, bf, observer);
        break;
    }
    dispatch<void>(search_, [](auto& s) {
      if constexpr (requires { s.reserve(); }) s.reserve();
    });
  }

  BasicGridPlanner(const BasicGridPlanner&) = delete;
  BasicGridPlanner& operator=(const BasicGridPlanner&) = delete;

  /// Runs one query to completion. Jump searches return every cell of the path, not only the
  /// jump points.
  Status plan(CellId start, CellId goal) {
    if (unsupported_) return Status{SearchState::failure, StatusDetail::none};
    const Status st = dispatch<Status>(search_, [&](auto& s) { return solve(s, start, goal); });
    if (is_jump_search()) {
      const Path<CellId>& jumps = dispatch<const Path<CellId>&>(search_, [](const auto& s) -> const auto& { return s.path(); });
      expand_jump_path(space_.map(), jumps.nodes, cells_.nodes);
      cells_.cost = jumps.cost;
    }
    return st;
  }

  [[nodiscard]] const Path<CellId>& path() const {
    if (is_jump_search() || unsupported_) return cells_;
    return dispatch<const Path<CellId>&>(search_, [](const auto& s) -> const auto& { return s.path(); });
  }
  [[nodiscard]] const SearchStats& stats() const {
    if (unsupported_) return no_stats_;
    return dispatch<const SearchStats&>(search_, [](const auto& s) -> const auto& { return s.stats(); });
  }
  /// Set when the options cannot run on this map (see planner_unsupported).
  [[nodiscard]] const std::optional<std::string>& unsupported() const { return unsupported_; }
  [[nodiscard]] Obs& observer() {
    if (unsupported_) return no_observer_;
    return dispatch<Obs&>(search_, [](auto& s) -> Obs& { return s.observer(); });
  }
  [[nodiscard]] const GridSpace& space() const { return space_; }
  [[nodiscard]] const GridPlannerOptions& options() const { return options_; }

 private:
  /// Exact f ties on uniform-cost maps (see KeyQuantizer); exact keys with terrain, where
  /// rounding could merge distinct costs.
  static search::KeyQuantizer tie_quantizer(const GridMap& map) {
    constexpr double steps_per_quantum = 0x1p-20;
    return map.has_costs() ? search::KeyQuantizer{} : search::KeyQuantizer{map.cell_size() * steps_per_quantum};
  }

  /// Calls f on the active search. The monostate alternative only exists so the variant can
  /// be built before the constructor picks a search; it is never active afterwards.
  template <class R, class Variant, class F>
  static R dispatch(Variant& v, F&& f) {
    return std::visit(
        [&](auto& s) -> R {
          if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>) {
            assert_failed("planner without a search", __FILE__, __LINE__);
          } else {
            return f(s);
          }
        },
        v);
  }

  [[nodiscard]] bool is_jump_search() const {
    return options_.algorithm == Algorithm::jps || options_.algorithm == Algorithm::jps_plus;
  }

  GridSpace space_;
  GridPlannerOptions options_;
  std::optional<std::string> unsupported_;
  std::unique_ptr<PaddedGrid> padded_;         ///< jps: the padded copy it walks
  std::unique_ptr<JumpTable> owned_table_;     ///< jps-plus without a shared table
  std::optional<JumpPointSpace> jump_space_;
  std::optional<JumpPointPlusSpace> jump_plus_space_;
  Path<CellId> cells_;  ///< jump searches: the full cell path; unsupported: stays empty
  SearchStats no_stats_;
  Obs no_observer_{};
  std::variant<std::monostate,
               search::BestFirstSearch<GridSpace, search::AStarPriority, AnyGridHeuristic, Obs>,
               search::BestFirstSearch<GridSpace, search::WeightedAStarPriority, AnyGridHeuristic, Obs>,
               search::BestFirstSearch<GridSpace, search::DijkstraPriority, search::ZeroHeuristic, Obs>,
               search::BestFirstSearch<GridSpace, search::GreedyPriority, AnyGridHeuristic, Obs>,
               search::TraversalSearch<GridSpace, search::FifoFrontier, Obs>,
               search::TraversalSearch<GridSpace, search::LifoFrontier, Obs>,
               search::IdaStar<GridSpace, AnyGridHeuristic, Obs>,
               search::BestFirstSearch<JumpPointSpace, search::AStarPriority, OctileHeuristic, Obs>,
               search::BestFirstSearch<JumpPointPlusSpace, search::AStarPriority, OctileHeuristic, Obs>>
      search_;
};

using GridPlanner = BasicGridPlanner<>;

}  // namespace waymark::grid
