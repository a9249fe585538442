#pragma once
/// @file VisibilityPlanner: the searches over a visibility graph between positions (Vec2);
/// the planner is the search source request queues take (search::SearchSource).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "waymark/core/geometry.hpp"
#include "waymark/search/position_search.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/planner.hpp"
#include "waymark/visibility/visibility_graph.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::visibility {

/// A VisibilityQuery behind a SearchHandle<Vec2>: begin(start point, goal point) links both to
/// the graph as VisibilityQuery::begin does (same refusals: start_blocked / goal_blocked inside
/// an inflated obstacle, out_of_bounds outside the bounds or not finite); path() is the
/// query's points (start, corners, goal), cost its length.
using VisibilitySearchModel = search::PositionSearchModel<VisibilityQuery, &VisibilityPath::points>;

/// The searches a VisibilityPlanner can run: one, A* over the graph (the planner shape's choice
/// per call, search::Planner).
enum class Algorithm : std::uint8_t { astar = 0 };

/// Hands out searches over one visibility graph, each with its own VisibilityQuery. A
/// request's QueryOptions set the query's max_nodes and partial_result; weight, table and
/// max_table_bytes do not apply (the query keeps its own table over the graph's points) and its
/// event sink is not used: the query's nodes are point indices, whose events go to the sink in
/// `options` (shared by every handle made, so leave it null when handles run on several
/// threads).
///
/// A visibility graph never changes: world_version() is 0 and stale() false. Refers to the
/// graph, which must outlive the source and its handles; any number of threads may use one
/// source.
class VisibilityPlanner final : public search::PlannerBase<VisibilityPlanner, Vec2, Algorithm> {
 public:
  using PlannerBase::make_search;

  explicit VisibilityPlanner(const VisibilityGraph& graph, const VisibilityQueryOptions& options = {})
      : graph_(&graph), options_(options) {}
  explicit VisibilityPlanner(const VisibilityGraph&&, const VisibilityQueryOptions& = {}) = delete;  // would dangle

  /// What make_search() and plan() use when not told: A*, and options.query's node limit and
  /// partial results.
  [[nodiscard]] Algorithm default_algorithm() const { return Algorithm::astar; }
  [[nodiscard]] search::QueryOptions<Vec2> default_query() const { return options_.query.with_events<Vec2>(nullptr); }

  /// A search with these query options (make_search() and make_search(query): the defaults
  /// above). Allocates the query's scratch.
  [[nodiscard]] search::SearchHandle<Vec2> make_search(Algorithm, const search::QueryOptions<Vec2>& query) const {
    VisibilityQueryOptions made = options_;
    made.query = search::position_limits(made.query, query.limits());
    return search::SearchHandle<Vec2>(std::make_unique<VisibilitySearchModel>(*graph_, made));
  }
  // plan(from, to[, algorithm[, query]]): one query to its end on a search made for it
  // (search::PlannerBase): status, path (the points; cost its length, infinite_cost when none
  // was found) and stats. Allocates. A visibility graph never changes: stale() is false,
  // sync() does nothing, world_version() is 0.

  /// The search's nodes: the graph's points, then the start and the goal.
  [[nodiscard]] std::size_t node_count() const override { return graph_->point_count() + 2; }

  [[nodiscard]] const VisibilityGraph& graph() const { return *graph_; }
  [[nodiscard]] const VisibilityQueryOptions& options() const { return options_; }

 private:
  const VisibilityGraph* graph_;
  VisibilityQueryOptions options_;
};

static_assert(search::Planner<VisibilityPlanner>);

}  // namespace waymark::visibility
