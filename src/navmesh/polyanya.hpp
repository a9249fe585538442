#pragma once
// The search space of the shortest mode: Polyanya (Cui, Harabor & Grastien, "Compromise-free
// Pathfinding on a Navigation Mesh", IJCAI 2017), written here from the paper. Not installed.
//
// A node is a root (the start point, or a vertex where the path bends) and an interval of a
// polygon edge that the root sees, entering the polygon behind it. g is the least 3D length of
// a chain of corners to the root; the heuristic is the plan distance from the root through the
// interval to the goal (mirroring the goal across the interval's line when it lies on the
// root's side), with the climb from root to goal: sqrt(plan² + climb²). A node is expanded by
// projecting the interval through its polygon: the parts of the other edges the root sees keep
// the root (cost 0); the parts beyond the interval's ends, where those ends are vertices the
// path may bend at (wall vertices; any vertex off a flat mesh or under a filter that excludes
// polygons), take that vertex as their root (cost: the 3D distance to it). Nodes whose root
// vertex was already reached more cheaply are dropped (root-level pruning), and so are nodes
// entering a dead-end polygon (one neighbour) that does not hold the goal. A node whose only
// successor keeps its root is expanded at once (intermediate pruning): its chain's polygons
// are logged for the path's corridor.
//
// Visibility is in plan (x, z), within the polygons' adjacency; lengths are 3D between corners.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "plan_geometry.hpp"
#include "polyanya_links.hpp"
#include "polyanya_table.hpp"
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

  PolyanyaSpace(const NavMesh& mesh, const LinkStartTree& link_starts)
      : mesh_(&mesh),
        start_root_(static_cast<std::uint32_t>(mesh.vertex_count())),
        goal_root_(start_root_ + 1),
        flat_(mesh.bounds().max.y == mesh.bounds().min.y),
        has_links_(!mesh.link_traversals().empty()),
        links_(mesh, link_starts) {
    std::size_t most_links = 0;  // leaving one polygon: each may add a successor
    for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) most_links = std::max(most_links, mesh.links_from(PolyId{p}).size());
    chain_.resize(max_successors + most_links);
    // Each polygon's corners twice over, in plan and as corner ids (40 bytes per corner, once
    // per query object): generate() reads a polygon's corners from any one on, round, without
    // going through the vertex index, wrapping or copying them. And what lies across each edge.
    const NavMeshData& d = mesh.data();
    ring_plan_.resize(2 * d.corners.size());
    ring_ids_.resize(2 * d.corners.size());
    for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) {
      const std::uint32_t first = d.poly_begin[p], count = d.poly_begin[p + 1] - first;
      for (std::uint32_t j = 0; j < 2 * count; ++j) {
        const std::uint32_t k = first + j % count;
        ring_plan_[2 * first + j] = plan(mesh.vertex(d.corners[k]));
        ring_ids_[2 * first + j] = k;
      }
    }
    // Where each root stands: the vertices, the start and the goal (set per query), each link
    // traversal's end (polyanya_links.hpp numbers the roots so).
    root_points_.assign(d.vertices.begin(), d.vertices.end());
    root_points_.resize(root_points_.size() + 2);
    for (const LinkTraversal& t : mesh.link_traversals()) root_points_.push_back(t.to);
    across_.resize(d.corners.size());
    for (std::size_t k = 0; k < across_.size(); ++k) {
      const PolyId next = d.neighbors[k];
      if (next.valid()) across_[k] = {mesh.flags(next), static_cast<std::uint16_t>(mesh.dead_end(next) ? 1 : 0)};
    }
  }

  void set_query(const QueryEnds& ends) {
    ends_ = ends;
    root_points_[start_root_] = ends.start;
    root_points_[goal_root_] = ends.goal;
    links_.set_query(ends);
    // Off a flat mesh a path may bend anywhere: over hills the 3D-shortest chain of corners
    // can bend at a vertex that is no wall's. On a flat one only walls and excluded polygons
    // bound the path, as in plan.
    every_vertex_may_bend_ = !flat_ || !mesh_->passes_all(ends.filter);
    if (root_g_.size() != mesh_->vertex_count()) {
      root_g_.assign(mesh_->vertex_count());
    } else {
      root_g_.reset();
    }
    chained_.reset(*this);
    chain_polys_.clear();
    chain_of_.clear();
  }

  [[nodiscard]] IntervalNode start_node() const {
    return {start_root_, invalid_corner, ends_.start_poly, plan(ends_.start), plan(ends_.start)};
  }
  [[nodiscard]] IntervalNode goal_node() const { return {goal_root_, invalid_corner, PolyId{}, {}, {}}; }
  [[nodiscard]] bool is_vertex(std::uint32_t root) const { return root < start_root_; }
  /// The mesh's corners (an edge is the corner it starts at): for IntervalNodeTable.
  [[nodiscard]] std::size_t corner_count() const { return across_.size(); }
  /// The roots at link landings, from first_landing_root() on: for IntervalNodeTable.
  [[nodiscard]] std::uint32_t first_landing_root() const { return goal_root_ + 1; }
  [[nodiscard]] std::size_t landing_root_count() const { return mesh_->link_traversals().size(); }
  /// Where a root stands, in 3D.
  [[nodiscard]] Vec3 root_point(std::uint32_t root) const { return root_points_[root]; }

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

  /// A lower bound of the 3D cost from n to the goal: the plan distance from n's root through
  /// its interval to the goal, with the height between root and goal.
  [[nodiscard]] Cost estimate(const IntervalNode& n) const;

  /// The successors of n, each with the cost of reaching it from n. A node with one successor
  /// that keeps its root (an interval seen straight through a polygon) is not a successor: its
  /// own successors are, at once (the paper's intermediate pruning), so chains of polygons
  /// crossed in a straight line cost no open-list or node-table work. Every link landing and
  /// turn towards a link start (for costing a path).
  template <class F>
  void for_each_successor(const IntervalNode& n, F&& f) const {
    successors(n, f, LinkPass{});
  }
  /// The same for n reached at g, expanding: less the links that n reaches no more cheaply
  /// than a node before it (polyanya_links.hpp; CostAwareSearchSpace). Adds to `extra` the
  /// link tree's work (the boxes and links it looked at and left out).
  template <class F>
  void for_each_successor(const IntervalNode& n, Cost g, F&& f, std::uint64_t& extra) const {
    successors(n, f, LinkPass{LinkPass::Mode::lowering, g, &extra});
  }

  /// Calls g(poly) for each polygon crossed between node `from` and its successor `to` (as
  /// for_each_successor gave it in this query) other than their own: those of the chain
  /// skipped, as logged when `from` was expanded.
  template <class G>
  void for_each_skipped_poly(const IntervalNode& from, const IntervalNode& to, G&& g) const {
    // Without a chain, `to` is generated from `from`'s polygon: the goal or a turn inside it,
    // or an interval entering a neighbour through one of its edges. A chain never comes back
    // to the polygon it left (rays from one root cross a convex polygon once).
    const PolyId parent_poly = to.root == goal_root_         ? ends_.goal_poly
                               : to.edge == invalid_corner ? to.poly
                                                           : mesh_->poly_of_corner(mesh_->twin(to.edge));
    if (parent_poly == from.poly && links_.traversal(to.root) == nullptr) return;
    const std::uint32_t slot = chained_.find(*this, from);
    if (slot == search::no_slot) {  // not expanded in this query: follow its chain again
      if (has_links_) {
        follow_chain<true>(from, g, LinkPass{LinkPass::Mode::none});
      } else {
        follow_chain<false>(from, g, LinkPass{LinkPass::Mode::none});
      }
      return;
    }
    for (std::uint32_t i = chain_of_[slot].first; i < chain_of_[slot].second; ++i) g(chain_polys_[i]);
  }

 private:
  /// The shortest plan distance from n's root, standing at plan point `r`, through n's interval
  /// to the goal (n's root is not the goal): squared when straight, so that the 3D estimate
  /// takes one square root, not two.
  struct PlanEstimate {
    double value;
    bool squared;
  };
  [[nodiscard]] PlanEstimate estimate_in_plan(const IntervalNode& n, Vec2 r) const;
  /// A successor as generate() gives it.
  struct Successor {
    IntervalNode node;
    Cost cost = 0;
  };
  /// Successors one expansion gives without links: three parts per edge, the goal and a turn
  /// (a polygon's off-mesh links add one each: chain_ holds that many more).
  static constexpr std::size_t max_successors = 3 * max_polygon_corners + 2;
  /// Longest chain followed at once: a chain crosses each polygon at most once, and one
  /// expansion stays bounded (a longer chain goes on from its last node, pushed as usual).
  [[nodiscard]] std::size_t max_chain() const { return std::min<std::size_t>(mesh_->poly_count() + 1, 256); }

  /// for_each_successor, giving the links `pass` says.
  template <class F>
  void successors(const IntervalNode& n, F& f, const LinkPass& pass) const;
  /// From n along its chain of single successors that keep the root, calling g(poly) for the
  /// polygon of each node skipped: leaves the successors of the chain's last node in chain_,
  /// and returns their number. `pass`: which links each node gives (the chain's nodes all have
  /// n's g: each step costs 0).
  /// (Links: whether the mesh has links, a constant per mesh: a mesh without compiles to the
  /// code it had before links were relaxed through their tree, with no test for them.)
  template <bool Links, class G>
  std::size_t follow_chain(const IntervalNode& n, G&& g, const LinkPass& pass) const;
  /// The successors of n without intermediate pruning, into chain_'s first elements (its size
  /// bounds their number: see max_successors); their number.
  template <bool Links>
  std::size_t generate(const IntervalNode& n, const LinkPass& pass) const;
  /// Whether n's `count` successors in chain_ are one that keeps n's root: where a chain goes
  /// on. (A link's landing has no edge: never a chain. Nor does one go through a polygon that
  /// links leave: whether its links gave a successor depends on what the query reached before,
  /// and a chain followed again for its polygons must be the one the search followed.)
  template <bool Links>
  [[nodiscard]] bool goes_straight_on(const IntervalNode& n, std::size_t count) const {
    const Successor& first = chain_[0];  // read whatever count is: chain_ always holds one
    const bool straight = (count == 1) & (first.cost == 0) & (first.node.root == n.root) & (first.node.edge != invalid_corner);
    if constexpr (Links) {
      return straight && mesh_->links_from(n.poly).empty();
    } else {
      return straight;
    }
  }

  static constexpr std::uint32_t invalid_corner = PolyId::invalid_value;

  /// What lies across an edge: its neighbour's flags and whether that is a dead end (for a
  /// wall: no flags, which no filter passes).
  struct Across {
    std::uint16_t flags = 0;
    std::uint16_t dead_end = 0;
  };

  /// Whether a path may enter the neighbour across edge k: one the filter passes, and not a
  /// dead end without the goal (it leads nowhere but back).
  [[nodiscard]] bool enterable(std::uint32_t k) const {
    // Without a branch: a wall has no flags; a dead end other than the goal's polygon is not entered.
    const Across a = across_[k];
    const bool passes = ((a.flags & ends_.filter.include) != 0) & ((a.flags & ends_.filter.exclude) == 0);
    return passes & !((a.dead_end != 0) & (mesh_->data().neighbors[k] != ends_.goal_poly));
  }

  /// Passes f the node entering the neighbour across edge k (enterable) through the part of it
  /// from `from` (nearer corner k) to `to` (nearer the next corner), seen from `root`; nothing
  /// when the part is a point.
  template <class F>
  void emit(std::uint32_t root, std::uint32_t k, Vec2 from, Vec2 to, Cost cost, F& f) const {
    if ((from.x == to.x) & (from.y == to.y)) return;  // from == to, with one branch
    // Entering the neighbour through its own edge, which runs the other way: the end nearer
    // our next corner is on the traveller's left.
    f(IntervalNode{root, mesh_->twin(k), mesh_->data().neighbors[k], to, from}, cost);
  }

  const NavMesh* mesh_;
  std::uint32_t start_root_;
  std::uint32_t goal_root_;
  QueryEnds ends_;
  bool flat_;  // every vertex at one height: 3D lengths are plan lengths
  bool every_vertex_may_bend_ = false;
  bool has_links_;  // the mesh has off-mesh links
  std::vector<Vec3> root_points_;  // by root: where it stands (root_point)
  mutable search::GenerationArray<RootBest> root_g_;  // the least g each root vertex was reached at
  mutable std::vector<Successor> chain_;  // scratch of generate() and follow_chain (sized once)
  // The chains skipped in this query: the polygons of each, by the node expanded.
  mutable IntervalNodeTable<PolyanyaSpace> chained_;  // expanded nodes that skipped a chain
  mutable std::vector<std::pair<std::uint32_t, std::uint32_t>> chain_of_;  // by chained_'s slot: range in chain_polys_
  mutable std::vector<PolyId> chain_polys_;
  PolyanyaLinks links_;  // off-mesh links (polyanya_links.hpp)
  // Polygon p's corners, from first = poly_begin[p], twice round from 2 · first: their points
  // in plan, and their ids (indices into data().corners).
  std::vector<Vec2> ring_plan_;
  std::vector<std::uint32_t> ring_ids_;
  std::vector<Across> across_;  // by corner: what lies across its edge
};

