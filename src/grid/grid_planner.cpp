#include "waymark/grid/grid_planner.hpp"

#include <concepts>
#include <type_traits>
#include <utility>

#include "waymark/grid/path_smoothing.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"
#include "sparse_searches.hpp"
#include "tie_quantizer.hpp"

namespace waymark::grid {
namespace {

using search::AStarPriority;
using search::BestFirstOptions;
using search::BestFirstSearch;
using search::Goal;
using search::Source;

using detail::tie_quantizer;

bool is_jump_search(Algorithm a) { return a == Algorithm::jps || a == Algorithm::jps_plus; }

/// A handle model for the planner's searches. Around the engine it keeps A*'s key rounding in
/// step with the map's costs (edits may add or remove them), expands the jump points of jump
/// searches into every cell, turns goals a jump search cannot serve into invalid_query, and
/// gives Theta*'s waypoints without collinear ones, costed segment by segment.
template <class Search>
class GridSearchModel final : public search::EngineModel<Search> {
  using Base = search::EngineModel<Search>;
  using Space = typename Search::space_type;
  static constexpr bool any_angle = std::is_same_v<Space, AnyAngleSpace>;
  static constexpr bool jumps = !std::is_same_v<Space, GridSpace> && !any_angle;
  static constexpr bool quantized = requires(const Search& s) {
    { s.priority() } -> std::same_as<const AStarPriority&>;
  };

 public:
  template <class... Args>
  explicit GridSearchModel(const GridMap& map, Args&&... args) : Base(std::forward<Args>(args)...), map_(&map) {
    this->search().reserve();
  }

  void begin(std::span<const Source<CellId>> sources, const Goal<CellId>& goal) override {
    // Theta*'s keys stay exact: its costs are sums of irrational lengths, not of two steps.
    if constexpr (quantized && !any_angle) this->search().set_priority(AStarPriority{tie_quantizer(*map_)});
    // While the new query runs, path() must not show the previous one (keeps capacity).
    cells_.clear();
    // Jumps stop only at a goal they know: one cell. An empty source list fails the query
    // with invalid_query and clears the previous result.
    if (jumps && goal.kind() != Goal<CellId>::Kind::node) {
      Base::begin({}, goal);
    } else {
      Base::begin(sources, goal);
    }
    expand_path();
  }
  Status step(const search::Budget& budget) override {
    const Status s = Base::step(budget);
    expand_path();
    return s;
  }
  [[nodiscard]] const Path<CellId>& path() const override { return jumps || any_angle ? cells_ : Base::path(); }
  [[gnu::cold, gnu::noinline]] void reserve(const search::SearchCapacity& capacity) override {  // as EngineModel's
    Base::reserve(capacity);
    if constexpr (jumps || any_angle) cells_.nodes.reserve(capacity.path_nodes);
  }

 private:
  void expand_path() {
    if constexpr (jumps) {
      if (this->status().running()) return;
      expand_jump_path(*map_, Base::path().nodes, cells_.nodes);
      cells_.cost = Base::path().cost;
    } else if constexpr (any_angle) {
      if (this->status().running()) return;
      // A parent improved after its child was costed leaves the goal's g above its chain's
      // cost: the path's cost is its segments' sum.
      compress_path(*map_, Base::path().nodes, cells_.nodes);
      cells_.cost = waypoint_path_cost(this->search().space().grid(), cells_.nodes);
    }
  }

