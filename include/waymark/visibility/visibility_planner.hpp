#pragma once
/// @file VisibilityPlanner: the searches over a visibility graph between positions (Vec2);
/// the planner is the search source request queues take (search::SearchSource).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "waymark/core/geometry.hpp"
#include "waymark/search/position_search.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/search_source.hpp"
#include "waymark/visibility/visibility_graph.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::visibility {

/// A VisibilityQuery behind a SearchHandle<Vec2>: begin(start point, goal point) links both to
/// the graph as VisibilityQuery::begin does (same refusals: start_blocked / goal_blocked inside
/// an inflated obstacle, out_of_bounds outside the bounds or not finite); path() is the
/// query's points (start, corners, goal), cost its length.
using VisibilitySearchModel = search::PositionSearchModel<VisibilityQuery, &VisibilityPath::points>;

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
class VisibilityPlanner final : public search::SearchSource<Vec2> {
 public:
  explicit VisibilityPlanner(const VisibilityGraph& graph, const VisibilityQueryOptions& options = {})
      : graph_(&graph), options_(options) {}
  explicit VisibilityPlanner(const VisibilityGraph&&, const VisibilityQueryOptions& = {}) = delete;  // would dangle

  /// A search with options.query. Allocates the query's scratch.
  [[nodiscard]] search::SearchHandle<Vec2> make_search() const {
    return make_search(search::QueryOptions<Vec2>{.max_nodes = options_.query.max_nodes,
                                                  .partial_result = options_.query.partial_result});
  }
  /// A search with these query options (what a request queue calls). Allocates.
  [[nodiscard]] search::SearchHandle<Vec2> make_search(const search::QueryOptions<Vec2>& options) const override {
    VisibilityQueryOptions made = options_;
    made.query.max_nodes = options.max_nodes;
    made.query.partial_result = options.partial_result;
    return search::SearchHandle<Vec2>(std::make_unique<VisibilitySearchModel>(*graph_, made));
  }
  /// One query from `from` to `to`, to its end, on a search made for it: status, path (the
  /// points; cost its length, infinite_cost when none was found) and stats. Allocates.
  [[nodiscard]] search::SearchResult<Vec2> plan(Vec2 from, Vec2 to) const {
    return search::run_once(make_search(), from, to);
  }
  [[nodiscard]] std::uint64_t world_version() const override { return 0; }
  [[nodiscard]] bool stale() const override { return false; }
  /// The search's nodes: the graph's points, then the start and the goal.
  [[nodiscard]] std::size_t node_count() const override { return graph_->point_count() + 2; }

  [[nodiscard]] const VisibilityGraph& graph() const { return *graph_; }
  [[nodiscard]] const VisibilityQueryOptions& options() const { return options_; }

 private:
  const VisibilityGraph* graph_;
  VisibilityQueryOptions options_;
};

}  // namespace waymark::visibility
