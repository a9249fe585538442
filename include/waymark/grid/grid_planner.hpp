#pragma once
/// @file GridPlanner: any of the searches on a GridMap, chosen at run time, handed out as
/// search handles.

#include <cstddef>
#include <memory>
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

namespace waymark::grid {

struct GridPlannerOptions {
  Algorithm algorithm = Algorithm::astar;
  DiagonalRule diagonal = DiagonalRule::no_corner_cutting;
  /// Unset: the tightest admissible one for the rule (octile, or manhattan when 4-connected).
  /// Jump searches always use octile, theta euclidean (it ignores this and the query's weight).
  std::optional<HeuristicKind> heuristic{};
  /// JPS+ only: a prebuilt table for this map (shared, e.g. loaded from a file; it must
  /// outlive the planner); null: the planner builds its own.
  const JumpTable* jump_table = nullptr;
  /// Jump searches: how far one jump may scan (see JumpParams).
  JumpParams jump{};
  /// What every search handed out gets unless make_search() is given other options: weight,
  /// node limit, partial results, event sink.
  search::QueryOptions<CellId> query{};
};

/// Why `options` cannot run on `map` (jump searches need uniform costs and no corner
/// cutting), or nullopt when they can.
[[nodiscard]] std::optional<std::string> planner_unsupported(const GridMap& map, const GridPlannerOptions& options);

/// Any search over one map, chosen at run time.
///
/// The planner holds what the searches share and only read: the move masks, and for jump
/// searches the padded bit grid or the JPS+ table. make_search() hands out search handles,
/// each with its own scratch: one per thread or per agent, all reading the same planner. For
/// one query at a time on one thread, plan() / path() / stats() drive the planner's own
/// handle. Construction is the warm-up: O(cells) time and memory (masks, and the node records
/// of its own handle), after which plan() allocates only while the open list and path grow
/// past their largest size so far.
///
/// After the map is edited, the planner is stale: every search it handed out fails with
/// stale_world until sync() brings the shared data up to date (incrementally around the
/// edits; a JPS+ table the planner owns is rebuilt, one it was given must be rebuilt by its
/// owner). A combination that planner_unsupported() rejects — now: a jump search on a map
/// that has cost multipliers — fails every query at once with invalid_query | unsupported
/// (unsupported() gives the reason); it never counts as stale, so nothing waits for a sync()
/// that cannot help. Jump searches asked for a goal other than one cell fail with invalid_query. Jump searches
/// return every cell of the path, not only the jump points.
/// @warning jps-plus without options.jump_table builds a JPS+ table here: O(cells) time and
/// 16 bytes per cell.
class GridPlanner : public search::PlannerHandle<CellId> {
 public:
  explicit GridPlanner(const GridMap& map, const GridPlannerOptions& options = {});
  explicit GridPlanner(GridMap&&, const GridPlannerOptions& = {}) = delete;  // would dangle
  ~GridPlanner();
  GridPlanner(const GridPlanner&) = delete;
  GridPlanner& operator=(const GridPlanner&) = delete;

  /// A new search of the planner's algorithm, with options.query. The planner must outlive it.
  /// @warning O(cells) time and 32 bytes per cell for the best-first searches' node records,
  /// touched here so its first query is as fast as the rest.
  [[nodiscard]] search::SearchHandle<CellId> make_search() const { return make_search(options_.query); }
  /// The same with other per-query options.
  [[nodiscard]] search::SearchHandle<CellId> make_search(const search::QueryOptions<CellId>& query) const;

  /// Whether the map was edited since the planner's shared data was last brought up to date.
  [[nodiscard]] bool stale() const;
  /// Brings the shared data up to date with the map's edits. Returns the cells recomputed.
  /// @warning Not thread-safe: no search of this planner may run meanwhile. Rebuilding an
  /// owned JPS+ table is O(cells).
  std::size_t sync();

  /// Set when the options cannot run on the map as it is now (see planner_unsupported).
  [[nodiscard]] std::optional<std::string> unsupported() const { return planner_unsupported(*map_, options_); }
  [[nodiscard]] const GridMap& map() const { return *map_; }
  [[nodiscard]] const GridSpace& space() const { return space_; }
  [[nodiscard]] const GridPlannerOptions& options() const { return options_; }

 private:
  template <class Obs>
  std::unique_ptr<search::SearchModel<CellId>> make_model(const search::QueryOptions<CellId>& query, Obs observer) const;

  const GridMap* map_;
  GridPlannerOptions options_;
  GridSpace space_;
  AnyAngleSpace any_angle_space_;  ///< theta: space_ with straight segments
  std::unique_ptr<JumpPointSpace> jump_space_;    ///< jps
  std::unique_ptr<JumpTable> owned_table_;        ///< jps-plus without a shared table
  std::unique_ptr<JumpPointPlusSpace> jump_plus_space_;
};

}  // namespace waymark::grid
