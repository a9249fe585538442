#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace waymark::navmesh::nav_query_test {
namespace {

/// Unit squares of a floor at height 0, given by their lower corners (x, z) in plan; each is
/// two triangles wound as a floor seen from above.
NavMesh floor_of(const std::vector<std::pair<double, double>>& squares, std::uint8_t area_of_last = 0) {
  TriangleMesh m;
  for (const auto& [x, z] : squares) {
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {{x, 0, z}, {x, 0, z + 1}, {x + 1, 0, z + 1}, {x + 1, 0, z}});
    m.triangles.push_back({base, base + 1, base + 2});
    m.triangles.push_back({base, base + 2, base + 3});
  }
  NavMeshData d = build_from_triangles(m).data();
  if (area_of_last != 0) d.areas[d.areas.size() - 1] = d.areas[d.areas.size() - 2] = area_of_last;
  return NavMesh(std::move(d));
}

TEST(NavMeshQuery, StraightAcrossOpenFloor) {
  const NavMesh nav = floor_of({{0, 0}, {1, 0}, {2, 0}});
  NavMeshQuery q(nav);
  ASSERT_EQ(q.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}), Status::success());
  EXPECT_EQ(q.path().corners.size(), 2u);
  EXPECT_DOUBLE_EQ(q.path().length, 2.0);
  EXPECT_EQ(q.path().polys.front(), nav.nearest_poly({0.5, 0, 0.5}, {0.1, 1, 0.1})->poly);
  EXPECT_EQ(q.path().polys.back(), nav.nearest_poly({2.5, 0, 0.5}, {0.1, 1, 0.1})->poly);
}

TEST(NavMeshQuery, BendsAtTheInnerCornerOfAnL) {
  const NavMesh nav = floor_of({{0, 0}, {1, 0}, {1, 1}});
  for (const NavMode mode : {NavMode::shortest, NavMode::funnel}) {
    NavMeshQuery q(nav, {.mode = mode});
    ASSERT_EQ(q.find_path({0.5, 0, 0.9}, {1.9, 0, 1.5}), Status::success());
    ASSERT_EQ(q.path().corners.size(), 3u);
    EXPECT_EQ(q.path().corners[1], (Vec3{1, 0, 1}));
    EXPECT_NEAR(q.path().length, std::hypot(0.5, 0.1) + std::hypot(0.9, 0.5), 1e-12);
    EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners, 0.01));
  }
}

TEST(NavMeshQuery, SamePolygonAndOffTheMesh) {
  const NavMesh nav = floor_of({{0, 0}});
  NavMeshQuery q(nav);
  ASSERT_EQ(q.find_path({0.1, 0.5, 0.1}, {0.2, 0, 0.15}), Status::success());
  EXPECT_EQ(q.path().corners.size(), 2u);
  EXPECT_EQ(q.path().corners[0], (Vec3{0.1, 0, 0.1}));  // the start, on the surface
  EXPECT_EQ(q.find_path({10, 0, 10}, {0.5, 0, 0.5}),
            Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds));
  EXPECT_TRUE(q.path().corners.empty());
  QueryFilter cheap;
  cheap.area_cost[3] = 0.5;
  EXPECT_EQ(q.find_path({0.5, 0, 0.5}, {0.6, 0, 0.6}, cheap), Status::failure(StatusDetail::invalid_query));
}

TEST(NavMeshQuery, PartialPathToThePolygonClosestToACutOffGoal) {
  // Two floors with a gap between x = 2 and x = 3.
  const NavMesh nav = floor_of({{0, 0}, {1, 0}, {3, 0}});
  NavMeshQuery q(nav, {.query = {.partial_result = true}});
  const Status s = q.find_path({0.5, 0, 0.5}, {3.5, 0, 0.5});
  EXPECT_TRUE(s.failed());
  EXPECT_TRUE(s.has(StatusDetail::partial_result));
  ASSERT_FALSE(q.path().corners.empty());
  EXPECT_NEAR(q.path().corners.back().x, 2.0, 1e-12);  // the edge of the reachable floor
  NavMeshQuery strict(nav, {.query = {.partial_result = false}});
  EXPECT_EQ(strict.find_path({0.5, 0, 0.5}, {3.5, 0, 0.5}), Status::failure(StatusDetail::unreachable));
  EXPECT_TRUE(strict.path().corners.empty());
}

