#pragma once
// The search space of the shortest mode: Polyanya (Cui, Harabor & Grastien, "Compromise-free
// Pathfinding on a Navigation Mesh", IJCAI 2017), written here from the paper. Not installed.
//
// A node is a root (the start point, or a wall vertex where the path bends) and an interval of
// a polygon edge that the root sees, entering the polygon behind it. g is the shortest distance
// to the root; the heuristic is the shortest distance from the root through the interval to the
// goal (mirroring the goal across the interval's line when it lies on the root's side). A node
// is expanded by projecting the interval through its polygon: the parts of the other edges the
// root sees keep the root (cost 0); the parts beyond the interval's ends, where those ends are
// wall vertices, take that vertex as their root (cost: the distance to it). Nodes whose root
// vertex was already reached more cheaply are dropped (root-level pruning), and so are nodes
// entering a dead-end polygon (one neighbour) that does not hold the goal.
//
// All geometry is in plan (x, z): the path is the shortest in plan, and measured in 3D after.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "plan_geometry.hpp"
#include "polyanya_links.hpp"
#include "query_ends.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/search/generation_array.hpp"

namespace waymark::navmesh::detail {

/// The least g a root vertex was reached at in the current query.
struct RootBest {
  Cost g = 0;
  std::uint32_t stamp = 0;
};

class PolyanyaSpace {
 public:
  using node_type = IntervalNode;

  explicit PolyanyaSpace(const NavMesh& mesh)
      : mesh_(&mesh), start_root_(static_cast<std::uint32_t>(mesh.vertex_count())), goal_root_(start_root_ + 1), links_(mesh) {}

  void set_query(const QueryEnds& ends) {
    ends_ = ends;
    links_.set_query(ends);
    every_vertex_may_bend_ = !mesh_->passes_all(ends.filter);
    if (root_g_.size() != mesh_->vertex_count()) {
      root_g_.assign(mesh_->vertex_count());
    } else {
      root_g_.reset();
    }
  }

  [[nodiscard]] IntervalNode start_node() const {
    return {start_root_, invalid_corner, ends_.start_poly, plan(ends_.start), plan(ends_.start)};
  }
  [[nodiscard]] IntervalNode goal_node() const { return {goal_root_, invalid_corner, PolyId{}, {}, {}}; }
  [[nodiscard]] bool is_vertex(std::uint32_t root) const { return root < start_root_; }
  /// Where a root stands, in 3D.
  [[nodiscard]] Vec3 root_point(std::uint32_t root) const {
    if (const LinkTraversal* t = links_.traversal(root)) return t->to;
    return root == start_root_ ? ends_.start : root == goal_root_ ? ends_.goal : mesh_->vertex(root);
  }
  [[nodiscard]] const PolyanyaLinks& links() const { return links_; }

  [[nodiscard]] bool dominated(const IntervalNode& n, Cost g) const {
    if (!is_vertex(n.root)) return false;
    const auto best = root_g_.touch(n.root);
    if (best.fresh || g < best.element.g) {
      best.element.g = g;
      return false;
    }
    return g > best.element.g;
  }

  [[nodiscard]] Cost estimate(const IntervalNode& n) const;

  template <class F>
  void for_each_successor(const IntervalNode& n, F&& f) const;

 private:
  static constexpr std::uint32_t invalid_corner = PolyId::invalid_value;

  [[nodiscard]] Vec2 at(std::uint32_t corner) const { return plan(mesh_->vertex(mesh_->data().corners[corner])); }
  [[nodiscard]] bool may_bend_at(std::uint32_t vertex) const { return every_vertex_may_bend_ || mesh_->on_wall(vertex); }
  [[nodiscard]] bool passable(PolyId p) const { return p.valid() && ends_.filter.passes(mesh_->flags(p)); }

  /// Passes f the node entering the neighbour across edge k through the part of it from `from`
  /// (nearer corner k) to `to` (nearer the next corner), seen from `root`; nothing when the
  /// edge is a wall, the neighbour is filtered out, or the part is a point.
  template <class F>
  void emit(std::uint32_t root, std::uint32_t k, Vec2 from, Vec2 to, Cost cost, F& f) const {
    const PolyId next = mesh_->data().neighbors[k];
    // A dead end leads nowhere but back: only worth entering when the goal is in it.
    if (!passable(next) || from == to || (mesh_->dead_end(next) && next != ends_.goal_poly)) return;
    // Entering the neighbour through its own edge, which runs the other way: the end nearer
    // our next corner is on the traveller's left.
    f(IntervalNode{root, mesh_->twin(k), next, to, from}, cost);
  }

