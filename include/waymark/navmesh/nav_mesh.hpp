#pragma once
/// @file NavMesh: a walkable surface as convex polygons in 3D with shared-edge adjacency
/// (portals), per-polygon area type and flags, and a spatial index for nearest-polygon queries.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/query_filter.hpp"

namespace waymark::navmesh {

/// The most corners a polygon may have (Recast builds at most 6 by default).
inline constexpr std::size_t max_polygon_corners = 64;
/// The flag every polygon gets from the triangle builder: walkable (RecastDemo's SAMPLE_POLYFLAGS_WALK).
inline constexpr std::uint16_t walk_flag = 0x01;

/// A link between two points of the mesh that is not walked over its surface: a jump down a
/// ledge, a ladder, a teleporter, a door (Detour's off-mesh connection, Unity's off-mesh link).
/// A search may take it from `start` to `end` (and back when bidirectional) when the polygon
/// under each end passes its filter and the link's own flags pass too.
struct OffMeshLink {
  Vec3 start;
  Vec3 end;
  /// How far each end may lie from the mesh and still join it (world units, Detour's
  /// offMeshConRad). [> 0, finite]
  double radius = 0.5;
  bool bidirectional = false;
  /// Its area type: the filter's area_cost[area] scales its cost. [< max_areas]
  std::uint8_t area = 0;
  std::uint16_t flags = walk_flag;
  /// What taking it costs before the area cost, in world units of distance: 0 means its 3D
  /// length (as Detour). [>= 0, finite]
  double cost = 0;
  /// The game's own number for it, reported with each path that takes it (e.g. which
  /// animation to play).
  std::uint32_t user_id = 0;
};

/// The most off-mesh links one mesh may hold. [Limit: 2^20]
inline constexpr std::size_t max_links = std::size_t{1} << 20;

/// A link's ends as the mesh joined them (NavMesh::resolved_link). Each end joins the polygon
/// nearest to it (as NavMesh::nearest_poly measures, any polygon with a flag) whose nearest
/// point lies within the link's radius horizontally (in plan) and within max(climb, radius)
/// vertically, as Detour connects its off-mesh connections.
struct ResolvedLink {
  /// Whether both ends joined a polygon. An inactive link stays listed and queryable, but no
  /// search takes it.
  bool active = false;
  /// The polygons the ends joined (invalid for an end that joined nothing).
  PolyId start_poly;
  PolyId end_poly;
  /// The points of those polygons nearest to the ends (the link's own point for an end that
  /// joined nothing): where a path leaves and lands.
  Vec3 start;
  Vec3 end;
  /// What taking it costs before the filter's area cost: OffMeshLink::cost, or the 3D distance
  /// between `start` and `end` when that is 0.
  double cost = 0;
};

/// One way across an active link, as the searches expand it: from a point of `from_poly` to a
/// point of `to_poly` (end → start for the way back of a bidirectional link).
struct LinkTraversal {
  std::uint32_t link = 0;  ///< index into NavMeshData::links
  PolyId from_poly;
  PolyId to_poly;
  Vec3 from;
  Vec3 to;
  double cost = 0;  ///< ResolvedLink::cost
  bool reversed = false;  ///< the way back of a bidirectional link (end → start)
};

/// What is wrong with `link` (an end not finite, a radius not > 0, a cost below 0, an area
/// type past max_areas), or nullopt: what NavMesh, bakes and tiled worlds check links with.
/// The reason starts with what it is about, the value shown ("radius must be finite and > 0,
/// got 0"): it reads after "link 3: " and after "an off-mesh link's " alike.
[[nodiscard]] std::optional<std::string> find_link_problem(const OffMeshLink& link);

/// The plan of a point: its ground coordinates (x, z), Y being up.
[[nodiscard]] constexpr Vec2 plan(Vec3 p) { return {p.x, p.z}; }

/// What a builder hands to NavMesh. Polygon p's corners are corners[poly_begin[p] …
/// poly_begin[p + 1]), vertex indices wound counter-clockwise in plan (x, z) coordinates;
/// neighbors[k] is the polygon across the edge from corner k to the next corner of its polygon,
/// or an invalid PolyId for a wall.
struct NavMeshData {
  std::vector<Vec3> vertices;
  std::vector<std::uint32_t> poly_begin{0};
  std::vector<std::uint32_t> corners;
  std::vector<PolyId> neighbors;
  std::vector<std::uint8_t> areas;
  std::vector<std::uint16_t> flags;
  /// Optional surface detail (Recast's detail mesh): polygon p's heights come from the
  /// triangles detail[detail_begin[p] … detail_begin[p + 1]) instead of its corners' plane.
  /// Empty, or detail_begin has one entry per polygon and one more.
  std::vector<std::uint32_t> detail_begin;
  std::vector<std::array<Vec3, 3>> detail;
  /// The highest step the mesh was built for (world units; Recast's agent climb, as in a
  /// Detour tile): nearest_poly counts a point this close above or below a polygon as on it.
  double climb = 0;
  /// Off-mesh links. Each end joins the polygon nearest to it within the link's radius (see
  /// ResolvedLink); at most max_links.
  std::vector<OffMeshLink> links;
};

/// The polygon nearest to a point, and the point on it nearest to the point.
struct NearestPoly {
  PolyId poly;
  Vec3 point;
};

/// What a raycast along the mesh surface found (NavMesh::raycast). Reused between calls, its
/// polygon list keeps its capacity.
struct RaycastHit {
  /// Whether a wall (an edge without a neighbour the filter passes) stopped the ray.
  bool hit = false;
  /// How far along from → to (in plan) the ray got: 1 when it reached `to`, else where it met the wall.
  double t = 0;
  /// Where the ray stopped, on the surface of the last polygon.
  Vec3 point;
  /// The wall's normal in plan (y = 0, unit length), pointing back to the side the ray came
  /// from; zero when nothing was hit.
  Vec3 normal;
  /// The polygons the ray crossed, from the start's, in order.
  std::vector<PolyId> polys;
};

/// An immutable navigation mesh. Read-only after construction: share it among threads.
class NavMesh {
 public:
  /// Checks `data` and indexes it. Throws BuildError, naming the polygon, when a corner is out
  /// of range, a polygon has fewer than 3 or more than max_polygon_corners corners, is not
  /// convex and counter-clockwise in plan, has zero area, or a neighbour is not reciprocal
  /// across the same edge; naming the link, when a link has a point that is not finite, a
  /// radius not > 0, a cost not >= 0 (or not finite), an area not below max_areas, or there are
  /// more than max_links. Then joins each link's ends to the mesh (ResolvedLink).
  /// O(corners + links × polygons near their ends).
  explicit NavMesh(NavMeshData data);

