// The shortest mode over hills (issue 31): on a procedural hilly terrain built with Recast
// (tests/support/terrain_mesh.hpp, fixed seed), no shortest-mode path is longer in 3D than the
// funnel mode's or Detour's own path for the same query.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "support/detour_reference.hpp"
#include "support/terrain_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::recast::shortest_surface_test {
namespace {

using navmesh::NavMeshQuery;
using navmesh::NavMode;

TEST(ShortestOnTheSurface, NeverLongerIn3DThanFunnelOrDetourOnHillyTerrain) {
  const RecastMeshes meshes = build_recast_meshes(test::hilly_terrain(2026));
  const navmesh::NavMesh nav = to_nav_mesh(meshes);
  ASSERT_GT(nav.bounds().max.y - nav.bounds().min.y, 2.0);  // hills, not a floor
  test::DetourReference detour(meshes);
  NavMeshQuery shortest(nav), funnel(nav, {.mode = NavMode::funnel});
  int compared = 0, detour_compared = 0, shorter_than_detour = 0;
  double worst_over_funnel = 0, worst_over_detour = 0;
  for (const auto& [from, to] : test::random_point_pairs(nav, 500, 2026)) {
    const Status s = shortest.find_path(from, to);
    const Status f = funnel.find_path(from, to);
    ASSERT_EQ(s.succeeded(), f.succeeded());
    const test::DetourReference::Result ref = detour.find_path(from, to);
    if (!s.succeeded()) continue;
    ++compared;
    const double ours = shortest.path().length;
    worst_over_funnel = std::max(worst_over_funnel, ours / funnel.path().length - 1);
    EXPECT_LE(ours, funnel.path().length * (1 + 1e-9)) << "query " << compared;
    // The corridor is whole: each polygon a neighbour of the one before (chains of polygons
    // the search crossed at once included), from the start's to the goal's.
    const auto& polys = shortest.path().polys;
    EXPECT_EQ(polys.front(), nav.nearest_poly(from, {2, 4, 2})->poly);
    EXPECT_EQ(polys.back(), nav.nearest_poly(to, {2, 4, 2})->poly);
    for (std::size_t i = 1; i < polys.size(); ++i) {
      const auto next = nav.neighbors(polys[i - 1]);
      EXPECT_NE(std::find(next.begin(), next.end(), polys[i]), next.end()) << "query " << compared << ", step " << i;
    }
    if (ref.found && !ref.partial) {
      ++detour_compared;
      // Detour works in float: on this 60-unit terrain each corner coordinate is rounded by up
      // to 2^-19 * 64 = 3.8e-6 (half an ulp at 32-64), so its lengths are within a few 1e-6
      // absolute of the same corners' in double. The bound: 1e-9 relative plus 1e-5.
      worst_over_detour = std::max(worst_over_detour, ours - ref.length);
      EXPECT_LE(ours, ref.length * (1 + 1e-9) + 1e-5) << "query " << compared;
      shorter_than_detour += ours < ref.length - 1e-5;
    }
  }
  std::printf("%d paths against funnel (worst %+.2e), %d against Detour (worst %+.2e units, %d shorter by more than 1e-5)\n", compared,
              worst_over_funnel, detour_compared, worst_over_detour, shorter_than_detour);
  EXPECT_GT(compared, 400);
  EXPECT_GT(detour_compared, 400);
}

}  // namespace
}  // namespace waymark::recast::shortest_surface_test