  const GridMap* map_;
  Path<CellId> cells_;  ///< jump searches: every cell of the path; theta: its waypoints
};

template <class Search, class... Args>
std::unique_ptr<search::SearchModel<CellId>> model(const GridMap& map, Args&&... args) {
  return std::make_unique<GridSearchModel<Search>>(map, std::forward<Args>(args)...);
}

}  // namespace

std::optional<std::string> planner_unsupported(const GridMap& map, const GridPlannerOptions& options,
                                               Algorithm algorithm) {
  if (is_jump_search(algorithm)) return jump_search_unsupported(map, options.diagonal);
  return std::nullopt;
}

std::optional<std::string> planner_unsupported(const GridMap& map, const GridPlannerOptions& options) {
  return planner_unsupported(map, options, options.algorithm);
}

GridPlanner::GridPlanner(const GridMap& map, const GridPlannerOptions& options)
    : map_(&map), options_(options), space_(map, options.diagonal), any_angle_space_(space_) {
  // The default algorithm's jump structure is built now (the warm-up); another's when it is
  // first asked for. Costs only make jump searches refuse queries while the map has any.
  if (options.algorithm == Algorithm::jps) static_cast<void>(jump_space());
  if (options.algorithm == Algorithm::jps_plus) static_cast<void>(jump_plus_space());
}

GridPlanner::~GridPlanner() = default;

const JumpPointSpace* GridPlanner::jump_space() const {
  // Jump structures exist only under the rule they are written for.
  if (options_.diagonal != DiagonalRule::no_corner_cutting) return nullptr;
  std::call_once(jump_once_, [&] {
    jump_space_ = std::make_unique<JumpPointSpace>(*map_, options_.jump);
    jump_ready_.store(jump_space_.get(), std::memory_order_release);
  });
  return jump_space_.get();
}

const JumpPointPlusSpace* GridPlanner::jump_plus_space() const {
  if (options_.diagonal != DiagonalRule::no_corner_cutting) return nullptr;
  std::call_once(jump_plus_once_, [&] {
    if (options_.jump_table == nullptr) owned_table_ = std::make_unique<JumpTable>(*map_);
    const JumpTable& table = options_.jump_table ? *options_.jump_table : *owned_table_;
    WAYMARK_ASSERT(&table.map() == map_ ||
                   (table.grid().width() == map_->width() && table.grid().height() == map_->height()));
    jump_plus_space_ = std::make_unique<JumpPointPlusSpace>(*map_, table);
    jump_plus_ready_.store(jump_plus_space_.get(), std::memory_order_release);
  });
  return jump_plus_space_.get();
}

template <class Obs>
std::unique_ptr<search::SearchModel<CellId>> GridPlanner::make_model(Algorithm algorithm,
                                                                     const search::QueryOptions<CellId>& query,
                                                                     Obs observer) const {
  using search::DijkstraPriority;
  using search::GreedyPriority;
  using search::WeightedAStarPriority;
  using search::ZeroHeuristic;
  const GridMap& map = *map_;
  if (query.table == search::NodeTableKind::sparse) {  // best-first searches; the others stay dense
    if (auto sparse = detail::make_sparse_model(map, space_, options_, algorithm, query, observer)) return sparse;
  }
  const AnyGridHeuristic h(map, options_.heuristic.value_or(default_heuristic(options_.diagonal)));
  const BestFirstOptions bf{.reopen_closed = true, .max_nodes = query.max_nodes, .partial_result = query.partial_result};
  const AStarPriority astar{tie_quantizer(map)};
  switch (algorithm) {
    case Algorithm::astar:
      return model<BestFirstSearch<GridSpace, AnyGridHeuristic, AStarPriority, Obs>>(map, space_, h, astar, observer, bf);
    case Algorithm::wastar:
      return model<BestFirstSearch<GridSpace, AnyGridHeuristic, WeightedAStarPriority, Obs>>(
          map, space_, h, WeightedAStarPriority{query.weight}, observer, bf);
    case Algorithm::dijkstra:
      return model<BestFirstSearch<GridSpace, ZeroHeuristic, DijkstraPriority, Obs>>(map, space_, ZeroHeuristic{},
                                                                                     DijkstraPriority{}, observer, bf);
    case Algorithm::greedy:
      return model<BestFirstSearch<GridSpace, AnyGridHeuristic, GreedyPriority, Obs>>(map, space_, h, GreedyPriority{},
                                                                                      observer, bf);
    case Algorithm::bfs:
      return model<search::TraversalSearch<GridSpace, search::FifoFrontier, Obs>>(
          map, space_, search::FifoFrontier{}, observer, search::TraversalOptions{query.max_nodes});
    case Algorithm::dfs:
      return model<search::TraversalSearch<GridSpace, search::LifoFrontier, Obs>>(
          map, space_, search::LifoFrontier{}, observer, search::TraversalOptions{query.max_nodes});
    case Algorithm::ida:
      return model<search::IdaStar<GridSpace, AnyGridHeuristic, Obs>>(
          map, space_, h, observer, search::IdaStarOptions{.transposition_table = true, .max_nodes = query.max_nodes});
    case Algorithm::jps:
      if (const JumpPointSpace* jumps = jump_space()) {
        return model<BestFirstSearch<JumpPointSpace, OctileHeuristic, AStarPriority, Obs>>(
            map, *jumps, OctileHeuristic(map), astar, observer, bf);
      }
      break;
    case Algorithm::jps_plus:
      if (const JumpPointPlusSpace* jumps = jump_plus_space()) {
        return model<BestFirstSearch<JumpPointPlusSpace, OctileHeuristic, AStarPriority, Obs>>(
            map, *jumps, OctileHeuristic(map), astar, observer, bf);
      }
      break;
    case Algorithm::theta:  // the straight-line heuristic: the only one admissible for segments
      return model<BestFirstSearch<AnyAngleSpace, AnyGridHeuristic, AStarPriority, Obs>>(
          map, any_angle_space_, AnyGridHeuristic(map, HeuristicKind::euclidean), AStarPriority{}, observer, bf);
  }
  return std::make_unique<search::RefusingModel<CellId>>();
}

search::SearchHandle<CellId> GridPlanner::make_search(Algorithm algorithm, const search::QueryOptions<CellId>& query) const {
  // Without a sink the searches get the no-op observer, which compiles away.
  if (query.events == nullptr) return search::SearchHandle<CellId>(make_model(algorithm, query, search::NullObserver{}));
  return search::SearchHandle<CellId>(make_model(algorithm, query, search::EventObserver<CellId>(query.events)));
}

search::SearchHandle<CellId> GridPlanner::borrow_search(Algorithm algorithm,
                                                        const search::QueryOptions<CellId>& query) const {
  {
    const std::lock_guard lock(kept_lock_);
    for (KeptSearch& k : kept_) {
      if (!k.search.empty() && k.algorithm == algorithm && k.query == query) return std::move(k.search);
    }
  }
  return make_search(algorithm, query);
}

void GridPlanner::keep_search(Algorithm algorithm, const search::QueryOptions<CellId>& query,
                              search::SearchHandle<CellId> search) const {
  {
    const std::lock_guard lock(kept_lock_);
    KeptSearch* slot = &kept_[0];
    for (KeptSearch& k : kept_) {
      if (k.search.empty()) {
        slot = &k;
        break;
      }
      if (k.last_use < slot->last_use) slot = &k;
    }
    slot->algorithm = algorithm;
    slot->query = query;
    slot->last_use = ++kept_uses_;
    std::swap(slot->search, search);
  }
  // A search pushed out of its slot is freed here, outside the lock.
}

search::SearchResult<CellId> GridPlanner::plan(const CellId& start, const CellId& goal, Algorithm algorithm,
                                               const search::QueryOptions<CellId>& query) const {
  search::SearchResult<CellId> out;
  plan(start, goal, algorithm, query, out);
  return out;
}

Status GridPlanner::plan(CellId start, CellId goal, Algorithm algorithm, const search::QueryOptions<CellId>& query,
                         search::SearchResult<CellId>& out) const {
  search::QueryOptions<CellId> one_shot = query;
  if (grid::has_sparse_table(algorithm)) one_shot.table = search::NodeTableKind::sparse;
  search::SearchHandle<CellId> search = borrow_search(algorithm, one_shot);
  search.run(start, goal);
  search.copy_result(out);
  keep_search(algorithm, one_shot, std::move(search));
  return out.status;
}

bool GridPlanner::has_sparse_table(const search::QueryOptions<CellId>& query) const {
  return query.table == search::NodeTableKind::sparse && grid::has_sparse_table(options_.algorithm);
}

bool GridPlanner::stale() const {
  const JumpPointSpace* jumps = jump_ready_.load(std::memory_order_acquire);
  const JumpPointPlusSpace* jumps_plus = jump_plus_ready_.load(std::memory_order_acquire);
  return space_.stale() || (jumps && jumps->stale()) || (jumps_plus && jumps_plus->stale());
}

search::SyncReport GridPlanner::sync() {
  std::size_t n = space_.sync();
  if (jump_space_) n += jump_space_->sync();
  // Only the map's own edits: while it is behind a map it follows, a rebuild cannot help.
  if (owned_table_ && owned_table_->built_version() != map_->version()) {
    owned_table_->rebuild();
    n += map_->cell_count();
  }
  return {map_->version(), n};
}

}  // namespace waymark::grid
