#include "waymark/navmesh/drop_downs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "waymark/core/text.hpp"

namespace waymark::navmesh {

namespace {

bool finite_at_least(double v, double lo) { return std::isfinite(v) && v >= lo; }

}  // namespace

std::vector<OffMeshLink> generate_drop_downs(const NavMesh& mesh, const DropDownParams& params) {
  const DropDownParams& p = params;
  if (!(finite_at_least(p.spacing, 0) && p.spacing > 0 && finite_at_least(p.reach, 0) && p.reach > 0 &&
        finite_at_least(p.min_drop, 0) && std::isfinite(p.max_drop) && p.max_drop > p.min_drop &&
        std::isfinite(p.radius) && p.radius > 0 && finite_at_least(p.cost, 0) && p.area < max_areas &&
        p.max_links <= max_links)) {
    throw BuildError("drop-down parameters: spacing, reach and radius must be finite and > 0, min_drop >= 0, max_drop > "
                     "min_drop, cost >= 0, area below max_areas, max_links at most navmesh::max_links");
  }
  const double min_drop = std::max(p.min_drop, mesh.data().climb);
  std::vector<OffMeshLink> links;
  if (!(p.max_drop > min_drop)) return links;
  const QueryFilter any;
  const auto corners = static_cast<std::uint32_t>(mesh.data().corners.size());
  for (std::uint32_t k = 0; k < corners; ++k) {
    if (mesh.twin(k) != PolyId::invalid_value) continue;
    const Segment3 e = mesh.edge(k);
    const Vec2 along = plan(e.b) - plan(e.a);
    const double len = length(along);
    if (!(len > 0)) continue;
    const Vec2 out = Vec2{along.y, -along.x} / len;  // right of a counter-clockwise edge: outside
    // At most max_drop_down_samples per edge: a tiny spacing on a long edge stays bounded.
    const auto samples = static_cast<std::size_t>(
        std::clamp(std::floor(len / p.spacing), 1.0, static_cast<double>(max_drop_down_samples)));
    for (std::size_t i = 0; i < samples; ++i) {
      const Vec3 s = e.at((static_cast<double>(i) + 0.5) / static_cast<double>(samples));
      const Vec2 q = plan(s) + out * p.reach;
      // The highest surface in [s.y - max_drop, s.y - min_drop): each find looks above the last.
      std::optional<NearestPoly> landing;
      double lo = s.y - p.max_drop;
      const double hi = s.y - min_drop;
      while (lo < hi) {
        const auto found = mesh.poly_at({q.x, (lo + hi) / 2, q.y}, (hi - lo) / 2, any);
        // Rounding in the box's centre and half height may return the last one again: done.
        if (!found || found->point.y >= hi || found->point.y < lo) break;
        landing = found;
        lo = std::nextafter(found->point.y, std::numeric_limits<double>::infinity());
      }
      if (!landing) continue;
      if (links.size() >= p.max_links) {
        throw BuildError("drop-downs: more than " + number_text(p.max_links) + " links (DropDownParams::max_links)");
      }
      OffMeshLink l;
      l.start = s;
      l.end = landing->point;
      l.radius = p.radius;
      l.area = p.area;
      l.flags = p.flags;
      l.cost = p.cost;
      l.user_id = static_cast<std::uint32_t>(links.size());
      links.push_back(l);
    }
  }
  return links;
}

}  // namespace waymark::navmesh
