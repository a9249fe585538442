// After warm-up, navmesh queries (nearest polygons, the searches, the funnel, raycasts, random points) allocate
// nothing: support/allocation_counter.hpp counts every heap allocation.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/link_levels.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace waymark::navmesh::nav_allocation_test {
namespace {

TEST(NavMeshAllocation, NoAllocationPerQueryAfterWarmUp) {
  const NavMesh nav = build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint32_t> any_poly(0, static_cast<std::uint32_t>(nav.poly_count() - 1));
  std::vector<std::pair<Vec3, Vec3>> pairs;
  for (int i = 0; i < 50; ++i) pairs.emplace_back(nav.centroid(PolyId{any_poly(rng)}), nav.centroid(PolyId{any_poly(rng)}));
  for (const NavMode mode : {NavMode::shortest, NavMode::funnel, NavMode::centroids}) {
    NavMeshQuery query(nav, {.mode = mode});
    test::expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [from, to] : pairs) solved += query.find_path(from, to).succeeded() ? 1 : 0;
      return solved;
    });
  }
  // Raycasts and random points: the hit's polygon list keeps its capacity.
  RaycastHit hit;
  test::expect_no_allocation_after_warm_up([&] {
    std::mt19937_64 points(5);  // the same rays each run
    std::size_t walls = 0;
    for (const auto& [from, to] : pairs) {
      const auto start = nav.random_point(points);
      if (start && nav.raycast(start->poly, start->point, to, hit).succeeded()) walls += hit.hit ? 1 : 0;
    }
    return walls;
  });
}

// Off-mesh links (issue 41): the link tree's state (per traversal, box and polygon) and a
// relaxation's finds are sized with the query object, so many links between two polygons
// allocate nothing per query either, in every mode, whether a query takes a link or searches
// everything it reaches.
TEST(NavMeshAllocation, NoAllocationPerQueryWithManyLinks) {
  const NavMesh nav(test::two_squares_with_links(2000));
  QueryFilter no_doors;
  no_doors.exclude = 0x02;
  for (const NavMode mode : {NavMode::shortest, NavMode::funnel, NavMode::centroids}) {
    NavMeshQuery query(nav, {.mode = mode});
    test::expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      solved += query.find_path({1, 0, 1}, {20, 0, 9}).succeeded() ? 1 : 0;
      solved += query.find_path({9, 0, 9}, {12, 0, 2}).succeeded() ? 1 : 0;
      solved += query.find_path({1, 0, 1}, {30, 0, 5}, no_doors).succeeded() ? 1 : 0;
      return solved;
    });
  }
}

}  // namespace
}  // namespace waymark::navmesh::nav_allocation_test