  [[nodiscard]] std::size_t poly_count() const { return data_.areas.size(); }
  [[nodiscard]] std::size_t vertex_count() const { return data_.vertices.size(); }
  [[nodiscard]] Vec3 vertex(std::uint32_t v) const { return data_.vertices[v]; }
  [[nodiscard]] std::span<const Vec3> vertices() const { return data_.vertices; }
  /// Polygon p's corners (vertex indices), counter-clockwise in plan.
  [[nodiscard]] std::span<const std::uint32_t> corners(PolyId p) const {
    return std::span(data_.corners).subspan(data_.poly_begin[p.value], corner_count(p));
  }
  /// The polygons across p's edges, in corner order (invalid: a wall).
  [[nodiscard]] std::span<const PolyId> neighbors(PolyId p) const {
    return std::span(data_.neighbors).subspan(data_.poly_begin[p.value], corner_count(p));
  }
  [[nodiscard]] std::size_t corner_count(PolyId p) const {
    return data_.poly_begin[p.value + 1] - data_.poly_begin[p.value];
  }
  /// The polygon that corner k (an index into data().corners) belongs to.
  [[nodiscard]] PolyId poly_of_corner(std::uint32_t k) const { return corner_poly_[k]; }
  /// The corner after k in its polygon (the edge k runs from corner k to it).
  [[nodiscard]] std::uint32_t next_corner(std::uint32_t k) const {
    const std::uint32_t p = corner_poly_[k].value;
    return k + 1 == data_.poly_begin[p + 1] ? data_.poly_begin[p] : k + 1;
  }
  /// The end points of edge k: from corner k to the next.
  [[nodiscard]] Segment3 edge(std::uint32_t k) const {
    return {data_.vertices[data_.corners[k]], data_.vertices[data_.corners[next_corner(k)]]};
  }
  /// The same edge as corner k's, seen from the neighbour: its corner index there (the edge
  /// runs the other way), or invalid_value for a wall.
  [[nodiscard]] std::uint32_t twin(std::uint32_t k) const { return twin_[k]; }
  /// Whether vertex v lies on a wall (an edge without a neighbour): where a shortest path may bend.
  [[nodiscard]] bool on_wall(std::uint32_t v) const { return on_wall_[v] != 0; }
  /// Whether p has at most one neighbour and no link leaves it: a path that enters it can only
  /// end in it.
  [[nodiscard]] bool dead_end(PolyId p) const { return dead_end_[p.value] != 0; }
  /// The island of polygon p: polygons connected through neighbours or active links (either
  /// way, one-way links too) share one number. Different islands: no path joins them.
  [[nodiscard]] std::uint32_t island(PolyId p) const { return island_[p.value]; }
  /// Whether `filter` passes every polygon of the mesh (then only walls bound it).
  [[nodiscard]] bool passes_all(const QueryFilter& filter) const;
  [[nodiscard]] std::uint8_t area(PolyId p) const { return data_.areas[p.value]; }
  [[nodiscard]] std::uint16_t flags(PolyId p) const { return data_.flags[p.value]; }
  /// The mean of p's corners.
  [[nodiscard]] Vec3 centroid(PolyId p) const;
  [[nodiscard]] const Aabb3& bounds() const { return bounds_; }
  [[nodiscard]] const NavMeshData& data() const { return data_; }