TEST(NavMeshQuery, AreaCostsAndFlagsSteerThePath) {
  // A 3 x 2 floor; the middle square of the bottom row is area 5 (the last two triangles).
  const NavMesh nav = floor_of({{0, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 0}}, 5);
  NavMeshQuery q(nav, {.mode = NavMode::funnel});
  ASSERT_TRUE(q.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}).succeeded());
  EXPECT_DOUBLE_EQ(q.path().length, 2.0);  // straight through
  QueryFilter avoid;
  avoid.area_cost[5] = 100;
  ASSERT_TRUE(q.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}, avoid).succeeded());
  EXPECT_GT(q.path().length, 2.0);  // around, through the top row
  for (PolyId p : q.path().polys) EXPECT_NE(nav.area(p), 5);
  EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners, 0.01));
}

TEST(NavMeshQuery, ShortestModeNeverCrossesACostlyStripSilently) {
  // A 3 x 3 floor; the middle column's bottom two squares are area 5: a costly strip between
  // the start and the goal, with a way round through the top row.
  NavMeshData d = floor_of({{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 1}, {2, 2}, {1, 1}, {1, 0}}).data();
  for (std::size_t i = d.areas.size() - 4; i < d.areas.size(); ++i) d.areas[i] = 5;
  d.flags[d.flags.size() - 1] = d.flags[d.flags.size() - 2] = 0x2;  // the bottom one also flagged 0x2
  const NavMesh nav(std::move(d));
  const Vec3 from{0.5, 0, 0.5}, to{2.5, 0, 0.5};
  NavMeshQuery q(nav);
  ASSERT_TRUE(q.find_path(from, to).succeeded());  // no costs: Polyanya, straight through
  EXPECT_EQ(q.path().method, NavMode::shortest);
  EXPECT_DOUBLE_EQ(q.path().length, 2.0);

  QueryFilter avoid;
  avoid.area_cost[5] = 100;
  ASSERT_TRUE(q.find_path(from, to, avoid).succeeded());
  EXPECT_EQ(q.path().method, NavMode::funnel);  // answered by the cost-aware search, and said so
  EXPECT_GT(q.path().length, 3.0);              // round through the top row
  for (PolyId p : q.path().polys) EXPECT_NE(nav.area(p), 5);
  EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners, 0.01));

  QueryFilter elsewhere;  // a cost on an area no polygon has changes nothing
  elsewhere.area_cost[7] = 100;
  ASSERT_TRUE(q.find_path(from, to, elsewhere).succeeded());
  EXPECT_EQ(q.path().method, NavMode::shortest);
  EXPECT_DOUBLE_EQ(q.path().length, 2.0);

  // The costly polygons the filter passes decide: with the bottom square (flag 0x2) excluded,
  // area 5 still has the middle one (walk), so the funnel search answers, and goes round.
  QueryFilter avoid_and_exclude = avoid;
  avoid_and_exclude.exclude = 0x2;
  ASSERT_TRUE(q.find_path(from, to, avoid_and_exclude).succeeded());
  EXPECT_EQ(q.path().method, NavMode::funnel);
  for (PolyId p : q.path().polys) EXPECT_NE(nav.area(p), 5);

  NavMeshQuery funnel(nav, {.mode = NavMode::funnel});  // the funnel mode always answers itself
  ASSERT_TRUE(funnel.find_path(from, to).succeeded());
  EXPECT_EQ(funnel.path().method, NavMode::funnel);
}

TEST(NavMeshQuery, ShortestModeKeepsToThePolygonsTheFilterPasses) {
  // A 3 x 2 floor; the middle square of the bottom row gets flag 0x2 instead of walk.
  NavMeshData d = floor_of({{0, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 0}}).data();
  d.flags[d.flags.size() - 1] = d.flags[d.flags.size() - 2] = 0x2;
  const NavMesh nav(std::move(d));
  NavMeshQuery q(nav);
  ASSERT_TRUE(q.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}).succeeded());
  EXPECT_DOUBLE_EQ(q.path().length, 2.0);
  ASSERT_TRUE(q.find_path({0.5, 0, 0.5}, {2.5, 0, 0.5}, QueryFilter{.exclude = 0x2}).succeeded());
  EXPECT_NEAR(q.path().length, 2 * std::hypot(0.5, 0.5) + 1, 1e-12);  // round the excluded square's corners
  for (PolyId p : q.path().polys) EXPECT_EQ(nav.flags(p), walk_flag);
  EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners, 0.01));
}

