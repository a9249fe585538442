#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "support/detour_reference.hpp"
#include "support/error_text.hpp"
#include "support/navmesh_support.hpp"
#include "support/terrain_mesh.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/recast/tiled_build.hpp"

namespace waymark::recast::recast_test {
namespace {

using navmesh::NavMesh;
using navmesh::NavMeshQuery;
using navmesh::NavPath;

std::string build_error_of(const TriangleMesh& mesh, const RecastParams& params) {
  return test::error_text<BuildError>([&] { (void)build_nav_mesh(mesh, params); });
}

TriangleMesh load(const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); }

TEST(RecastBuild, ConvertsRecastsPolygonsFaithfully) {
  const RecastMeshes meshes = build_recast_meshes(load("nav_test.obj"));
  const NavMesh nav = to_nav_mesh(meshes);
  const rcPolyMesh& pm = meshes.poly_mesh();
  ASSERT_EQ(nav.poly_count(), static_cast<std::size_t>(pm.npolys));
  ASSERT_EQ(nav.vertex_count(), static_cast<std::size_t>(pm.nverts));
  std::size_t links = 0, recast_links = 0;
  for (int i = 0; i < pm.npolys; ++i) {
    const auto corners = nav.corners(PolyId{static_cast<std::uint32_t>(i)});
    int n = 0;
    while (n < pm.nvp && pm.polys[i * 2 * pm.nvp + n] != RC_MESH_NULL_IDX) {
      recast_links += pm.polys[i * 2 * pm.nvp + pm.nvp + n] != RC_MESH_NULL_IDX;
      ++n;
    }
    EXPECT_EQ(corners.size(), static_cast<std::size_t>(n));
    for (PolyId q : nav.neighbors(PolyId{static_cast<std::uint32_t>(i)})) links += q.valid();
  }
  EXPECT_EQ(links, recast_links);
  EXPECT_GT(links, 0u);
}

TEST(RecastBuild, RefusesBadParametersAndOversizedLevels) {
  const TriangleMesh mesh = load("nav_test.obj");
  EXPECT_EQ(build_error_of(mesh, {.cell_size = 0}), "Recast parameter cell_size must be > 0 and at most recast::max_cell_size (1000000)");
  // Past a float's range a cell's size would be an undefined float cast: refused before.
  EXPECT_EQ(build_error_of(mesh, {.cell_size = 1e39}), "Recast parameter cell_size must be > 0 and at most recast::max_cell_size (1000000)");
  EXPECT_EQ(build_error_of(mesh, {.cell_height = 1e39}), "Recast parameter cell_height must be > 0 and at most recast::max_cell_size (1000000)");
  EXPECT_EQ(build_error_of(mesh, {.verts_per_poly = 7}), "Recast parameter verts_per_poly must be from 3 to 6");
  EXPECT_EQ(build_error_of(mesh, {.agent_max_slope = 90}),
            "Recast parameter agent_max_slope must be from 0 to below 90 degrees");
  TriangleMesh huge;
  huge.vertices = {{0, 0, 0}, {0, 0, 1e5}, {1e5, 0, 1e5}};
  huge.triangles = {{0, 1, 2}};
  EXPECT_EQ(build_error_of(huge, {}),
            "the heightfield would have 333333 x 333333 cells, more than Recast indexes (recast::max_heightfield_cells = "
            "16777216; raise cell_size or build in tiles, --tile-size)");
  TriangleMesh wall;
  wall.vertices = {{0, 0, 0}, {0, 5, 0}, {5, 0, 0}};
  wall.triangles = {{0, 1, 2}};
  EXPECT_EQ(build_error_of(wall, {}), "no walkable area: the geometry is narrower than half a cell in plan");
  wall.vertices[2].z = 5;  // a steep slope: nothing walkable
  EXPECT_EQ(build_error_of(wall, {}), "no walkable area: Recast made no polygons: no triangle faces up within agent_max_slope "
                                      "(45 degrees; --agent-slope)");
}

// A build with no polygons says which step left nothing and the option that changes it, solo
// and tiled alike (it said "no walkable area: Recast made no polygons" whatever the cause).
TEST(RecastBuild, NoPolygonsSaysWhichStepLeftNothingAndTheOption) {
  const auto floor = [](double side, double ceiling) {  // a square floor, a ceiling over it (facing down) if ceiling > 0
    TriangleMesh m;
    m.vertices = {{0, 0, 0}, {side, 0, 0}, {side, 0, side}, {0, 0, side}};
    m.triangles = {{0, 2, 1}, {0, 3, 2}};
    if (ceiling > 0) {
      m.vertices.insert(m.vertices.end(), {{0, ceiling, 0}, {side, ceiling, 0}, {side, ceiling, side}, {0, ceiling, side}});
      m.triangles.insert(m.triangles.end(), {{4, 5, 6}, {4, 6, 7}});
    }
    return m;
  };
  TriangleMesh down = floor(20, 0);
  for (auto& t : down.triangles) std::swap(t[1], t[2]);
  const std::string prefix = "no walkable area: Recast made no polygons";
  const auto expect_why = [&](const TriangleMesh& m, const RecastParams& p, const std::string& why) {
    EXPECT_EQ(build_error_of(m, p), prefix + ": " + why);
    EXPECT_EQ(test::error_text<BuildError>([&] { (void)build_tiles(m, {.recast = p, .tile_size = 16}); }), prefix + " in any tile: " + why);
  };
  expect_why(down, {}, "no triangle faces up within agent_max_slope (45 degrees; --agent-slope)");
  expect_why(floor(20, 1), {}, "every walkable floor is a ledge over a drop higher than agent_max_climb (0.9) or has less than "
                               "agent_height (2) clear above it (--agent-climb, --agent-height)");
  expect_why(floor(2, 0), {.agent_radius = 1.2}, "eroding the floors by agent_radius (1.2) left none: every floor is narrower "
                                                 "than twice that (--agent-radius)");
  // Regions that meet a tile's border are kept whatever their size (Recast cannot tell it), so
  // this one is the solo build's.
  EXPECT_EQ(build_error_of(floor(4, 0), {}),
            prefix + ": every region has fewer than region_min_size squared cells (8 x 8; --region-min-size)");
  EXPECT_GT(build_nav_mesh(floor(4, 0), {.region_min_size = 1}).poly_count(), 0u);
}

/// Runs each query with Detour and with waymark in `mode` on the same Recast mesh: the same
/// queries must find a path (or a partial one) with both, every waymark path must stay on the
/// mesh, and the lengths of the paths both found are tallied.
test::LengthTally compare_with_detour(const RecastMeshes& meshes, const std::vector<std::pair<Vec3, Vec3>>& queries,
                                      navmesh::NavMode mode) {
  const NavMesh nav = to_nav_mesh(meshes);
  test::DetourReference detour(meshes);
  NavMeshQuery q(nav, {.mode = mode, .query = {.partial_result = true}});  // as Detour's findPath
  test::LengthTally c;
  for (const auto& [from, to] : queries) {
    const auto ref = detour.find_path(from, to, 0x3, 0);
    const Status s = q.find_path(from, to, navmesh::QueryFilter{.include = 0x3});
    EXPECT_EQ(ref.found, s.succeeded() || s.has(StatusDetail::partial_result));
    if (!ref.found || ref.partial || !s.succeeded()) continue;
    EXPECT_TRUE(test::stays_on_mesh(nav, q.path().corners));
    c.add(q.path().length, ref.length);
  }
  std::printf("%s vs Detour: %d compared, %d equal (1e-3 + 0.5%%), %d shorter, %d longer (worst x%.4f)\n",
              mode == navmesh::NavMode::funnel ? "funnel" : "shortest", c.compared, c.equal, c.shorter, c.longer,
              c.worst_longer_ratio);
  return c;
}

// The funnel mode against Detour on the same Recast polygon mesh. Both run A* over portals
// (Detour keeps one entry point per polygon, waymark one node per portal) and pull the string
// through the corridor found, so lengths agree but for the odd corridor choice. Heights are
// Detour's: polygon corners at the polygon mesh's, points inside from the detail mesh.
TEST(RecastDetour, FunnelModeAgreesWithDetourOnRecastDemoQueries) {
  const auto queries = test::recast_demo_queries();
  ASSERT_EQ(queries.size(), 21u);
  const test::LengthTally c = compare_with_detour(build_recast_meshes(load("nav_test.obj")), queries, navmesh::NavMode::funnel);
  EXPECT_EQ(c.compared, 21);
  EXPECT_GE(c.equal, 19);  // measured: 20 equal, 1 shorter
  EXPECT_LE(c.worst_longer_ratio, 1.01);
}

TEST(RecastDetour, FunnelModeAgreesWithDetourOnRandomDungeonPairs) {
  const RecastMeshes meshes = build_recast_meshes(load("dungeon.obj"));
  const auto queries = test::centroid_pairs(to_nav_mesh(meshes), 1000);
  const test::LengthTally c = compare_with_detour(meshes, queries, navmesh::NavMode::funnel);
  EXPECT_GT(c.compared, 500);
  // Measured: all 776 equal. The corridors may still differ on other meshes (Detour keeps one
  // entry point per polygon), so a few longer paths would not be a fault.
  EXPECT_GE(c.equal, c.compared * 95 / 100);
  EXPECT_LE(c.worst_longer_ratio, 1.05);
}

// The shortest mode is never longer than Detour's straight path: 1e-3, plus 0.5% because
// heights here are the polygon mesh's and Detour's come from its detail mesh.
TEST(RecastDetour, ShortestModeIsNeverLongerThanDetour) {
  for (const char* file : {"nav_test.obj", "dungeon.obj"}) {
    SCOPED_TRACE(file);
    const RecastMeshes meshes = build_recast_meshes(load(file));
    const auto queries = std::string(file) == "nav_test.obj" ? test::recast_demo_queries() : test::centroid_pairs(to_nav_mesh(meshes), 1000);
    const test::LengthTally c = compare_with_detour(meshes, queries, navmesh::NavMode::shortest);
    EXPECT_EQ(c.longer, 0);
    EXPECT_GT(c.compared, static_cast<int>(queries.size()) / 2);
    // and never longer than the funnel mode's path on the same mesh
    const NavMesh nav = to_nav_mesh(meshes);
    NavMeshQuery shortest(nav), funnel(nav, {.mode = navmesh::NavMode::funnel});
    int both = 0;
    for (const auto& [from, to] : queries) {
      const navmesh::QueryFilter filter{.include = 0x3};
      if (!shortest.find_path(from, to, filter).succeeded() || !funnel.find_path(from, to, filter).succeeded()) continue;
      ++both;
      EXPECT_LE(shortest.path().length, funnel.path().length + 1e-6);
    }
    EXPECT_EQ(both, c.compared);
  }
}

// Raycasts against Detour's on the same polygons: seeded rays from random points of the mesh,
// in random plan directions, up to 30 units long.
TEST(RecastDetour, RaycastAgreesWithDetour) {
  for (const char* file : {"nav_test.obj", "dungeon.obj"}) {
    SCOPED_TRACE(file);
    const RecastMeshes meshes = build_recast_meshes(load(file));
    const NavMesh nav = to_nav_mesh(meshes);
    test::DetourReference detour(meshes);
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi), reach(0, 30);
    navmesh::RaycastHit ours;
    int rays = 0, same = 0, hits = 0;
    double worst_t = 0;
    for (int i = 0; i < 2000; ++i) {
      const auto start = nav.random_point(rng);
      ASSERT_TRUE(start);
      const double a = angle(rng), len = reach(rng);
      const Vec3 to = start->point + Vec3{std::cos(a) * len, 0, std::sin(a) * len};
      ASSERT_TRUE(nav.raycast(start->poly, start->point, to, ours).succeeded());
      const auto ref = detour.raycast(start->poly.value, start->point, to);
      ASSERT_TRUE(ref.ok);
      ++rays;
      hits += ours.hit;
      // Agreement: the same verdict, t within a centimetre of travel, the same polygons.
      const bool agree = ours.hit == ref.hit && std::abs(ours.t - ref.t) * len <= 1e-2 &&
                         std::equal(ours.polys.begin(), ours.polys.end(), ref.polys.begin(), ref.polys.end(),
                                    [](PolyId p, std::uint32_t q) { return p.value == q; });
      same += agree;
      if (ours.hit == ref.hit) worst_t = std::max(worst_t, std::abs(ours.t - ref.t) * len);
      if (ours.hit && ref.hit && agree) {
        EXPECT_NEAR(ours.normal.x, ref.normal.x, 1e-3);
        EXPECT_NEAR(ours.normal.z, ref.normal.z, 1e-3);
      }
      const Vec2 expected = navmesh::plan(lerp(start->point, to, ours.t));
      EXPECT_NEAR(distance(navmesh::plan(ours.point), expected), 0, 1e-6);
    }
    std::printf("%s: %d rays, %d agree, %d hits, worst t gap %.3g\n", file, rays, same, hits, worst_t);
    // Measured: all 2,000 agree on both meshes (t within 6e-5 units). Detour works in floats,
    // so a ray grazing a vertex could go either way on another mesh.
    EXPECT_GE(same, rays * 99 / 100);
    EXPECT_GT(hits, rays / 4);
    EXPECT_LT(hits, rays);
  }
}

