#pragma once
// Off-mesh links in the shortest mode (Polyanya, polyanya.hpp). Not installed.
//
// A link start in the polygon a node expands is treated as the goal is: when the node's root
// sees it (through the interval), a node rooted at the link's end is generated, at cost g +
// the 3D distance to the start (as every corner-to-corner hop costs) + the link's cost; when it lies beyond the interval's right
// (left) ray and that end is a wall vertex, the node rooted at that vertex in the polygon
// (as for a goal round a corner), whose expansion then sees every link start of its polygon.
// A node rooted at a link's end has no edge: like the start node, it sees its whole polygon
// and emits every edge of it. Roots: vertices, then the start and the goal (polyanya.hpp),
// then one per link traversal (vertex_count() + 2 + its number).

#include <cstdint>

#include "plan_geometry.hpp"
#include "query_ends.hpp"
#include "query_links.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace waymark::navmesh::detail {

class PolyanyaLinks {
 public:
  static constexpr std::uint32_t no_vertex = PolyId::invalid_value;

  explicit PolyanyaLinks(const NavMesh& mesh)
      : mesh_(&mesh), first_root_(static_cast<std::uint32_t>(mesh.vertex_count()) + 2) {}

  void set_query(const QueryEnds& ends) {
    filter_ = ends.filter;
    // Walking costs its 3D length between corners (area costs do not steer the shortest mode),
    // and the heuristic counts the climb: a link is a shortcut when it costs less than its 3D
    // length (a lift costing less than its height, a teleporter), and the bound covers them.
    bound_ = shortcut_bound(*mesh_, filter_, ends.goal, 1.0, [](Vec3 a, Vec3 b) { return distance(a, b); });
  }

  /// The traversal whose end `root` stands at, or null for another root.
  [[nodiscard]] const LinkTraversal* traversal(std::uint32_t root) const {
    return root >= first_root_ ? &mesh_->link_traversals()[root - first_root_] : nullptr;
  }
  /// The least any path through a shortcut link costs (shortcut_bound): the heuristic is at most it.
  [[nodiscard]] Cost bound() const { return bound_; }

  /// The landing nodes of every link leaving `p` the filter lets pass, seen from the root at
  /// `root` (a root in or on the convex polygon p sees all of it). Kept out of line: once GCC
  /// inlined it into generate(), whose hot path then ran 1 % more instructions (docs/navmesh.md).
  template <class F>
  [[gnu::noinline]] void seen_all(Vec3 root, PolyId p, F& f) const {
    each(p, [&](std::uint32_t t, const LinkTraversal& way) { f(landing(t, way), distance(root, way.from) + link_cost(*mesh_, filter_, way)); });
  }

  /// As the goal: the link starts in p seen from r between the rays through R (right) and L
  /// (left) lead to their landing; one beyond the right (left) ray, to the node rooted at
  /// right_vertex (left_vertex) in p, when that end may be turned round (else no_vertex).
  template <class F>
  void seen_through(Vec3 root, Vec2 R, Vec2 L, PolyId p, std::uint32_t right_vertex, std::uint32_t left_vertex, F& f) const {
    const Vec2 r = plan(root);
    each(p, [&](std::uint32_t t, const LinkTraversal& way) {
      const Vec2 s = plan(way.from);
      if (side(r, R, s) >= 0 && side(r, L, s) <= 0) {
        f(landing(t, way), distance(root, way.from) + link_cost(*mesh_, filter_, way));
      } else if (side(r, R, s) < 0) {
        if (right_vertex != no_vertex) f(IntervalNode{right_vertex, no_vertex, p, R, R}, distance(root, mesh_->vertex(right_vertex)));
      } else if (left_vertex != no_vertex) {
        f(IntervalNode{left_vertex, no_vertex, p, L, L}, distance(root, mesh_->vertex(left_vertex)));
      }
    });
  }

 private:
  template <class G>
  void each(PolyId p, G&& g) const {
    const std::uint32_t first = mesh_->first_link_from(p);
    const auto ways = mesh_->links_from(p);
    for (std::uint32_t i = 0; i < ways.size(); ++i) {
      if (link_passes(*mesh_, filter_, ways[i])) g(first + i, ways[i]);
    }
  }
  [[nodiscard]] IntervalNode landing(std::uint32_t t, const LinkTraversal& way) const {
    return {first_root_ + t, no_vertex, way.to_poly, plan(way.to), plan(way.to)};
  }

  const NavMesh* mesh_;
  std::uint32_t first_root_;
  QueryFilter filter_;
  Cost bound_ = infinite_cost;
};

}  // namespace waymark::navmesh::detail
