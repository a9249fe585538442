#include "waymark/navmesh/nav_query.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "link_starts.hpp"
#include "polyanya.hpp"
#include "query_ends.hpp"
#include "query_links.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/observer.hpp"

namespace waymark::navmesh {

/// The portal graph of one query: node k < corners is the portal on edge k, entered from k's
/// polygon into its neighbour; then the start and the goal point. Successors of a node are the
/// portals out of the polygon it enters (the way back excluded), and the goal when that
/// polygon is the goal's. Funnel mode places a portal at its edge's midpoint. Centroid mode
/// places it at the centroid of the polygon it enters, reached through the edge's midpoint,
/// so that each stretch stays inside one convex polygon. Node goal + 1 + t is traversal t of
/// an off-mesh link (NavMesh::link_traversals), standing at its end: a successor of every node
/// in the polygon it leaves (query_links.hpp). Expanding, the search is given only the links
/// whose landing a node reaches for less than before (link_starts.hpp).
class NavMeshQuery::Space {
 public:
  using node_type = std::uint32_t;

  Space(const NavMesh& mesh, NavMode mode, const detail::LinkStartTree& link_starts)
      : mesh_(&mesh),
        start_(static_cast<node_type>(mesh.data().corners.size())),
        goal_(start_ + 1),
        centroids_(mode == NavMode::centroids),
        has_links_(!mesh.link_traversals().empty()),
        relaxer_(link_starts, true) {
    // Where each node stands and the polygon it is in (per query object: read per expansion
    // without a branch on the kind of node), and each polygon's portals (its edges with a
    // neighbour, in edge order, with where they stand and the neighbour's flags): the loop over
    // a node's successors meets no wall.
    const NavMeshData& d = mesh.data();
    at_.resize(node_count());
    out_begin_.assign(mesh.poly_count() + std::size_t{1}, 0);
    for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) {
      for (std::uint32_t k = d.poly_begin[p]; k < d.poly_begin[p + 1]; ++k) {
        const PolyId next = d.neighbors[k];
        at_[k] = {next.valid() && centroids_ ? mesh.centroid(next) : midpoint(k), next.value, 0, 0};
        if (next.valid()) out_.push_back({at_[k].position, k, mesh.flags(next)});
      }
      out_begin_[p + 1] = static_cast<std::uint32_t>(out_.size());
    }
    // Then each portal node's successors: the portals of the polygon it enters but the way
    // back, in the same order, so that no test per successor asks for the way back.
    for (std::uint32_t n = 0; n < start_; ++n) {
      if (!d.neighbors[n].valid()) continue;
      const std::uint32_t p = d.neighbors[n].value;
      at_[n].first = static_cast<std::uint32_t>(out_.size());
      for (std::uint32_t i = out_begin_[p]; i < out_begin_[p + 1]; ++i) {
        const PortalOut o = out_[i];
        if (o.k != mesh.twin(n)) out_.push_back(o);
      }
      at_[n].end = static_cast<std::uint32_t>(out_.size());
    }
    for (std::size_t t = 0; t < mesh.link_traversals().size(); ++t) {
      const LinkTraversal& l = mesh.link_traversals()[t];
      at_[goal_ + 1 + t] = in_poly(l.to, l.to_poly);
    }
  }

  void set_query(const detail::QueryEnds& ends) {
    ends_ = ends;
    if (has_links_) {
      relaxer_.reset(ends_.filter);
      relaxer_.anchor(ends.start_poly, ends.start, 0);
    }
    at_[start_] = in_poly(ends.start, ends.start_poly);
    at_[goal_] = in_poly(ends.goal, ends.goal_poly);
    least_cost_ = *std::min_element(ends.filter.area_cost.begin(), ends.filter.area_cost.end());
    shortcut_bound_ = detail::shortcut_bound(*mesh_, ends.filter, ends.goal, least_cost_,
                                             [](Vec3 a, Vec3 b) { return distance(a, b); });
  }

