#pragma once
// What every navmesh search mode shares about off-mesh links (not installed, not public):
// which traversals a filter lets a query take, what they cost, the heuristic's bound through
// shortcut links, and how a path records one.

#include <algorithm>
#include <limits>

#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/query_filter.hpp"

namespace waymark::navmesh::detail {

/// Whether a query may take traversal t from its polygon: the link's flags and the polygon it
/// lands in pass the filter.
inline bool link_passes(const NavMesh& mesh, const QueryFilter& filter, const LinkTraversal& t) {
  return filter.passes(mesh.link(t.link).flags) && filter.passes(mesh.flags(t.to_poly));
}

/// What taking t costs: its cost times the filter's cost for the link's area.
inline Cost link_cost(const NavMesh& mesh, const QueryFilter& filter, const LinkTraversal& t) {
  return t.cost * filter.area_cost[mesh.link(t.link).area];
}

/// A lower bound on the cost of any path to `goal` that takes a shortcut: a link that costs
/// less than walking between its ends could (least × dist(from, to), dist the search's own
/// measure), such as a teleporter. Any path either takes no shortcut, costing at least least ×
/// dist(n, goal) (walking and other links cost at least that per distance covered), or takes a
/// last one, t, costing at least link_cost(t) + least × dist(t.to, goal). So min(least ×
/// dist(n, goal), this bound) is an admissible heuristic. Infinity when there is no shortcut.
template <class Dist>
Cost shortcut_bound(const NavMesh& mesh, const QueryFilter& filter, Vec3 goal, Cost least, Dist dist) {
  Cost bound = std::numeric_limits<Cost>::infinity();
  for (const LinkTraversal& t : mesh.link_traversals()) {
    if (!filter.passes(mesh.link(t.link).flags)) continue;
    const Cost c = link_cost(mesh, filter, t);
    if (c < least * dist(t.from, t.to)) bound = std::min(bound, c + least * dist(t.to, goal));
  }
  return bound;
}

/// Appends a taken link to `path`: its two ends as corners, and its use.
inline void add_link_use(NavPath& path, const NavMesh& mesh, const LinkTraversal& t) {
  path.links.push_back({path.corners.size(), t.link, mesh.link(t.link).user_id, t.reversed});
  path.corners.push_back(t.from);
  path.corners.push_back(t.to);
}

}  // namespace waymark::navmesh::detail
