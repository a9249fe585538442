#pragma once
/// @file NavMeshQuery: paths between points on a navmesh, as Detour's dtNavMeshQuery gives them
/// (nearest polygons, a polygon corridor, its corners), through the one search engine.

#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/navmesh/funnel.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/query_filter.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/handle.hpp"

namespace waymark::navmesh {

namespace detail {
class LinkStartTree;
class PolyanyaSpace;
struct QueryEnds;
}  // namespace detail

/// How a NavMeshQuery finds its paths.
enum class NavMode : std::uint8_t {
  /// The shortest path on the mesh: Polyanya, an exact any-angle search, costed in 3D. Of
  /// the paths of straight segments (in plan on the polygons the filter passes) bending only
  /// at mesh vertices, the one whose corners joined by straight 3D segments are the shortest
  /// in 3D: never longer than the funnel mode's or Detour's path; on a flat mesh, the shortest
  /// in plan. Area costs do not steer it: a query whose filter gives a cost other than 1 to an
  /// area of polygons it passes is answered by the funnel search (NavPath::method says so).
  shortest,
  /// A* over the portals between polygons, then the funnel: fast, as long as Detour's paths,
  /// and not always the shortest.
  funnel,
  /// A* over the centroid graph (each polygon's centroid, joined to its neighbours' through
  /// the shared edge's midpoint); the path is that chain of points, unsmoothed: the crude
  /// graph of the source material, kept for comparison.
  centroids,
};

/// Each mode's spelling (CLI, JSON).
inline constexpr EnumNames<NavMode, 3> nav_mode_names{
    {{NavMode::shortest, "shortest"}, {NavMode::funnel, "funnel"}, {NavMode::centroids, "centroids"}}};

/// A node of the shortest mode's search (Polyanya): a root, where the path last bent (a mesh
/// vertex, or the start or goal: vertex_count() and vertex_count() + 1), and the interval of a
/// polygon edge it sees, entering `poly` through its edge at corner `edge` (left and right as the
/// root sees them, in plan). The start and the goal have no edge (invalid_value).
struct IntervalNode {
  std::uint32_t root = PolyId::invalid_value;
  std::uint32_t edge = PolyId::invalid_value;
  PolyId poly;
  Vec2 left;
  Vec2 right;
  friend bool operator==(const IntervalNode&, const IntervalNode&) = default;
};

struct NavQueryOptions {
  NavMode mode = NavMode::shortest;
  /// Half the size of the box searched around each end point for its polygon, world units
  /// (RecastDemo's pick extents).
  Vec3 half_extents{2, 4, 2};
  /// The search's limits: max_nodes, and partial_result (off by default, as for every world;
  /// Detour's findPath always gives one): an unreachable goal gives the path to the polygon that
  /// got closest, flagged partial_result. weight, table and max_table_bytes do not apply.
  search::QueryLimits query{};
  /// The funnel and centroid modes' event stream (its nodes are portals: see
  /// NavMeshQuery::search()); null: none.
  search::EventSink<std::uint32_t>* portal_events = nullptr;
  /// The shortest mode's event stream (its nodes are intervals; the chains of single
  /// straight-on successors it crosses at once are not reported); null: none.
  search::EventSink<IntervalNode>* interval_events = nullptr;
};

/// Where a path takes an off-mesh link: corners[corner] is where it leaves the mesh (the link's
/// resolved start, or its end when taken backwards) and corners[corner + 1] where it lands.
struct LinkUse {
  std::size_t corner = 0;
  std::uint32_t link = 0;     ///< index into NavMeshData::links
  std::uint32_t user_id = 0;  ///< the link's OffMeshLink::user_id
  bool reversed = false;      ///< taken end → start (a bidirectional link)
  friend bool operator==(const LinkUse&, const LinkUse&) = default;
};

/// A path across a navmesh.
struct NavPath {
  Status status;
  /// The polygons passed through, from the start's to the goal's (or the closest one's).
  std::vector<PolyId> polys;
  /// The start point, the corners the path bends at, and the goal point (the point reached,
  /// for a partial path), on the mesh surface.
  std::vector<Vec3> corners;
  /// The off-mesh links the path takes, in order (each adds its two ends to `corners`).
  std::vector<LinkUse> links;
  /// The 3D length of `corners` as a polyline (a link counts as the straight line between its
  /// ends, whatever it costs); infinite_cost when no path was found.
  double length = infinite_cost;
  /// The search that answered: the query's mode, except that a shortest-mode query whose
  /// filter gives a cost other than 1 to an area of polygons it passes is answered by the
  /// funnel search (which honours area costs; Polyanya does not), and says so here: funnel.
  NavMode method = NavMode::shortest;
};

/// Finds paths on one navmesh, by options.mode:
/// - shortest (the default): Polyanya over the polygons the filter passes; the path is the
///   shortest measured in 3D between its corners (NavMode::shortest says exactly what that
///   means). Area costs do not steer Polyanya (a distance search): when the filter gives a
///   cost other than 1 to an area that a polygon it passes has, the funnel search answers
///   instead, and the path's `method` is funnel.
/// - funnel: A* over the portals between polygons (from the start point to each portal's
///   midpoint and on, each stretch costing its length times the area cost of the polygon it
///   crosses), then the funnel algorithm over the corridor found. As Detour's paths.
/// - centroids: the same search with each portal placed at the centroid of the polygon it
///   enters (reached through the edge's midpoint); the path is that chain, not smoothed.
///
/// Every mode takes the mesh's active off-mesh links (NavMesh::link_traversals) whose flags,
/// and whose landing polygon's, the filter passes, when that is cheaper: a link costs its cost
/// (0: its 3D length) times the filter's area_cost[link.area] (the shortest mode walks at its
/// 3D length between corners, cost 1). Each link taken adds its two ends to the corners and a LinkUse to
/// NavPath::links (docs/levels.md, "Off-mesh links").
///
/// Steppable (begin, then step with a budget), and observable through options.query.events.
/// Owns its scratch: after warm-up a query allocates nothing. Memory: besides the searches'
/// tables, where each portal node stands (40 bytes per mesh corner: point, polygon, onward list)
/// and portal lists (32 bytes per entry: each polygon's portals, then each portal's onward ones;
/// 1.1–1.4 entries per corner on Recast meshes), and the portals of each island (32 bytes each),
/// for partial paths; on a mesh with off-mesh links, about 200 bytes per link traversal (each
/// polygon's link starts in a tree of boxes and both searches' memory of the landings reached:
/// a query relaxes the links a node can still improve, not every link from every node;
/// docs/navmesh.md, "Off-mesh links in bulk"). Not thread-safe: one per thread; any number may
/// share the mesh, which must outlive them.
class NavMeshQuery {
 public:
  explicit NavMeshQuery(const NavMesh& mesh, const NavQueryOptions& options = {});
  NavMeshQuery(const NavMesh&&, const NavQueryOptions& = {}) = delete;  // would dangle
  ~NavMeshQuery();
  NavMeshQuery(const NavMeshQuery&) = delete;
  NavMeshQuery& operator=(const NavMeshQuery&) = delete;