  /// Off-mesh links (NavMeshData::links) as given, and as joined to the mesh.
  [[nodiscard]] std::size_t link_count() const { return data_.links.size(); }
  [[nodiscard]] const OffMeshLink& link(std::uint32_t i) const { return data_.links[i]; }
  [[nodiscard]] const ResolvedLink& resolved_link(std::uint32_t i) const { return resolved_links_[i]; }
  /// Every way across an active link, grouped by the polygon it leaves (ascending): a
  /// traversal's index here is its number (the searches' nodes use it).
  [[nodiscard]] std::span<const LinkTraversal> link_traversals() const { return traversals_; }
  /// The ways across links that leave polygon p (a subrange of link_traversals()).
  [[nodiscard]] std::span<const LinkTraversal> links_from(PolyId p) const {
    return std::span(traversals_).subspan(traversal_begin_[p.value], traversal_begin_[p.value + 1] - traversal_begin_[p.value]);
  }
  /// The number of links_from(p)'s first traversal in link_traversals().
  [[nodiscard]] std::uint32_t first_link_from(PolyId p) const { return traversal_begin_[p.value]; }

  /// Whether `q` lies in p's plan (edges included, and up to 1e-9 units outside them).
  [[nodiscard]] bool contains_in_plan(PolyId p, Vec2 q) const;
  /// The point of p nearest to `q`: straight below or above `q` on p's surface (its detail
  /// triangles when it has them) when q is inside p's plan, else the nearest point of p's
  /// boundary.
  [[nodiscard]] Vec3 closest_point(PolyId p, Vec3 q) const;
  /// The polygon that `filter` passes whose closest point to `center` is nearest, among those
  /// whose bounds meet the box center ± half_extents (ties: the lowest id). As Detour measures
  /// it: straight up or down, less the mesh's climb, for a polygon under or over `center`; the
  /// 3D distance for the others.
  /// nullopt when none does or an input is not finite. Allocates nothing.
  [[nodiscard]] std::optional<NearestPoly> nearest_poly(Vec3 center, Vec3 half_extents,
                                                        const QueryFilter& filter = {}) const;
  /// Walks the straight line (in plan) from `from` to `to` across the polygons `filter` passes,
  /// starting in `start` (`from` is taken to be its point nearest to `from`), as Detour's
  /// raycast: stops at the first wall or polygon the filter rejects. Failure flagged
  /// invalid_query when `start` is not a polygon the filter passes or a point is not finite.
  /// Allocates only when `out.polys` grows. O(polygons crossed × their corners).
  Status raycast(PolyId start, Vec3 from, Vec3 to, RaycastHit& out, const QueryFilter& filter = {}) const;
  /// A point drawn uniformly by plan area from the polygons `filter` passes, on their surface,
  /// made from three numbers in [0, 1) (which polygon, and where in it); nullopt when the
  /// filter passes none. O(log polygons) when it passes all, else O(polygons). Allocates nothing.
  [[nodiscard]] std::optional<NearestPoly> random_point(const QueryFilter& filter, double u_poly, double u_a,
                                                        double u_b) const;
  /// The same from a 64-bit random engine (e.g. std::mt19937_64 with a seed): the same seed,
  /// the same points.
  template <class Engine>
  [[nodiscard]] std::optional<NearestPoly> random_point(Engine& engine, const QueryFilter& filter = {}) const {
    static_assert(Engine::min() == 0 && Engine::max() == ~std::uint64_t{0}, "a 64-bit engine");
    const auto unit = [&] { return static_cast<double>(engine() >> 11) * 0x1p-53; };  // 53 bits: [0, 1)
    const double u_poly = unit(), u_a = unit();
    return random_point(filter, u_poly, u_a, unit());
  }
  /// The area of p's plan (square world units).
  [[nodiscard]] double plan_area(PolyId p) const {
    return area_prefix_[p.value + 1] - area_prefix_[p.value];
  }