  [[nodiscard]] node_type start() const { return start_; }
  [[nodiscard]] node_type goal() const { return goal_; }
  [[nodiscard]] std::size_t node_count() const { return goal_ + std::size_t{1} + mesh_->link_traversals().size(); }
  [[nodiscard]] std::size_t index_of(node_type n) const { return n; }
  [[nodiscard]] node_type node_at(std::size_t i) const { return static_cast<node_type>(i); }
  [[nodiscard]] Cost least_cost() const { return least_cost_; }
  [[nodiscard]] Cost shortcut_bound() const { return shortcut_bound_; }
  /// The link traversal node n stands for, or null for a portal, the start or the goal.
  [[nodiscard]] const LinkTraversal* traversal(node_type n) const {
    return n > goal_ ? &mesh_->link_traversals()[n - goal_ - 1] : nullptr;
  }

  [[nodiscard]] Vec3 position(node_type n) const { return at_[n].position; }
  [[nodiscard]] Vec3 midpoint(std::uint32_t k) const { return mesh_->edge(k).at(0.5); }
  /// The polygon node n stands in (for a portal: the one it enters).
  [[nodiscard]] PolyId poly(node_type n) const { return PolyId{at_[n].poly}; }

  /// Every successor of n (for costing a path).
  template <class F>
  void for_each_successor(node_type n, F&& f) const {
    walk_successors(n, f, [&](PolyId here) {
      const node_type first = goal_ + 1 + mesh_->first_link_from(here);
      const auto links = mesh_->links_from(here);
      const Cost factor = ends_.filter.area_cost[mesh_->area(here)];
      for (std::uint32_t i = 0; i < links.size(); ++i) {
        if (!detail::link_passes(*mesh_, ends_.filter, links[i])) continue;
        f(first + i, distance(at_[n].position, links[i].from) * factor + detail::link_cost(*mesh_, ends_.filter, links[i]));
      }
    });
  }

  /// The successors of n reached at g that the search keeps: all but the links whose landing
  /// was reached for as little before (CostAwareSearchSpace: `extra`, the link tree's work).
  /// Out of line with the walk inlined in it, the links' part out of line again: the form that
  /// ran fewest instructions on meshes without links (docs/navmesh.md, "Off-mesh links in bulk").
  template <class F>
  [[gnu::noinline]] void for_each_successor(node_type n, Cost g, F&& f, std::uint64_t& extra) const {
    walk_successors(n, f, [&](PolyId here) { relax_links(n, here, g, f, extra); });
  }

 private:
  /// Gives f n's successors, then links(polygon n stands in) on a mesh with links.
  template <class F, class Links>
  [[gnu::always_inline]] void walk_successors(node_type n, F& f, Links&& links) const {
    if (n == goal_) return;
    const NodeAt& node = at_[n];
    const PolyId here{node.poly};
    const Vec3 from = node.position;
    const Cost factor = ends_.filter.area_cost[mesh_->area(here)];
    if (here == ends_.goal_poly) f(goal_, distance(from, ends_.goal) * factor);
    const std::uint32_t include = ends_.filter.include, exclude = ends_.filter.exclude;
    const PortalOut* const end = out_.data() + node.end;
    for (const PortalOut* o = out_.data() + node.first; o != end; ++o) {
      if (((o->flags & include) == 0) | ((o->flags & exclude) != 0)) continue;
      if (centroids_) {
        const Vec3 mid = midpoint(o->k);
        const Cost across = ends_.filter.area_cost[mesh_->area(mesh_->data().neighbors[o->k])];
        f(o->k, distance(from, mid) * factor + distance(mid, o->position) * across);
      } else {
        f(o->k, distance(from, o->position) * factor);
      }
    }
    if (!has_links_) return;
    links(here);
  }

