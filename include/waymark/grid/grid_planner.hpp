#pragma once
/// @file GridPlanner: any of the searches on a GridMap, chosen at run time.

#include <optional>
#include <type_traits>
#include <variant>

#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/search/algorithm.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"

namespace waymark {

struct GridPlannerOptions {
  Algorithm algorithm = Algorithm::astar;
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Unset: the tightest admissible one for the rule (octile, or manhattan when 4-connected).
  std::optional<HeuristicKind> heuristic;
  /// Weighted A* inflation. [Limit: >= 1]
  double weight = WeightedAStarPriority::default_weight;
};

/// Owns one reusable search of the chosen kind over one map. Reuse it for many queries on the
/// same map: after warm-up, plan() allocates nothing. One planner per thread.
template <class Obs = NullObserver>
class BasicGridPlanner {
 public:
  BasicGridPlanner(const GridMap& map, const GridPlannerOptions& options, Obs observer = {})
      : space_(map, options.diagonal), options_(options) {
    const AnyGridHeuristic h(map, options.heuristic.value_or(default_heuristic(options.diagonal)));
    const BestFirstOptions bf{};
    switch (options.algorithm) {
      case Algorithm::astar: search_.template emplace<1>(space_, h, AStarPriority{}, bf, observer); break;
      case Algorithm::wastar:
        search_.template emplace<2>(space_, h, WeightedAStarPriority{options.weight}, bf, observer);
        break;
      case Algorithm::dijkstra:
        search_.template emplace<3>(space_, ZeroHeuristic{}, DijkstraPriority{}, bf, observer);
        break;
      case Algorithm::greedy: search_.template emplace<4>(space_, h, GreedyPriority{}, bf, observer); break;
      case Algorithm::bfs: search_.template emplace<5>(space_, observer); break;
      case Algorithm::dfs: search_.template emplace<6>(space_, observer); break;
      case Algorithm::ida: search_.template emplace<7>(space_, h, IdaStarOptions{}, observer); break;
    }
  }

  BasicGridPlanner(const BasicGridPlanner&) = delete;
  BasicGridPlanner& operator=(const BasicGridPlanner&) = delete;

  /// Runs one query to completion.
  Status plan(CellId start, CellId goal) {
    return dispatch<Status>(search_, [&](auto& s) { return solve(s, start, goal); });
  }

  [[nodiscard]] const Path<CellId>& path() const {
    return dispatch<const Path<CellId>&>(search_, [](const auto& s) -> const auto& { return s.path(); });
  }
  [[nodiscard]] const SearchStats& stats() const {
    return dispatch<const SearchStats&>(search_, [](const auto& s) -> const auto& { return s.stats(); });
  }
  [[nodiscard]] Obs& observer() {
    return dispatch<Obs&>(search_, [](auto& s) -> Obs& { return s.observer(); });
  }
  [[nodiscard]] const GridSpace& space() const { return space_; }
  [[nodiscard]] const GridPlannerOptions& options() const { return options_; }

 private:
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

  GridSpace space_;
  GridPlannerOptions options_;
  std::variant<std::monostate,
               BestFirstSearch<GridSpace, AStarPriority, AnyGridHeuristic, Obs>,
               BestFirstSearch<GridSpace, WeightedAStarPriority, AnyGridHeuristic, Obs>,
               BestFirstSearch<GridSpace, DijkstraPriority, ZeroHeuristic, Obs>,
               BestFirstSearch<GridSpace, GreedyPriority, AnyGridHeuristic, Obs>,
               TraversalSearch<GridSpace, FifoFrontier, Obs>,
               TraversalSearch<GridSpace, LifoFrontier, Obs>,
               IdaStar<GridSpace, AnyGridHeuristic, Obs>>
      search_;
};

using GridPlanner = BasicGridPlanner<>;

}  // namespace waymark