TEST(RecastNearestPoly, SamePolygonAndPointAsBruteForceIncludingTiesOnSharedEdges) {
  // Points anywhere in the bounds, and on the mesh: at corners and on edges (equally near two
  // or more polygons: the lowest id wins), a little above or below.
  const NavMesh meshes[] = {build_nav_mesh(load("dungeon.obj")), build_nav_mesh(test::hilly_terrain(2026))};
  for (const NavMesh& nav : meshes) {
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> unit(0, 1);
    const Aabb3 b = nav.bounds();
    int over = 0;
    for (int i = 0; i < 4000; ++i) {
      Vec3 c{b.min.x + unit(rng) * (b.max.x - b.min.x), b.min.y + unit(rng) * (b.max.y - b.min.y),
             b.min.z + unit(rng) * (b.max.z - b.min.z)};
      if (i % 2 == 1) {
        const PolyId p{static_cast<std::uint32_t>(rng() % nav.poly_count())};
        const auto corners = nav.corners(p);
        const std::size_t k = rng() % corners.size();
        const Vec3 from = nav.vertex(corners[k]), to = nav.vertex(corners[(k + 1) % corners.size()]);
        const double t = i % 4 == 1 ? 0.0 : i % 8 == 3 ? 0.5 : unit(rng);
        c = lerp(from, to, t) + Vec3{0, unit(rng) - 0.5, 0};
      }
      for (const Vec3 h : {Vec3{2, 4, 2}, Vec3{0.3, 1, 0.3}}) {
        const auto fast = nav.nearest_poly(c, h);
        const auto slow = test::brute_nearest_poly(nav, c, h);
        ASSERT_EQ(fast.has_value(), slow.has_value()) << i;
        if (!fast) continue;
        over += fast->point.x == c.x && fast->point.z == c.z;
        ASSERT_EQ(fast->poly, slow->poly) << i;
        ASSERT_EQ(fast->point, slow->point) << i;
      }
    }
    EXPECT_GT(over, 2000);  // most points are over a polygon
  }
}

}  // namespace
}  // namespace waymark::recast::recast_test
