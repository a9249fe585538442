#pragma once
/// @file GridPlanner: the searches on a GridMap, any chosen per call, handed out as search
/// handles; the planner is the search source request queues take.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/algorithm.hpp"
#include "waymark/grid/any_angle.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/grid/jump_point.hpp"
#include "waymark/grid/jump_table.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/planner.hpp"

namespace waymark::grid {

struct GridPlannerOptions {
  /// The search make_search() and plan() hand out when not told another one; any other can
  /// be chosen per call (make_search(Algorithm, ...), plan(..., Algorithm)).
  Algorithm algorithm = Algorithm::astar;
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Unset: the tightest admissible one for the rule (octile, or manhattan when 4-connected).
  /// Jump searches always use octile, theta euclidean (it ignores this and the query's weight).
  std::optional<HeuristicKind> heuristic{};
  /// JPS+ only: a prebuilt table for this map (shared, e.g. loaded from a file; it must
  /// outlive the planner); null: the planner builds its own when JPS+ is first asked for.
  const JumpTable* jump_table = nullptr;
  /// Jump searches: how far one jump may scan (see JumpParams).
  JumpParams jump{};
  /// What every search handed out gets unless it is given other options: weight, node limit,
  /// partial results, event sink.
  search::QueryOptions<CellId> query{};
};

/// Why `algorithm` cannot run on `map` under `options` (jump searches need uniform costs and
/// no corner cutting), or nullopt when it can.
[[nodiscard]] std::optional<std::string> planner_unsupported(const GridMap& map, const GridPlannerOptions& options,
                                                             Algorithm algorithm);
/// The same for options.algorithm.
[[nodiscard]] std::optional<std::string> planner_unsupported(const GridMap& map, const GridPlannerOptions& options);

/// The searches over one map: a planner over an immutable world that is itself the search
/// source a request queue takes (search::SearchSource<CellId>).
///
/// The planner holds what the searches share and only read: the move masks, and for jump
/// searches the padded bit grid or the JPS+ table, and the idle searches plan() lends; no
/// query state of a caller's: make_search() hands out search handles, each with its own scratch — one per thread or per agent, all
/// reading the same planner — and plan() runs one query on a search it lends (below). Any
/// algorithm can be chosen per call; options.algorithm is the default.
///
/// Construction is O(cells) (the masks; a jump search's structure when it is the default).
/// Jump structures for another algorithm are built when first asked for (make_search is then
/// O(cells); thread-safe). After warm-up a handle's queries allocate only while its open list
/// and path grow past their largest size so far. plan() borrows a search the planner keeps
/// (up to kept_searches of them, each for one algorithm and query options) and puts it back,
/// so one-shot calls cost what a kept handle's queries do and, after the first of their kind,
/// allocate only the returned path (nothing at all into a SearchResult that held as long a
/// path); a call that finds none idle (more threads at once than kept_searches, or a new
/// algorithm or query options) makes one.
///
/// After the map is edited, the planner is stale: every search it handed out fails with
/// stale_world until sync() brings the shared data up to date (incrementally around the
/// edits; a JPS+ table the planner owns is rebuilt, one it was given must be rebuilt by its
/// owner). A map made from another (SizeClassMap::map()) is also stale while it is behind
/// that map (GridMap::behind()): its owner's sync() first, then the planner's. A combination that planner_unsupported() rejects — now: a jump search on a map
/// that has cost multipliers, or under another rule than no_corner_cutting — fails every query
/// at once with invalid_query | unsupported (unsupported() gives the reason); it never counts
/// as stale, so nothing waits for a sync() that cannot help. Jump searches asked for a goal
/// other than one cell fail with invalid_query. Jump searches return every cell of the path,
/// not only the jump points.
class GridPlanner final : public search::PlannerBase<GridPlanner, CellId, Algorithm> {
 public:
  using PlannerBase::make_search;
  using PlannerBase::plan;
  using PlannerBase::unsupported;

  explicit GridPlanner(const GridMap& map, const GridPlannerOptions& options = {});
  explicit GridPlanner(const GridMap&&, const GridPlannerOptions& = {}) = delete;  // would dangle
  ~GridPlanner() override;

  /// What make_search() and plan() use when not told: options.algorithm and options.query.
  [[nodiscard]] Algorithm default_algorithm() const { return options_.algorithm; }
  [[nodiscard]] search::QueryOptions<CellId> default_query() const { return options_.query; }

  /// A new search of `algorithm` with these query options (options().query for the planner's);
  /// make_search() and make_search(query) use the defaults above. The planner must outlive it.
  /// @warning O(cells) time and 32 bytes per cell for the best-first searches' dense node
  /// records, touched here so its first query is as fast as the rest.
  /// There is no make_search(Algorithm): make_search({}) would silently pick the algorithm
  /// that enum value 0 names instead of default query options.
  [[nodiscard]] search::SearchHandle<CellId> make_search(Algorithm algorithm,
                                                         const search::QueryOptions<CellId>& query) const;

  /// Searches plan() keeps between calls, to lend the next ones (the first of each kind is
  /// made, O(cells) for the dense ones): one per thread that calls plan() at once keeps it
  /// from making searches. Each keeps the scratch of its largest query until the planner goes.
  static constexpr std::size_t kept_searches = 4;