TEST(NavMeshQuery, SteppingGivesTheSamePath) {
  const NavMesh nav = build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  for (const NavMode mode : {NavMode::shortest, NavMode::funnel}) {
    NavMeshQuery once(nav, {.mode = mode}), stepped(nav, {.mode = mode});
    const Vec3 from{18.138550, -2.370003, -21.319118}, to{-19.206181, -2.369133, 24.802742};
    ASSERT_TRUE(once.find_path(from, to).succeeded());
    ASSERT_TRUE(stepped.begin(from, to).running());
    int steps = 0;
    while (stepped.step(search::Budget::of_expansions(1)).running()) ++steps;
    EXPECT_GT(steps, 2);
    EXPECT_EQ(stepped.status(), once.status());
    EXPECT_EQ(stepped.path().corners, once.path().corners);
    EXPECT_EQ(stepped.path().polys, once.path().polys);
  }
}

TEST(NavMeshQuery, RecastDemoQueriesGivePathsOnTheMesh) {
  const NavMesh nav = build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  const auto queries = test::recast_demo_queries();
  ASSERT_EQ(queries.size(), 21u);
  NavMeshQuery q(nav);
  for (const auto& [from, to] : queries) {
    ASSERT_TRUE(q.find_path(from, to).succeeded());
    const NavPath& p = q.path();
    EXPECT_TRUE(test::stays_on_mesh(nav, p.corners));
    EXPECT_GE(p.length + 1e-9, distance(p.corners.front(), p.corners.back()));
    EXPECT_LE(distance(plan(p.corners.front()), plan(from)), 1e-9);  // the start is straight below or above
  }
}

// The centroid graph: the same polygons reached as the funnel mode's search, a path through
// centroids and edge midpoints that stays on the mesh, never shorter than the shortest mode's.
TEST(NavMeshQuery, CentroidModeWalksCentroidsOnTheMesh) {
  const NavMesh nav = build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  NavMeshQuery centroids(nav, {.mode = NavMode::centroids}), shortest(nav);
  int longer = 0;
  for (const auto& [from, to] : test::recast_demo_queries()) {
    ASSERT_TRUE(centroids.find_path(from, to).succeeded());
    ASSERT_TRUE(shortest.find_path(from, to).succeeded());
    const NavPath& p = centroids.path();
    EXPECT_TRUE(test::stays_on_mesh(nav, p.corners));
    EXPECT_GE(p.length + 1e-9, shortest.path().length);
    longer += p.length > shortest.path().length * 1.01;
    EXPECT_EQ(p.polys.front(), shortest.path().polys.front());
    EXPECT_EQ(p.polys.back(), shortest.path().polys.back());
    // start, then a midpoint and a centroid per polygon entered, then the goal
    ASSERT_EQ(p.corners.size(), 2 * p.polys.size());
    for (std::size_t i = 1; i < p.polys.size(); ++i) {
      EXPECT_NEAR(distance(p.corners[2 * i], nav.centroid(p.polys[i])), 0, 1e-9);
    }
  }
  EXPECT_GT(longer, 10);  // the crude graph's detours are what the other modes remove
}

TEST(NavMeshQuery, RandomPairsOnRecastDemoMeshesGivePathsOnTheMesh) {
  // dungeon.obj's floors meet other triangles mid-edge (T-junctions), so its triangles fall
  // into many islands: most of its pairs end in partial paths, which must be on the mesh too.
  for (const auto& [file, least_found] : {std::pair{"dungeon.obj", 3}, std::pair{"nav_test.obj", 20}}) {
    SCOPED_TRACE(file);
    const NavMesh nav = build_from_triangles(io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + file));
    std::mt19937_64 rng(11);
    NavMeshQuery q(nav, {.query = {.partial_result = true}});
    int found = 0;
    for (int i = 0; i < 200; ++i) {
      const Vec3 from = nav.random_point(rng)->point, to = nav.random_point(rng)->point;
      const Status s = q.find_path(from, to);
      ASSERT_TRUE(s.succeeded() || s.has(StatusDetail::partial_result));
      found += s.succeeded();
      EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners));
      EXPECT_GE(q.path().length + 1e-9, distance(q.path().corners.front(), q.path().corners.back()));
    }
    EXPECT_GE(found, least_found);
  }
}

}  // namespace
}  // namespace waymark::navmesh::nav_query_test
