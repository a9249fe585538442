// NavMesh's off-mesh links: their checks, and their ends joined to the mesh (nav_mesh.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "waymark/core/text.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

#include "disjoint_sets.hpp"

namespace waymark::navmesh {

namespace {

[[noreturn]] void fail_link(std::size_t i, const std::string& reason) {
  throw BuildError("navmesh link " + number_text(i) + ": " + reason);
}


/// Every flag: the ends join a polygon whatever filter a query runs under later (as Detour's
/// findNearestPolyInTile, which takes none).
constexpr QueryFilter any_flag{};

}  // namespace

void NavMesh::check_links() const {
  const auto& links = data_.links;
  if (links.size() > max_links) {
    throw BuildError("navmesh data: " + number_text(links.size()) + " links, more than max_links (" +
                     number_text(max_links) + ")");
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (const auto why = find_link_problem(links[i])) fail_link(i, *why);
  }
}

std::optional<std::string> find_link_problem(const OffMeshLink& l) {
  // Each reason names what it is about first ("start", "radius", ...), so that it reads both
  // after "navmesh link 3: " and after "an off-mesh link's ".
  const auto not_finite = [](const char* which, Vec3 p) {
    std::string why = which;
    why.append(" (").append(number_text(p.x)).append(", ").append(number_text(p.y)).append(", ");
    why.append(number_text(p.z)).append(") has a coordinate that is not finite");
    return why;
  };
  if (!finite(l.start)) return not_finite("start", l.start);
  if (!finite(l.end)) return not_finite("end", l.end);
  if (!(l.radius > 0 && std::isfinite(l.radius))) return "radius must be finite and > 0, got " + number_text(l.radius);
  if (!(l.cost >= 0 && std::isfinite(l.cost))) return "cost must be finite and >= 0, got " + number_text(l.cost);
  if (l.area >= max_areas) return "area type " + number_text(l.area) + " is not below " + number_text(max_areas);
  return std::nullopt;
}

void NavMesh::resolve_links() {
  const std::size_t polys = poly_count();
  const auto& links = data_.links;
  resolved_links_.assign(links.size(), {});
  // Each end: the nearest polygon within the radius in plan and max(climb, radius) in height.
  const auto join = [&](Vec3 p, double radius) -> std::optional<NearestPoly> {
    const double vertical = std::max(data_.climb, radius);
    const auto near = nearest_poly(p, Vec3{radius, vertical, radius}, any_flag);
    if (!near) return std::nullopt;
    const double dx = near->point.x - p.x, dz = near->point.z - p.z;
    if (dx * dx + dz * dz > radius * radius || std::abs(near->point.y - p.y) > vertical) return std::nullopt;
    return near;
  };
  std::vector<LinkTraversal> ways;
  for (std::uint32_t i = 0; i < links.size(); ++i) {
    const OffMeshLink& l = links[i];
    ResolvedLink& r = resolved_links_[i];
    r.start = l.start;
    r.end = l.end;
    const auto a = join(l.start, l.radius), b = join(l.end, l.radius);
    if (a) {
      r.start_poly = a->poly;
      r.start = a->point;
    }
    if (b) {
      r.end_poly = b->poly;
      r.end = b->point;
    }
    r.cost = l.cost > 0 ? l.cost : distance(r.start, r.end);
    r.active = a && b;
    if (!r.active) continue;
    ways.push_back({i, r.start_poly, r.end_poly, r.start, r.end, r.cost, false});
    if (l.bidirectional) ways.push_back({i, r.end_poly, r.start_poly, r.end, r.start, r.cost, true});
  }
  std::stable_sort(ways.begin(), ways.end(),
                   [](const LinkTraversal& x, const LinkTraversal& y) { return x.from_poly < y.from_poly; });
  traversals_ = std::move(ways);
  traversal_begin_.assign(polys + 1, 0);
  for (const LinkTraversal& t : traversals_) ++traversal_begin_[t.from_poly.value + 1];
  std::partial_sum(traversal_begin_.begin(), traversal_begin_.end(), traversal_begin_.begin());
  if (traversals_.empty()) return;

  for (const LinkTraversal& t : traversals_) dead_end_[t.from_poly.value] = 0;
  // Islands joined through links (either way): union the islands, then number them again in
  // the order their first polygon comes.
  detail::DisjointSets islands;
  islands.reset(polys);
  for (const LinkTraversal& t : traversals_) {
    const std::uint32_t a = islands.find(island_[t.from_poly.value]), b = islands.find(island_[t.to_poly.value]);
    islands.join(std::max(a, b), std::min(a, b));  // the lower island's number is the root
  }
  std::vector<std::uint32_t> renumber(polys, PolyId::invalid_value);
  std::uint32_t next = 0;
  for (std::uint32_t i = 0; i < polys; ++i) {
    const std::uint32_t r = islands.find(island_[i]);
    if (renumber[r] == PolyId::invalid_value) renumber[r] = next++;
    island_[i] = renumber[r];
  }
}

}  // namespace waymark::navmesh