  /// The polygon `filter` passes that lies straight below or above `p` (p inside its plan),
  /// with its surface at most `max_vertical` from p.y, the nearest such in height (ties: the
  /// lowest id), and the point of its surface there; nullopt when there is none. Which floor an
  /// agent stands on. Allocates nothing.
  [[nodiscard]] std::optional<NearestPoly> poly_at(Vec3 p, double max_vertical, const QueryFilter& filter = {}) const;

 private:
  // A bounding-volume hierarchy over the polygons' boxes.
  struct BvhNode {
    Aabb3 box;
    std::uint32_t first = 0;  // a leaf: its first polygon in bvh_polys_; else the right child
    std::uint32_t count = 0;  // a leaf: its polygons; 0: an internal node (left child next)
  };
  static constexpr std::uint32_t max_leaf_polys = 4;
  static constexpr std::size_t max_bvh_depth = 64;

  void check() const;
  void check_links() const;
  void build_index();
  /// Joins the links' ends to the mesh, lists the traversals by polygon, and joins islands and
  /// clears dead ends through them (nav_links.cpp).
  void resolve_links();
  /// closest_point(p, q) when whether p contains q in plan is known (`inside`).
  [[nodiscard]] Vec3 closest_point(PolyId p, Vec3 q, bool inside) const;
  /// Calls f(poly) for each polygon whose bounds meet `box`.
  template <class F>
  void for_each_in(const Aabb3& box, F&& f) const;
  std::uint32_t build_node(std::uint32_t first, std::uint32_t count, std::size_t depth);

  NavMeshData data_;
  std::vector<PolyId> corner_poly_;
  std::vector<std::uint32_t> twin_;
  std::vector<std::uint8_t> on_wall_;
  std::vector<std::uint8_t> dead_end_;
  std::vector<double> area_prefix_;  // plan areas summed: polygon p's is [p + 1] - [p]
  std::vector<std::uint32_t> island_;
  std::vector<std::uint16_t> distinct_flags_;
  std::vector<Aabb3> poly_bounds_;
  Aabb3 bounds_;
  std::vector<BvhNode> nodes_;
  std::vector<PolyId> bvh_polys_;
  std::vector<ResolvedLink> resolved_links_;
  std::vector<LinkTraversal> traversals_;
  std::vector<std::uint32_t> traversal_begin_;  // per polygon and one more: into traversals_
};

/// How build_from_triangles turns a model's triangles into a navmesh (the self-made navmesh:
/// one polygon per walkable triangle).
struct TriangleBuildParams {
  /// Steepest walkable slope, degrees from horizontal (RecastDemo's agent max slope). [0, 90)
  double max_slope_degrees = 45;
  /// Vertices closer than this (world units, 3D) become one, so triangles that share an edge
  /// in the model but not its vertex indices still connect. [>= 0, finite; 0: exact equality]
  double weld_distance = 1e-4;
  /// Triangles whose plan area is at most this (square world units) are dropped. [>= 0]
  double min_plan_area = 1e-9;
  std::uint8_t area = 0;
  std::uint16_t flags = walk_flag;
};

/// The walkable triangles of `mesh` as a navmesh: triangles facing up no steeper than
/// max_slope_degrees, welded, with slivers and repeats dropped; two triangles are neighbours
/// when they share an edge that no third triangle has. Throws BuildError when `params` break
/// their limits or no triangle is walkable.
[[nodiscard]] NavMesh build_from_triangles(const TriangleMesh& mesh, const TriangleBuildParams& params = {});

}  // namespace waymark::navmesh