inline Cost PolyanyaSpace::estimate(const IntervalNode& n) const {
  if (n.root == goal_root_) return 0;
  const Vec3 root = root_point(n.root);
  const PlanEstimate e = estimate_in_plan(n, plan(root));
  if (flat_) return e.squared ? std::sqrt(e.value) : e.value;
  // Any path this long in plan climbs at least the height between root and goal: by
  // Minkowski's inequality its 3D length is at least this (admissible for the 3D cost).
  const double climb = ends_.goal.y - root.y;
  return std::sqrt((e.squared ? e.value : e.value * e.value) + climb * climb);
}

inline PolyanyaSpace::PlanEstimate PolyanyaSpace::estimate_in_plan(const IntervalNode& n, Vec2 r) const {
  const Vec2 goal = plan(ends_.goal);
  const double side_root = n.left == n.right ? 0 : turn(n.right, n.left, r);
  if (side_root == 0) return {length_squared(goal - r), true};
  // Mirror the goal across the interval's line when it is on the root's side.
  Vec2 g = goal;
  const double side_goal = turn(n.right, n.left, goal);
  if (((side_root > 0) == (side_goal > 0)) & (side_goal != 0)) {
    const Vec2 d = n.left - n.right;
    const Vec2 foot = n.right + d * (dot(goal - n.right, d) / dot(d, d));
    g = foot * 2.0 - goal;
  }
  const bool right_of_right = turn(r, n.right, g) < 0;
  if (!right_of_right & (turn(r, n.left, g) <= 0)) return {length_squared(g - r), true};  // straight through
  const Vec2 end = right_of_right ? n.right : n.left;
  return {distance(r, end) + distance(end, g), false};
}

