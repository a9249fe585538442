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
//
// Expanding, a node gives only the landings it reaches for less than any node before it, and
// a turn only when a link start beyond it is reached for less that way (link_starts.hpp): the
// links of a polygon cost each node the boxes of them it may improve, not all of them.

#include <cstdint>

#include "link_starts.hpp"
#include "plan_geometry.hpp"
#include "query_ends.hpp"
#include "query_links.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace waymark::navmesh::detail {

/// Which of a polygon's links generate() is to give: all of them (the plain successor list),
/// those that a node reached at g gets for less than before (expanding: scanned counts the
/// work), or none (following a chain again only for the polygons it crosses).
struct LinkPass {
  enum class Mode : std::uint8_t { all, lowering, none };
  Mode mode = Mode::all;
  Cost g = 0;
  std::uint64_t* scanned = nullptr;
};

class PolyanyaLinks {
 public:
  static constexpr std::uint32_t no_vertex = PolyId::invalid_value;

  PolyanyaLinks(const NavMesh& mesh, const LinkStartTree& starts)
      : mesh_(&mesh), first_root_(static_cast<std::uint32_t>(mesh.vertex_count()) + 2), relaxer_(starts, false) {}

  void set_query(const QueryEnds& ends) {
    filter_ = ends.filter;
    if (!mesh_->link_traversals().empty()) {
      relaxer_.reset(filter_);
      relaxer_.anchor(ends.start_poly, ends.start, 0);
    }
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
  [[gnu::noinline]] void seen_all(Vec3 root, PolyId p, F& f, const LinkPass& pass) const {
    if (pass.mode == LinkPass::Mode::none) return;
    if (pass.mode == LinkPass::Mode::all) {
      each(p, [&](std::uint32_t t, const LinkTraversal& way) { f(landing(t, way), distance(root, way.from) + link_cost(*mesh_, filter_, way)); });
      return;
    }
    const Cost g = pass.g;
    relaxer_.relax(
        p, {root, g, 1.0, true},
        [&](std::uint32_t t, const LinkTraversal& way, Cost cost, Cost& w) { return lower(t, way, root, cost, g, w); },
        [&](const Found& found) { land(found, g, f); }, *pass.scanned);
  }

  /// As the goal: the link starts in p seen from r between the rays through R (right) and L
  /// (left) lead to their landing; one beyond the right (left) ray, to the node rooted at
  /// right_vertex (left_vertex) in p, when that end may be turned round (else no_vertex).
  template <class F>
  void seen_through(Vec3 root, Vec2 R, Vec2 L, PolyId p, std::uint32_t right_vertex, std::uint32_t left_vertex, F& f,
                    const LinkPass& pass) const {
    const Vec2 r = plan(root);
    if (pass.mode == LinkPass::Mode::none) return;
    if (pass.mode == LinkPass::Mode::all) {
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
      return;
    }
    // A turn is given (once) when a link start beyond its ray is reached for less round it than
    // before: the node rooted at that end then relaxes it as seen_all does, at these costs.
    const Cost g = pass.g;
    const Cost to_right = right_vertex != no_vertex ? distance(root, mesh_->vertex(right_vertex)) : 0;
    const Cost to_left = left_vertex != no_vertex ? distance(root, mesh_->vertex(left_vertex)) : 0;
    bool turned_right = false, turned_left = false;
    relaxer_.relax(
        p, {root, g, 1.0, false},
        [&](std::uint32_t t, const LinkTraversal& way, Cost cost, Cost& w) {
          const Vec2 s = plan(way.from);
          if (side(r, R, s) >= 0 && side(r, L, s) <= 0) return lower(t, way, root, cost, g, w);
          if (side(r, R, s) < 0) {
            if (right_vertex == no_vertex || !((g + to_right) + (distance(mesh_->vertex(right_vertex), way.from) + cost) < w)) return Found{};
            return Found{t, turn_right, to_right};
          }
          if (left_vertex == no_vertex || !((g + to_left) + (distance(mesh_->vertex(left_vertex), way.from) + cost) < w)) return Found{};
          return Found{t, turn_left, to_left};
        },
        [&](const Found& found) {
          if (found.kind == landed) {
            land(found, g, f);
          } else if (found.kind == turn_right && !turned_right) {
            turned_right = true;
            f(IntervalNode{right_vertex, no_vertex, p, R, R}, to_right);
          } else if (found.kind == turn_left && !turned_left) {
            turned_left = true;
            f(IntervalNode{left_vertex, no_vertex, p, L, L}, to_left);
          }
        },
        *pass.scanned);
  }

 private:
  using Found = LinkRelaxer::Found;
  /// What a Found is: a landing reached, or a start beyond the right (left) ray reached round
  /// that end.
  static constexpr std::uint32_t landed = 1, turn_right = 2, turn_left = 3;

  /// Link t's start seen straight from `root` (reached at g): lowers its landing's w, and finds
  /// it, when that costs less.
  Found lower(std::uint32_t t, const LinkTraversal& way, Vec3 root, Cost cost, Cost g, Cost& w) const {
    const Cost edge = distance(root, way.from) + cost;
    if (!(g + edge < w)) return Found{};
    w = g + edge;
    return Found{t, landed, edge};
  }
  /// Gives f the landing found, which anchors its polygon when it may.
  template <class F>
  void land(const Found& found, Cost g, F& f) const {
    const LinkTraversal& way = mesh_->link_traversals()[found.t];
    relaxer_.anchor(way.to_poly, way.to, g + found.edge);
    f(landing(found.t, way), found.edge);
  }

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
  mutable LinkRelaxer relaxer_;  // the landings reached in this query
};

}  // namespace waymark::navmesh::detail