  /// The links of `here` that n, reached at g, gives (for_each_successor). Out of line: the
  /// walk's successor loop, the hot path of every query, compiles as it did without links.
  template <class F>
  [[gnu::noinline]] void relax_links(node_type n, PolyId here, Cost g, F& f, std::uint64_t& scanned) const {
    const Vec3 from = at_[n].position;
    const Cost factor = ends_.filter.area_cost[mesh_->area(here)];
    const node_type first = goal_ + 1;
    using Found = detail::LinkRelaxer::Found;
    relaxer_.relax(
        here, {from, g, factor, true},
        [&](std::uint32_t t, const LinkTraversal& way, Cost cost, Cost& w) {
          const Cost edge = distance(from, way.from) * factor + cost;
          if (!(g + edge < w)) return Found{};
          w = g + edge;
          return Found{t, 1, edge};
        },
        [&](const Found& found) {
          const LinkTraversal& way = mesh_->link_traversals()[found.t];
          relaxer_.anchor(way.to_poly, way.to, g + found.edge);
          f(first + found.t, found.edge);
        },
        scanned);
  }

  /// Where node n stands, the polygon it stands in, and its successor portals: out_[first, end).
  struct NodeAt {
    Vec3 position;
    std::uint32_t poly;
    std::uint32_t first;
    std::uint32_t end;
  };
  /// A node standing at `position` in polygon p, not a portal: all p's portals follow it.
  [[nodiscard]] NodeAt in_poly(Vec3 position, PolyId p) const {
    return {position, p.value, out_begin_[p.value], out_begin_[p.value + 1]};
  }

  /// A portal out of a polygon: node k, where it stands, and the flags of the polygon it enters.
  struct PortalOut {
    Vec3 position;
    std::uint32_t k;
    std::uint32_t flags;
  };

  const NavMesh* mesh_;
  node_type start_;
  node_type goal_;
  detail::QueryEnds ends_;
  Cost least_cost_ = 1;
  Cost shortcut_bound_ = infinite_cost;  // detail::shortcut_bound
  bool centroids_;  // centroid mode: portals stand at the centroid of the polygon they enter
  bool has_links_;  // the mesh has link traversals
  std::vector<NodeAt> at_;  // per node; the start's and goal's written per query
  std::vector<PortalOut> out_;  // by polygon, by edge; then by portal node, the way back left out
  std::vector<std::uint32_t> out_begin_;  // polygon p's are out_[out_begin_[p], [p + 1])
  mutable detail::LinkRelaxer relaxer_;  // the landings reached in this query
};

namespace {

/// The shortest mode's heuristic: the interval heuristic of its space.
struct IntervalHeuristic {
  const detail::PolyanyaSpace* space;
  Cost operator()(const IntervalNode& n, const IntervalNode&) const {
    return std::min(space->estimate(n), space->links().bound());
  }
};

}  // namespace

/// Straight-line distance to the goal point times the filter's least area cost, or less when
/// a shortcut link may get there for less (detail::shortcut_bound): admissible.
struct NavMeshQuery::Heuristic {
  const Space* space;
  Cost operator()(std::uint32_t n, std::uint32_t goal) const {
    return std::min(distance(space->position(n), space->position(goal)) * space->least_cost(), space->shortcut_bound());
  }
};