template <class F>
void PolyanyaSpace::successors(const IntervalNode& n, F& f, const LinkPass& pass) const {
  const auto first = static_cast<std::uint32_t>(chain_polys_.size());
  const auto log = [&](PolyId p) { chain_polys_.push_back(p); };
  const std::size_t count = has_links_ ? follow_chain<true>(n, log, pass) : follow_chain<false>(n, log, pass);
  if (chain_polys_.size() != first) {  // a chain skipped: logged, for the path's polygons
    const search::SlotLookup l = chained_.find_or_insert(*this, n);
    const std::pair<std::uint32_t, std::uint32_t> range{first, static_cast<std::uint32_t>(chain_polys_.size())};
    if (l.fresh) {
      chain_of_.push_back(range);
    } else {
      chain_of_[l.slot] = range;
    }
  }
  for (std::size_t i = 0; i < count; ++i) f(chain_[i].node, chain_[i].cost);
}

template <bool Links, class G>
std::size_t PolyanyaSpace::follow_chain(const IntervalNode& n, G&& g, const LinkPass& pass) const {
  IntervalNode at = n;
  std::size_t count = generate<Links>(at, pass);
  for (std::size_t steps = 0; goes_straight_on<Links>(at, count) && steps < max_chain(); ++steps) {
    at = chain_[0].node;
    g(at.poly);
    count = generate<Links>(at, pass);
  }
  return count;
}

