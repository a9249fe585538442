#pragma once
/// @file NavPlanner: the searches over a navmesh between positions (Vec3), in any mode chosen
/// per call; the planner is the search source request queues take (search::SearchSource).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/query_filter.hpp"
#include "waymark/search/position_search.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/planner.hpp"

namespace waymark::navmesh {

/// A NavMeshQuery behind a SearchHandle<Vec3>: begin(start point, goal point) finds both
/// polygons as NavMeshQuery::begin does (same refusals: out_of_bounds off the mesh,
/// start_blocked / goal_blocked where the filter excludes the polygons); path() is the
/// query's corners (start and goal on the mesh surface, the bends between), cost its length.
using NavSearchModel = search::PositionSearchModel<NavMeshQuery, &NavPath::corners, QueryFilter>;

/// Hands out searches over one navmesh, each with its own NavMeshQuery (half extents and
/// filter as given here; the mode options.mode unless chosen per call), and answers one-shot
/// queries (plan). For a query object of your own per thread, NavMeshQuery is the same search
/// with the navmesh's own results (polygons, corners, length). A request's QueryOptions set the query's max_nodes and
/// partial_result (a request asks for partial paths itself, whatever options.query says);
/// weight, table and max_table_bytes do not apply (the portal and interval searches keep
/// their own tables) and its event sink is not used: the query's nodes are portals or
/// intervals, whose events go to the sinks in `options` (shared by every handle made, so
/// leave them null when handles run on several threads).
///
/// A navmesh never changes: world_version() is 0 and stale() false. Refers to the mesh, which
/// must outlive the source and its handles; holds nothing else shared, so any number of
/// threads may use one source.
class NavPlanner final : public search::PlannerBase<NavPlanner, Vec3, NavMode> {
 public:
  using PlannerBase::make_search;

  explicit NavPlanner(const NavMesh& mesh, const NavQueryOptions& options = {}, const QueryFilter& filter = {})
      : mesh_(&mesh), options_(options), filter_(filter) {}
  explicit NavPlanner(const NavMesh&&, const NavQueryOptions& = {}, const QueryFilter& = {}) = delete;  // would dangle

  /// What make_search() and plan() use when not told: options.mode, and options.query's node
  /// limit and partial results.
  [[nodiscard]] NavMode default_algorithm() const { return options_.mode; }
  [[nodiscard]] search::QueryOptions<Vec3> default_query() const { return options_.query.with_events<Vec3>(nullptr); }

  /// A search in `mode` with these query options (make_search() and make_search(query): the
  /// defaults above). Allocates the query's scratch (its two searches and the Polyanya space).
  [[nodiscard]] search::SearchHandle<Vec3> make_search(NavMode mode, const search::QueryOptions<Vec3>& query) const {
    NavQueryOptions made = options_;
    made.mode = mode;
    made.query = search::position_limits(made.query, query.limits());
    return search::SearchHandle<Vec3>(std::make_unique<NavSearchModel>(*mesh_, made, filter_));
  }
  // plan(from, to[, mode[, query]]): one query to its end on a search made for it
  // (search::PlannerBase): status, path (the corners; cost its length, infinite_cost when none
  // was found) and stats. Allocates. A navmesh never changes: stale() is false, sync() does
  // nothing, world_version() is 0.

  /// The portal graph's nodes (a portal per polygon corner, the start, the goal, then a node per link traversal): what
  /// the funnel and centroid modes' dense table holds.
  [[nodiscard]] std::size_t node_count() const override { return mesh_->data().corners.size() + 2 + mesh_->link_traversals().size(); }

  [[nodiscard]] const NavMesh& mesh() const { return *mesh_; }
  [[nodiscard]] const NavQueryOptions& options() const { return options_; }
  [[nodiscard]] const QueryFilter& filter() const { return filter_; }

 private:
  const NavMesh* mesh_;
  NavQueryOptions options_;
  QueryFilter filter_;
};

static_assert(search::Planner<NavPlanner>);

}  // namespace waymark::navmesh