NavMeshQuery::NavMeshQuery(const NavMesh& mesh, const NavQueryOptions& options)
    : mesh_(&mesh),
      options_(options),
      link_starts_(std::make_unique<detail::LinkStartTree>(mesh)),
      space_(std::make_unique<Space>(mesh, options.mode, *link_starts_)),
      polyanya_(std::make_unique<detail::PolyanyaSpace>(mesh, *link_starts_)),
      ends_(std::make_unique<detail::QueryEnds>()),
      active_(options.mode) {
  // The polygons of each island, in id order (a counting sort); then their portals, in that
  // order, each polygon's edges in order: the midpoint of each edge with a neighbour.
  std::uint32_t islands = 0;
  for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) islands = std::max(islands, mesh.island(PolyId{p}) + 1);
  std::vector<std::uint32_t> poly_begin(islands + 1, 0);
  for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) ++poly_begin[mesh.island(PolyId{p}) + 1];
  for (std::uint32_t i = 0; i < islands; ++i) poly_begin[i + 1] += poly_begin[i];
  std::vector<std::uint32_t> island_polys(mesh.poly_count());
  std::vector<std::uint32_t> next(poly_begin.begin(), poly_begin.end() - 1);
  for (std::uint32_t p = 0; p < mesh.poly_count(); ++p) island_polys[next[mesh.island(PolyId{p})]++] = p;
  const NavMeshData& d = mesh.data();
  island_begin_.assign(islands + 1, 0);
  for (std::uint32_t i = 0; i < islands; ++i) {
    for (std::uint32_t j = poly_begin[i]; j < poly_begin[i + 1]; ++j) {
      const std::uint32_t first = d.poly_begin[island_polys[j]], end = d.poly_begin[island_polys[j] + 1];
      for (std::uint32_t k = first; k < end; ++k) {
        const Vec3 from = d.vertices[d.corners[k]], to = d.vertices[d.corners[k + 1 < end ? k + 1 : first]];
        if (d.neighbors[k].valid()) island_portals_.push_back({lerp(from, to, 0.5), d.neighbors[k]});
      }
    }
    island_begin_[i + 1] = static_cast<std::uint32_t>(island_portals_.size());
  }
  for (std::size_t p = 0; p < mesh.poly_count(); ++p) {  // the mesh's distinct (area, flags) pairs
    const AreaFlags a{mesh.area(PolyId{static_cast<std::uint32_t>(p)}), mesh.flags(PolyId{static_cast<std::uint32_t>(p)})};
    if (std::find(area_flags_.begin(), area_flags_.end(), a) == area_flags_.end()) area_flags_.push_back(a);
  }
  const search::BestFirstOptions bf{.reopen_closed = true, .max_nodes = options.query.max_nodes,
                                    .partial_result = options.query.partial_result};
  const auto portals = [&](auto observer) {
    using Search = search::BestFirstSearch<Space, Heuristic, search::AStarPriority, decltype(observer)>;
    return search::SearchHandle<std::uint32_t>::of<Search>(*space_, Heuristic{space_.get()}, search::AStarPriority{},
                                                           observer, bf);
  };
  portals_search_ = options.portal_events ? portals(search::EventObserver<std::uint32_t>(options.portal_events))
                                         : portals(search::NullObserver{});
  // The shortest mode finds a partial path in two steps (finish_intervals), not by the engine.
  const search::BestFirstOptions exact{.reopen_closed = true, .max_nodes = options.query.max_nodes};
  const auto intervals = [&](auto observer) {
    using Search = search::BestFirstSearch<detail::PolyanyaSpace, IntervalHeuristic, search::AStarPriority,
                                           decltype(observer), detail::IntervalNodeTable<detail::PolyanyaSpace>>;
    return search::SearchHandle<IntervalNode>::of<Search>(*polyanya_, IntervalHeuristic{polyanya_.get()},
                                                          search::AStarPriority{}, observer, exact);
  };
  intervals_search_ = options.interval_events
                          ? intervals(search::EventObserver<IntervalNode>(options.interval_events))
                          : intervals(search::NullObserver{});
}

NavMeshQuery::~NavMeshQuery() = default;

PolyId NavMeshQuery::nearest_on_start_island() const {
  const std::uint32_t island = mesh_->island(ends_->start_poly);
  PolyId best = ends_->start_poly;
  double best_d2 = length_squared(ends_->start - ends_->goal);
  for (std::uint32_t i = island_begin_[island]; i < island_begin_[island + 1]; ++i) {
    const double d2 = length_squared(island_portals_[i].midpoint - ends_->goal);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = island_portals_[i].next;
    }
  }
  return best;
}

bool NavMeshQuery::costs_steer(const QueryFilter& filter) const {
  return std::any_of(area_flags_.begin(), area_flags_.end(), [&](const AreaFlags& a) {
    return filter.area_cost[a.area] != 1 && filter.passes(a.flags);
  });
}