  const NavMesh* mesh_;
  std::uint32_t start_root_;
  std::uint32_t goal_root_;
  QueryEnds ends_;
  bool every_vertex_may_bend_ = false;
  mutable search::GenerationArray<RootBest> root_g_;  // the least g each root vertex was reached at
  PolyanyaLinks links_;  // off-mesh links (polyanya_links.hpp)
};

inline Cost PolyanyaSpace::estimate(const IntervalNode& n) const {
  const Vec2 goal = plan(ends_.goal);
  if (n.root == goal_root_) return 0;
  const Vec2 r = plan(root_point(n.root));
  if (n.left == n.right || turn(n.right, n.left, r) == 0) return distance(r, goal);
  // Mirror the goal across the interval's line when it is on the root's side.
  Vec2 g = goal;
  const double side_root = turn(n.right, n.left, r), side_goal = turn(n.right, n.left, goal);
  if ((side_root > 0) == (side_goal > 0) && side_goal != 0) {
    const Vec2 d = n.left - n.right;
    const Vec2 foot = n.right + d * (dot(goal - n.right, d) / dot(d, d));
    g = foot * 2.0 - goal;
  }
  if (turn(r, n.right, g) >= 0 && turn(r, n.left, g) <= 0) return distance(r, g);  // straight through
  const Vec2 end = turn(r, n.right, g) < 0 ? n.right : n.left;
  return distance(r, end) + distance(end, g);
}

template <class F>
void PolyanyaSpace::for_each_successor(const IntervalNode& n, F&& f) const {
  if (n.root == goal_root_) return;
  const Vec2 goal = plan(ends_.goal);
  const NavMeshData& d = mesh_->data();
  const PolyId p = n.poly;
  const std::uint32_t first = d.poly_begin[p.value], count = d.poly_begin[p.value + 1] - first;
  const auto corner = [&](std::uint32_t i) { return first + (i % count); };  // i counts from the entry edge
  const Vec2 r = plan(root_point(n.root));

  if (n.edge == invalid_corner) {  // the start, or a wall vertex of the goal's polygon: sees all of it
    if (p == ends_.goal_poly) f(goal_node(), distance(r, goal));
    links_.seen_all(r, p, f);
    if (n.root == start_root_ || links_.traversal(n.root) != nullptr) {
      for (std::uint32_t i = 0; i < count; ++i) emit(n.root, first + i, at(first + i), at(mesh_->next_corner(first + i)), 0, f);
    }
    return;
  }
  const std::uint32_t k = n.edge;  // corner k is the entry edge's left end, the next corner its right
  const Vec2 L = n.left, R = n.right;
  const std::uint32_t left_vertex = d.corners[k], right_vertex = d.corners[mesh_->next_corner(k)];
  const bool turn_right = R == at(mesh_->next_corner(k)) && may_bend_at(right_vertex);
  const bool turn_left = L == at(k) && may_bend_at(left_vertex);
  const std::uint32_t local_k = k - first;

  if (side(r, R, L) <= 0) {
    // The root is on the interval's line: on the interval (it then sees all of p, a convex
    // polygon it stands on the edge of), or beyond its ends, where a taut path does not enter.
    if (!same_point(r, L) && !same_point(r, R) && dot(L - r, R - r) > 0) return;
    if (p == ends_.goal_poly) f(goal_node(), distance(r, goal));
    links_.seen_all(r, p, f);
    for (std::uint32_t i = 1; i < count; ++i) {
      const std::uint32_t e = corner(local_k + i);
      emit(n.root, e, at(e), at(mesh_->next_corner(e)), 0, f);
    }
    return;
  }

  if (p == ends_.goal_poly) {
    if (side(r, R, goal) >= 0 && side(r, L, goal) <= 0) {
      f(goal_node(), distance(r, goal));
    } else if (side(r, R, goal) < 0) {
      if (turn_right) f(IntervalNode{right_vertex, invalid_corner, p, R, R}, distance(r, R));
    } else if (turn_left) {
      f(IntervalNode{left_vertex, invalid_corner, p, L, L}, distance(r, L));
    }
  }
  links_.seen_through(r, R, L, p, turn_right ? right_vertex : invalid_corner, turn_left ? left_vertex : invalid_corner, f);

  // The edges after the entry edge, counter-clockwise: from the right side round to the left.
  // The right ray (r through R) leaves p on edge i_right, the left ray (r through L) on i_left.
  std::uint32_t i_right = count, i_left = count;
  Vec2 hit_right, hit_left;
  for (std::uint32_t i = 1; i < count; ++i) {
    const std::uint32_t e = corner(local_k + i);
    const Vec2 a = at(e), b = at(mesh_->next_corner(e));
    if (i_right == count && side(r, R, b) > 0) {
      i_right = i;
      hit_right = side(r, R, a) == 0 ? a : line_hit(r, R, a, b);
    }
    if (i_left == count && side(r, L, b) >= 0) {
      i_left = i;
      hit_left = side(r, L, b) == 0 ? b : line_hit(r, L, a, b);
    }
  }
  if (i_right == count || i_left == count || i_left < i_right) return;  // rounding at a sliver

  for (std::uint32_t i = 1; i < count; ++i) {
    const std::uint32_t e = corner(local_k + i);
    const Vec2 a = at(e), b = at(mesh_->next_corner(e));
    if (i >= i_right && i <= i_left) {  // seen from the root
      emit(n.root, e, i == i_right ? hit_right : a, i == i_left ? hit_left : b, 0, f);
    }
    if (turn_right && i <= i_right) {  // seen from the right end, round its corner
      emit(right_vertex, e, a, i == i_right ? hit_right : b, distance(r, R), f);
    }
    if (turn_left && i >= i_left) {  // seen from the left end, round its corner
      emit(left_vertex, e, i == i_left ? hit_left : a, b, distance(r, L), f);
    }
  }
}

}  // namespace waymark::navmesh::detail
