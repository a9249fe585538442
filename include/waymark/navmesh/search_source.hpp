#pragma once
/// @file NavSearchSource: a navmesh seen as a search::SearchSource over positions (Vec3), so
/// that path requests on navmeshes go through search::PathRequestQueue.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/query_filter.hpp"
#include "waymark/search/position_search.hpp"
#include "waymark/search/search_source.hpp"

namespace waymark::navmesh {

/// A NavMeshQuery behind a SearchHandle<Vec3>: begin(start point, goal point) finds both
/// polygons as NavMeshQuery::begin does (same refusals: out_of_bounds off the mesh,
/// start_blocked / goal_blocked where the filter excludes the polygons); path() is the
/// query's corners (start and goal on the mesh surface, the bends between), cost its length.
using NavSearchModel = search::PositionSearchModel<NavMeshQuery, &NavPath::corners, QueryFilter>;

/// Hands out searches over one navmesh, each with its own NavMeshQuery (mode, half extents
/// and filter as given here). A request's QueryOptions set the query's max_nodes and
/// partial_result (a request asks for partial paths itself, whatever options.query says);
/// weight, table and max_table_bytes do not apply (the portal and interval searches keep
/// their own tables) and its event sink is not used: the query's nodes are portals or
/// intervals, whose events go to the sinks in `options` (shared by every handle made, so
/// leave them null when handles run on several threads).
///
/// A navmesh never changes: world_version() is 0 and stale() false. Refers to the mesh, which
/// must outlive the source and its handles; holds nothing else shared, so any number of
/// threads may use one source.
class NavSearchSource final : public search::SearchSource<Vec3> {
 public:
  explicit NavSearchSource(const NavMesh& mesh, const NavQueryOptions& options = {}, const QueryFilter& filter = {})
      : mesh_(&mesh), options_(options), filter_(filter) {}
  explicit NavSearchSource(NavMesh&&, const NavQueryOptions& = {}, const QueryFilter& = {}) = delete;  // would dangle

  /// Allocates the query's scratch (its two searches and the Polyanya space).
  [[nodiscard]] search::SearchHandle<Vec3> make_search(const search::QueryOptions<Vec3>& options) const override {
    NavQueryOptions made = options_;
    made.query.max_nodes = options.max_nodes;
    made.query.partial_result = options.partial_result;
    return search::SearchHandle<Vec3>(std::make_unique<NavSearchModel>(*mesh_, made, filter_));
  }
  [[nodiscard]] std::uint64_t world_version() const override { return 0; }
  [[nodiscard]] bool stale() const override { return false; }
  /// The portal graph's nodes (a portal per polygon corner, then the start and the goal): what
  /// the funnel and centroid modes' dense table holds.
  [[nodiscard]] std::size_t node_count() const override { return mesh_->data().corners.size() + 2; }

  [[nodiscard]] const NavMesh& mesh() const { return *mesh_; }
  [[nodiscard]] const NavQueryOptions& options() const { return options_; }
  [[nodiscard]] const QueryFilter& filter() const { return filter_; }

 private:
  const NavMesh* mesh_;
  NavQueryOptions options_;
  QueryFilter filter_;
};

}  // namespace waymark::navmesh