Status NavMeshQuery::begin(Vec3 from, Vec3 to, const QueryFilter& filter) {
  path_.polys.clear();
  path_.corners.clear();
  path_.links.clear();
  path_.length = infinite_cost;  // until a path is found
  to_ = to;
  // Polyanya is a distance search: under area costs that matter the funnel search answers.
  active_ = options_.mode == NavMode::shortest && costs_steer(filter) ? NavMode::funnel : options_.mode;
  path_.method = active_;
  const bool costs_ok = std::all_of(filter.area_cost.begin(), filter.area_cost.end(),
                                    [](Cost c) { return c >= 1 && std::isfinite(c); });
  const auto start = mesh_->nearest_poly(from, options_.half_extents, filter);
  const auto goal = mesh_->nearest_poly(to, options_.half_extents, filter);
  if (!costs_ok || !start || !goal) {
    // An end with no polygon of the filter's near it is blocked when the default filter finds
    // one there (the filter excludes it), else off the mesh (or not finite).
    const auto why = [&](Vec3 p, bool found, StatusDetail blocked) {
      if (found) return StatusDetail::none;
      return mesh_->nearest_poly(p, options_.half_extents) ? blocked : StatusDetail::out_of_bounds;
    };
    path_.status = Status::failure(StatusDetail::invalid_query |
                                   why(from, start.has_value(), StatusDetail::start_blocked) |
                                   why(to, goal.has_value(), StatusDetail::goal_blocked));
    return path_.status;
  }
  *ends_ = {start->poly, goal->poly, start->point, goal->point, filter};
  if (active_ != NavMode::shortest) {
    space_->set_query(*ends_);
    path_.status = portals_search_.begin(space_->start(), space_->goal());
  } else {
    polyanya_->set_query(*ends_);
    if (mesh_->island(start->poly) != mesh_->island(goal->poly) && mesh_->passes_all(filter)) {
      path_.status = Status::failure(StatusDetail::unreachable);  // apart: straight to the partial path, if asked for
    } else {
      path_.status = intervals_search_.begin(polyanya_->start_node(), polyanya_->goal_node());
    }
  }
  if (path_.status.finished()) finish();
  return path_.status;
}

Status NavMeshQuery::step(const search::Budget& budget) {
  if (!path_.status.running()) return path_.status;
  path_.status = active_ == NavMode::shortest ? intervals_search_.step(budget) : portals_search_.step(budget);
  if (path_.status.finished()) finish();
  return path_.status;
}

Status NavMeshQuery::find_path(Vec3 from, Vec3 to, const QueryFilter& filter) {
  begin(from, to, filter);
  return step();
}

void NavMeshQuery::cancel() {
  if (active_ == NavMode::shortest) {
    intervals_search_.cancel();
  } else {
    portals_search_.cancel();
  }
}

const SearchStats& NavMeshQuery::stats() const {
  return active_ == NavMode::shortest ? intervals_search_.stats() : portals_search_.stats();
}

void NavMeshQuery::finish() {
  if (active_ == NavMode::shortest) {
    finish_intervals();
  } else {
    finish_portals();
  }
}

void NavMeshQuery::finish_portals() {
  const auto& nodes = portals_search_.path().nodes;
  if (nodes.empty()) return;
  const bool centroids = active_ == NavMode::centroids;
  portals_.clear();
  // The funnel runs per stretch between links: from the start or a link's end to the next
  // link's start or the end. Each stretch's first point is already the last corner but for the first.
  const auto pull = [&](Vec3 from, Vec3 to, bool to_link) {
    string_pull(from, to, portals_, stretch_);
    path_.corners.insert(path_.corners.end(), stretch_.begin() + (path_.corners.empty() ? 0 : 1),
                         stretch_.end() - (to_link ? 1 : 0));
    portals_.clear();
  };
  Vec3 stretch_start = space_->position(space_->start());
  path_.polys.push_back(space_->poly(space_->start()));
  if (centroids) path_.corners.push_back(space_->position(space_->start()));
  for (std::uint32_t n : nodes) {
    if (n == space_->start() || n == space_->goal()) continue;
    if (const LinkTraversal* t = space_->traversal(n)) {
      if (!centroids) pull(stretch_start, t->from, true);
      detail::add_link_use(path_, *mesh_, *t);
      path_.polys.push_back(t->to_poly);
      stretch_start = t->to;
      continue;
    }
    const Segment3 e = mesh_->edge(n);
    portals_.push_back({e.b, e.a});  // leaving a polygon wound counter-clockwise: its edge's end is on the left
    path_.polys.push_back(space_->poly(n));
    if (centroids) {
      path_.corners.push_back(space_->midpoint(n));
      path_.corners.push_back(space_->position(n));
    }
  }
  const Vec3 end = nodes.back() == space_->goal() ? space_->position(space_->goal())
                                                  : mesh_->closest_point(path_.polys.back(), to_);
  if (centroids) {
    path_.corners.push_back(end);
  } else {
    pull(stretch_start, end, false);
  }
  path_.length = path_.corners.empty() ? infinite_cost : polyline_length(path_.corners);
}