  /// One query from `start` to `goal`, to its end, on a search the planner lends (a sparse
  /// node table where the algorithm has one, so its scratch follows the queries, not the
  /// map): status, path and stats. Thread-safe, like make_search(). After the first call of
  /// an algorithm and query options it allocates only the returned path; the forms that take
  /// `out` below allocate nothing then.
  /// plan(start, goal) and plan(start, goal, algorithm) use the defaults above.
  [[nodiscard]] search::SearchResult<CellId> plan(const CellId& start, const CellId& goal, Algorithm algorithm,
                                                  const search::QueryOptions<CellId>& query) const;
  /// The same into `out` (reusing its capacity: no allocation once it held as long a path);
  /// returns out.status.
  Status plan(CellId start, CellId goal, search::SearchResult<CellId>& out) const {
    return plan(start, goal, options_.algorithm, options_.query, out);
  }
  Status plan(CellId start, CellId goal, Algorithm algorithm, search::SearchResult<CellId>& out) const {
    return plan(start, goal, algorithm, options_.query, out);
  }
  Status plan(CellId start, CellId goal, Algorithm algorithm, const search::QueryOptions<CellId>& query,
              search::SearchResult<CellId>& out) const;

  /// Whether the map was edited since the planner's shared data was last brought up to date.
  [[nodiscard]] bool stale() const override;
  /// Brings the shared data up to date with the map's edits.
  /// @warning Not thread-safe: nothing else may use the planner meanwhile (no search of it,
  /// no make_search() or plan()). Rebuilding an owned JPS+ table is O(cells).
  /// Returns the map's version and the cells recomputed.
  search::SyncReport sync();

  /// Set when `algorithm` (default: options.algorithm) cannot run on the map as it is now
  /// (see planner_unsupported).
  [[nodiscard]] std::optional<std::string> unsupported(Algorithm algorithm) const {
    return planner_unsupported(*map_, options_, algorithm);
  }
  [[nodiscard]] const GridMap& map() const { return *map_; }
  /// The map with the planner's diagonal rule: what grid::smooth_path() takes for its paths.
  [[nodiscard]] const GridSpace& space() const { return space_; }
  [[nodiscard]] const GridPlannerOptions& options() const { return options_; }

  // search::SearchSource<CellId>
  [[nodiscard]] std::uint64_t world_version() const override { return map_->version(); }
  [[nodiscard]] std::size_t node_count() const override { return map_->cell_count(); }
  /// Whether searches of options.algorithm made with `query` keep node scratch only for the
  /// nodes they reach (see grid::has_sparse_table).
  [[nodiscard]] bool has_sparse_table(const search::QueryOptions<CellId>& query) const override;

 private:
  template <class Obs>
  std::unique_ptr<search::SearchModel<CellId>> make_model(Algorithm algorithm,
                                                          const search::QueryOptions<CellId>& query,
                                                          Obs observer) const;
  /// The jump structure for `algorithm`, built on first use; null when the rule rules it out.
  const JumpPointSpace* jump_space() const;
  const JumpPointPlusSpace* jump_plus_space() const;
  /// A kept search of `algorithm` with `query` (taken out of its slot), or a new one.
  search::SearchHandle<CellId> borrow_search(Algorithm algorithm, const search::QueryOptions<CellId>& query) const;
  /// Keeps `search` for the next borrow_search() of its kind, in a free slot or the least
  /// recently used one.
  void keep_search(Algorithm algorithm, const search::QueryOptions<CellId>& query,
                   search::SearchHandle<CellId> search) const;

  const GridMap* map_;
  GridPlannerOptions options_;
  GridSpace space_;
  AnyAngleSpace any_angle_space_;  ///< theta: space_ with straight segments
  // Built on first use under call_once; stale() reads the atomics, so a thread asking whether
  // the planner is stale never races one building a structure.
  mutable std::once_flag jump_once_;
  mutable std::once_flag jump_plus_once_;
  mutable std::unique_ptr<JumpPointSpace> jump_space_;    ///< jps
  mutable std::unique_ptr<JumpTable> owned_table_;        ///< jps-plus without a shared table
  mutable std::unique_ptr<JumpPointPlusSpace> jump_plus_space_;
  mutable std::atomic<const JumpPointSpace*> jump_ready_{nullptr};
  mutable std::atomic<const JumpPointPlusSpace*> jump_plus_ready_{nullptr};
  /// What plan() lends: slots of idle searches (an empty handle: a free slot), under
  /// kept_lock_. Declared last, so they go before the structures they search.
  struct KeptSearch {
    Algorithm algorithm = Algorithm::astar;
    search::QueryOptions<CellId> query{};
    search::SearchHandle<CellId> search;
    std::uint64_t last_use = 0;  ///< kept_uses_ when it was kept: the least recent goes first
  };
  mutable std::mutex kept_lock_;
  mutable std::array<KeptSearch, kept_searches> kept_{};
  mutable std::uint64_t kept_uses_ = 0;
};

/// Whether GridPlanner searches of this algorithm can run over a sparse node table
/// (QueryOptions::table; src/grid/sparse_searches.cpp): the best-first searches over cells.
/// bfs, dfs and ida keep scratch of their own; jps, jps-plus and theta run over other spaces.
[[nodiscard]] constexpr bool has_sparse_table(Algorithm a) {
  return a == Algorithm::astar || a == Algorithm::wastar || a == Algorithm::dijkstra || a == Algorithm::greedy;
}

static_assert(search::Planner<GridPlanner>);

}  // namespace waymark::grid
