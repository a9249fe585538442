#pragma once
/// @file VisibilityQuery: shortest paths between two free points of a VisibilityGraph. The
/// start and the goal join the graph per query as two overlay nodes whose arcs live in the
/// query (the graph is never copied or changed); A* with the straight-line heuristic runs on
/// the one search engine, behind a run-time handle.

#include <cstdint>
#include <memory>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::visibility {

struct VisibilityQueryOptions {
  /// The search's limits: max_nodes, and partial_result (a failed query leaves the path to the
  /// point nearest the goal). weight, table and max_table_bytes do not apply.
  search::QueryLimits query{};
  /// The search's event stream; null: none. Its nodes are the graph's points, then the start
  /// (point_count()) and the goal (point_count() + 1).
  search::EventSink<std::uint32_t>* events = nullptr;
};

/// A path among the inflated obstacles.
struct VisibilityPath {
  Status status;
  /// The start, the corners the path bends at, and the goal (a partial path: the point reached).
  std::vector<Vec2> points;
  /// The length of `points` as a polyline, world units; infinite_cost when no path was found.
  double length = infinite_cost;
};

/// Finds shortest paths on one VisibilityGraph.
///
/// begin() checks both ends (Failure flagged invalid_query, at once, when either is not finite,
/// lies inside an inflated obstacle — plus start_blocked / goal_blocked — or outside the
/// bounds — plus out_of_bounds, as for not finite) and links them to every point they
/// see: O(N) tangency tests and a segment test for each survivor. step() runs A* over the graph
/// and the two overlay nodes. Owns all scratch: after warm-up a query allocates nothing. Not
/// thread-safe: one per thread; any number may share the graph, which must outlive them.
class VisibilityQuery {
 public:
  explicit VisibilityQuery(const VisibilityGraph& graph, const VisibilityQueryOptions& options = {});
  VisibilityQuery(const VisibilityGraph&&, const VisibilityQueryOptions& = {}) = delete;  // would dangle
  ~VisibilityQuery();
  VisibilityQuery(const VisibilityQuery&) = delete;
  VisibilityQuery& operator=(const VisibilityQuery&) = delete;

  /// Starts a query from `from` to `to`; the previous path is discarded.
  Status begin(Vec2 from, Vec2 to);
  /// Advances the search within `budget` (default: to the end); path() is filled when it ends.
  Status step(const search::Budget& budget = {});
  /// begin() then step() to the end.
  Status find_path(Vec2 from, Vec2 to);
  /// The next step() ends the query: Failure, flagged cancelled.
  void cancel() { search_.cancel(); }

  [[nodiscard]] Status status() const { return path_.status; }
  /// The last query's path; empty unless it succeeded or is partial. Valid until begin().
  [[nodiscard]] const VisibilityPath& path() const { return path_; }
  [[nodiscard]] const SearchStats& stats() const { return search_.stats(); }
  [[nodiscard]] const VisibilityGraph& graph() const { return *graph_; }
  /// The search over the points and the overlay nodes (step it, observe it through the
  /// options' event sink). Begin queries with begin() above, which sets up the overlay.
  [[nodiscard]] search::SearchHandle<std::uint32_t>& search() { return search_; }
  /// The overlay nodes' ids and every node's position (valid for the current query).
  [[nodiscard]] std::uint32_t start_node() const;
  [[nodiscard]] std::uint32_t goal_node() const;
  [[nodiscard]] Vec2 position(std::uint32_t node) const;
  /// Arcs the last begin() added: from the start, into the goal (the direct one counted once).
  [[nodiscard]] std::size_t overlay_arc_count() const;

 private:
  class Space;
  struct Heuristic;
  void finish();

  const VisibilityGraph* graph_;
  std::unique_ptr<Space> space_;
  search::SearchHandle<std::uint32_t> search_;
  VisibilityPath path_;
};

}  // namespace waymark::visibility