  /// Starts a query from `from` to `to` over the polygons `filter` passes. Failure flagged
  /// invalid_query, at once, when no such polygon lies within the half extents of either point
  /// or a point is not finite, or when a filter's area cost is below 1 or not finite; plus
  /// out_of_bounds for an end off the mesh (no polygon near it at all, or not finite), or
  /// start_blocked / goal_blocked for one whose polygons the filter excludes. Ends on
  /// islands no portal joins fail unreachable (with a partial path when asked for).
  Status begin(Vec3 from, Vec3 to, const QueryFilter& filter = {});
  /// Advances the query within `budget` (default: to the end); path() is filled when it ends.
  Status step(const search::Budget& budget = {});
  /// begin() then step() to the end.
  Status find_path(Vec3 from, Vec3 to, const QueryFilter& filter = {});
  /// The next step() ends the query: Failure, flagged cancelled.
  void cancel();

  [[nodiscard]] Status status() const { return path_.status; }
  /// The last query's path; empty unless it succeeded or is partial. It is the query's own,
  /// rewritten by the next begin() or find_path(): copy it (`const NavPath kept = q.path();`)
  /// to keep it past the next query.
  [[nodiscard]] const NavPath& path() const { return path_; }
  [[nodiscard]] const SearchStats& stats() const;
  [[nodiscard]] const NavMesh& mesh() const { return *mesh_; }
  /// The funnel mode's portal search. Its nodes are corner indices k of the mesh (the portal on
  /// edge k, entered from its polygon), then one start node and one goal node.
  [[nodiscard]] search::SearchHandle<std::uint32_t>& portal_search() { return portals_search_; }
  /// The shortest mode's search (Polyanya).
  [[nodiscard]] search::SearchHandle<IntervalNode>& interval_search() { return intervals_search_; }

 private:
  class Space;
  struct Heuristic;
  /// The polygon a partial path ends in when the filter passes every polygon: entered through
  /// the portal of the start's island nearest the goal (the start's own when nearer).
  [[nodiscard]] PolyId nearest_on_start_island() const;
  /// Whether `filter` gives a cost other than 1 to an area that polygons it passes have.
  [[nodiscard]] bool costs_steer(const QueryFilter& filter) const;
  void finish();
  void finish_portals();
  void finish_intervals();

  const NavMesh* mesh_;
  NavQueryOptions options_;
  std::unique_ptr<detail::LinkStartTree> link_starts_;  // each polygon's off-mesh link starts, in boxes
  std::unique_ptr<Space> space_;
  std::unique_ptr<detail::PolyanyaSpace> polyanya_;
  search::SearchHandle<std::uint32_t> portals_search_;
  search::SearchHandle<IntervalNode> intervals_search_;
  std::unique_ptr<detail::QueryEnds> ends_;
  NavPath path_;
  std::vector<Portal> portals_;
  std::vector<Vec3> stretch_;  // the funnel's corners of one stretch between links
  Vec3 to_;
  NavMode active_;  // the search answering the current query (see NavPath::method)
  struct AreaFlags {
    std::uint8_t area;
    std::uint16_t flags;
    friend bool operator==(const AreaFlags&, const AreaFlags&) = default;
  };
  std::vector<AreaFlags> area_flags_;  // the mesh's distinct (area, flags) pairs
  /// A portal of an island's polygon: its edge's midpoint and the neighbour across.
  struct IslandPortal {
    Vec3 midpoint;
    PolyId next;
  };
  std::vector<IslandPortal> island_portals_;  // by island, by polygon id, by edge
  std::vector<std::uint32_t> island_begin_;   // island i's are island_portals_[island_begin_[i], [i + 1])
};

}  // namespace waymark::navmesh

template <>
struct std::hash<waymark::navmesh::IntervalNode> {
  std::size_t operator()(const waymark::navmesh::IntervalNode& n) const noexcept {
    // + 0.0 makes -0.0 hash as 0.0, the value it compares equal to.
    const auto bits = [](double v) { return std::bit_cast<std::uint64_t>(v + 0.0); };
    std::uint64_t h = (std::uint64_t{n.root} << 32) ^ n.edge;
    for (double v : {n.left.x, n.left.y, n.right.x, n.right.y}) h = std::rotl(h, 21) ^ bits(v);
    return static_cast<std::size_t>(waymark::mix64(h));
  }
};