template <bool Links>
std::size_t PolyanyaSpace::generate(const IntervalNode& n, const LinkPass& pass) const {
  Successor* const out = chain_.data();
  std::size_t made = 0;  // at most chain_.size(): three parts per edge, the goal or a turn, one per link
  const auto f = [&](const IntervalNode& s, Cost c) { out[made++] = {s, c}; };
  if (n.root == goal_root_) return 0;
  const Vec2 goal = plan(ends_.goal);
  const NavMeshData& d = mesh_->data();
  const PolyId p = n.poly;
  const std::uint32_t first = d.poly_begin[p.value], count = d.poly_begin[p.value + 1] - first;
  const Vec3 root = root_point(n.root);
  const Vec2 r = plan(root);

  if (n.edge == invalid_corner) {  // the start, a link's landing, or a turn in the goal's polygon: sees all of it
    if (p == ends_.goal_poly) f(goal_node(), distance(root, ends_.goal));
    if constexpr (Links) links_.seen_all(root, p, f, pass);
    if (n.root == start_root_ || links_.traversal(n.root) != nullptr) {
      for (std::uint32_t i = 0; i < count; ++i) {
        if (enterable(first + i)) emit(n.root, first + i, ring_plan_[2 * first + i], ring_plan_[2 * first + i + 1], 0, f);
      }
    }
    return made;
  }
  // The polygon's corners in plan from the entry edge's right end round to its left end:
  // edge i (1 ≤ i < count) runs from pts[i] to pts[i + 1], and is corner ks[i] (i counts from
  // the entry edge k, whose left end is corner k and right end the next corner).
  const std::uint32_t k = n.edge, local_k = k - first;
  const std::uint32_t* const ks = ring_ids_.data() + 2 * first + local_k;
  const Vec2* const pts = ring_plan_.data() + 2 * first + local_k;
  const Vec2 L = n.left, R = n.right;
  const std::uint32_t left_vertex = d.corners[k], right_vertex = d.corners[ks[1]];
  // (Conditions joined by & and |, not && and ||, here and below: one branch where a
  // short-circuit made several, each mispredicted on the mesh's data.)
  const bool turn_right = (R.x == pts[1].x) & (R.y == pts[1].y) & (every_vertex_may_bend_ | mesh_->on_wall(right_vertex));
  const bool turn_left = (L.x == pts[0].x) & (L.y == pts[0].y) & (every_vertex_may_bend_ | mesh_->on_wall(left_vertex));
  // side(r, R, c) and side(r, L, c) with their tolerances worked out once, squared: |t| > tol
  // as t² > tol², with no square root on the tests' path.
  const Vec2 dr = R - r, dl = L - r;
  const double tol2_r = snap_distance * snap_distance * length_squared(dr);
  const double tol2_l = snap_distance * snap_distance * length_squared(dl);
  const auto side_r = [&](Vec2 c) {
    const double t = cross(dr, c - r);
    return t * t <= tol2_r ? 0 : t > 0 ? 1 : -1;
  };
  const auto side_l = [&](Vec2 c) {
    const double t = cross(dl, c - r);
    return t * t <= tol2_l ? 0 : t > 0 ? 1 : -1;
  };
  // The scan's tests as single conditions, without branches inside (& and | on bools): on the
  // right ray (side_r == 0), past it (side_r > 0); on the left ray, not left of it (side_l >= 0).
  const auto on_r = [&](Vec2 c) {
    const double t = cross(dr, c - r);
    return t * t <= tol2_r;
  };
  const auto past_r = [&](Vec2 c) {
    const double t = cross(dr, c - r);
    return (t > 0) & (t * t > tol2_r);
  };
  const auto on_l = [&](Vec2 c) {
    const double t = cross(dl, c - r);
    return t * t <= tol2_l;
  };
  const auto reached_l = [&](Vec2 c) {
    const double t = cross(dl, c - r);
    return (t >= 0) | (t * t <= tol2_l);
  };

  if (side_r(L) <= 0) {
    // The root is on the interval's line: on the interval (it then sees all of p, a convex
    // polygon it stands on the edge of), or beyond its ends, where a taut path does not enter.
    if (!same_point(r, L) && !same_point(r, R) && dot(dl, dr) > 0) return made;
    if (p == ends_.goal_poly) f(goal_node(), distance(root, ends_.goal));
    if constexpr (Links) links_.seen_all(root, p, f, pass);
    for (std::uint32_t i = 1; i < count; ++i) {
      if (enterable(ks[i])) emit(n.root, ks[i], pts[i], pts[i + 1], 0, f);
    }
    return made;
  }

  if (p == ends_.goal_poly) {
    const int goal_r = side_r(goal);
    if (goal_r >= 0 && side_l(goal) <= 0) {
      f(goal_node(), distance(root, ends_.goal));
    } else if (goal_r < 0) {
      if (turn_right) f(IntervalNode{right_vertex, invalid_corner, p, R, R}, distance(root, mesh_->vertex(right_vertex)));
    } else if (turn_left) {
      f(IntervalNode{left_vertex, invalid_corner, p, L, L}, distance(root, mesh_->vertex(left_vertex)));
    }
  }
  if constexpr (Links) {  // a constant per mesh: no code at all without links
    links_.seen_through(root, R, L, p, turn_right ? right_vertex : invalid_corner, turn_left ? left_vertex : invalid_corner, f,
                        pass);
  }

  // The edges after the entry edge, counter-clockwise: from the right side round to the left.
  // The right ray (r through R) leaves p on edge i_right, the left ray (r through L) on i_left.
  std::uint32_t i_right = count, i_left = count;
  Vec2 hit_right, hit_left;
  for (std::uint32_t i = 1; i < count && i_left == count; ++i) {
    const Vec2 a = pts[i], b = pts[i + 1];
    if (i_right == count && past_r(b)) {
      i_right = i;
      hit_right = on_r(a) ? a : line_hit(r, R, a, b);
    }
    if (reached_l(b)) {
      i_left = i;
      hit_left = on_l(b) ? b : line_hit(r, L, a, b);
    }
  }
  if (i_right == count || i_left == count || i_left < i_right) return made;  // rounding at a sliver

  // The lengths of the right and left turns, needed or not (cheaper than a mispredicted test).
  const Cost to_right = distance(root, mesh_->vertex(right_vertex)), to_left = distance(root, mesh_->vertex(left_vertex));
  for (std::uint32_t i = 1; i < count; ++i) {
    if (!enterable(ks[i])) continue;
    const Vec2 a = pts[i], b = pts[i + 1];
    if ((i >= i_right) & (i <= i_left)) {  // seen from the root
      emit(n.root, ks[i], i == i_right ? hit_right : a, i == i_left ? hit_left : b, 0, f);
    }
    if (turn_right & (i <= i_right)) {  // seen from the right end, round its corner
      emit(right_vertex, ks[i], a, i == i_right ? hit_right : b, to_right, f);
    }
    if (turn_left & (i >= i_left)) {  // seen from the left end, round its corner
      emit(left_vertex, ks[i], i == i_left ? hit_left : a, b, to_left, f);
    }
  }
  return made;
}

}  // namespace waymark::navmesh::detail
