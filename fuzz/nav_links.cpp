// Fuzz target: off-mesh link files (RecastDemo .gset `c` lines). Every link a parse returns
// passes NavMesh's own checks, and a mesh made with them answers a query in every mode
// without failing for a reason other than the path.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/nav_links.hpp"
#include "waymark/navmesh/nav_query.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  try {
    const auto links = io::parse_nav_links(in, "fuzz.gset", {.max_links = fuzz::max_vertices});
    // Two unit squares side by side at y = 0, and one apart at x = 3.
    navmesh::NavMeshData d;
    d.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 1}, {0, 0, 1},
                  {3, 0, 0}, {4, 0, 0}, {4, 0, 1}, {3, 0, 1}};
    d.poly_begin = {0, 4, 8, 12};
    d.corners = {0, 1, 4, 5, 1, 2, 3, 4, 6, 7, 8, 9};
    d.neighbors = {PolyId{}, PolyId{1}, PolyId{}, PolyId{}, PolyId{}, PolyId{}, PolyId{}, PolyId{0},
                   PolyId{}, PolyId{}, PolyId{}, PolyId{}};
    d.areas = {0, 0, 0};
    d.flags = {navmesh::walk_flag, navmesh::walk_flag, navmesh::walk_flag};
    d.links = links;
    navmesh::NavMesh nav(std::move(d));  // a BuildError here is a finding: the parser let a bad link through
    for (std::uint32_t i = 0; i < nav.link_count(); ++i) {
      const auto& r = nav.resolved_link(i);
      if (r.active != (r.start_poly.valid() && r.end_poly.valid()) || !(r.cost >= 0)) fuzz::finding();
    }
    for (const auto mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel, navmesh::NavMode::centroids}) {
      navmesh::NavMeshQuery q(nav, {.mode = mode});
      const Status s = q.find_path({0.5, 0, 0.5}, {3.5, 0, 0.5});
      if (s.succeeded()) {
        for (const auto& u : q.path().links) {
          if (u.corner + 1 >= q.path().corners.size() || u.link >= nav.link_count()) fuzz::finding();
        }
      } else if (!s.has(StatusDetail::unreachable)) {
        fuzz::finding();
      }
    }
  } catch (const LoadError&) {
  }
  return 0;
}