void NavMeshQuery::finish_intervals() {
  if (path_.status.failed() && !path_.status.has(StatusDetail::cancelled) &&
      !path_.status.has(StatusDetail::out_of_nodes) && options_.query.partial_result) {
    // Unreachable: the polygon entered through the reachable portal nearest the goal (or the
    // start's, when the start is nearer) is the one that gets closest, and the point of it
    // nearest the goal the partial path's end; the shortest path to that point is the partial
    // path. Where the filter passes every polygon, the reachable portals are those of the
    // start's island, scanned (unless off-mesh links join islands: a one-way link does not
    // make its start reachable from its end); else the portal search finds them (and the
    // nearest, ties to the least g).
    detail::QueryEnds nearest = *ends_;
    if (mesh_->passes_all(ends_->filter) && mesh_->link_count() == 0) {
      nearest.goal_poly = nearest_on_start_island();
    } else {
      space_->set_query(*ends_);
      portals_search_.begin(space_->start(), space_->goal());
      portals_search_.step();
      const auto& corridor = portals_search_.path().nodes;
      if (corridor.empty()) return;
      nearest.goal_poly = space_->poly(corridor.back());
    }
    nearest.goal = mesh_->closest_point(nearest.goal_poly, to_);
    polyanya_->set_query(nearest);
    intervals_search_.begin(polyanya_->start_node(), polyanya_->goal_node());
    if (!intervals_search_.step().succeeded()) return;
    path_.status = Status::failure(StatusDetail::unreachable | StatusDetail::partial_result);
  }
  const auto& nodes = intervals_search_.path().nodes;
  if (nodes.empty() || !(path_.status.succeeded() || path_.status.has(StatusDetail::partial_result))) return;
  std::uint32_t last_root = PolyId::invalid_value;
  const auto add_poly = [&](PolyId p) {
    if (p.valid() && (path_.polys.empty() || path_.polys.back() != p)) path_.polys.push_back(p);
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const IntervalNode& n = nodes[i];
    if (i > 0) polyanya_->for_each_skipped_poly(nodes[i - 1], n, add_poly);  // the chain skipped
    add_poly(n.poly);
    if (n.root != last_root && polyanya_->links().traversal(n.root) != nullptr) {
      detail::add_link_use(path_, *mesh_, *polyanya_->links().traversal(n.root));
      last_root = n.root;
    } else if (n.root != last_root) {
      // A root straight on the line from the corner before (a vertex the path only grazes) is
      // not a bend: drop it, so the path goes straight in 3D too.
      const Vec3 p = polyanya_->root_point(n.root);
      const bool after_link = !path_.links.empty() && path_.links.back().corner + 2 == path_.corners.size();
      if (path_.corners.size() >= 2 && !after_link &&
          detail::side(plan(path_.corners[path_.corners.size() - 2]), plan(p), plan(path_.corners.back())) == 0) {
        path_.corners.back() = p;
      } else {
        path_.corners.push_back(p);
      }
      last_root = n.root;
    }
  }
  path_.length = path_.corners.empty() ? infinite_cost : polyline_length(path_.corners);
}

}  // namespace waymark::navmesh
