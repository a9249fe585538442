#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "support/error_text.hpp"
#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::navmesh::nav_mesh_test {
namespace {

/// The BuildError's message of `f()`, or "" when it does not throw.
template <class F>
std::string build_error_of(F&& f) {
  return test::error_text<BuildError>(f);
}

/// A unit square floor at height `y` as two triangles that do not share vertex indices (as
/// exporters often write them), wound as a floor seen from above (normal +y).
TriangleMesh square_floor(double y = 0) {
  TriangleMesh m;
  m.vertices = {{0, y, 0}, {0, y, 1}, {1, y, 1}, {0, y, 0}, {1, y, 1}, {1, y, 0}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  return m;
}

TEST(NavMeshBuild, WeldsSharedCornersIntoNeighbours) {
  const NavMesh nav = build_from_triangles(square_floor());
  ASSERT_EQ(nav.poly_count(), 2u);
  EXPECT_EQ(nav.vertex_count(), 4u);
  int links = 0;
  for (std::uint32_t p = 0; p < 2; ++p) {
    for (PolyId q : nav.neighbors(PolyId{p})) {
      if (q.valid()) {
        EXPECT_EQ(q.value, 1 - p);
        ++links;
      }
    }
  }
  EXPECT_EQ(links, 2);
  EXPECT_EQ(nav.flags(PolyId{0}), walk_flag);
}

TEST(NavMeshBuild, WithoutWeldingCopiesStayApart) {
  TriangleMesh m = square_floor();
  m.vertices[3].x += 0.01;  // the second triangle's copy of corner (0, 0, 0) is off by 0.01
  const NavMesh close = build_from_triangles(m, {.weld_distance = 0.02});
  EXPECT_EQ(close.vertex_count(), 4u);
  const NavMesh apart = build_from_triangles(m, {.weld_distance = 0.001});
  EXPECT_EQ(apart.vertex_count(), 5u);
  for (PolyId q : apart.neighbors(PolyId{0})) EXPECT_FALSE(q.valid());
}

TEST(NavMeshBuild, KeepsFloorsAndGentleSlopesOnly) {
  // Ramps rising along z: 30 degrees is walkable at the default 45, 60 is not; a ceiling
  // (facing down) and a wall never are.
  const auto ramp = [](double degrees) {
    const double rise = std::tan(degrees * std::acos(-1.0) / 180);
    TriangleMesh m;
    m.vertices = {{0, 0, 0}, {0, rise, 1}, {1, 0, 0}};
    m.triangles = {{0, 1, 2}};
    return m;
  };
  EXPECT_EQ(build_from_triangles(ramp(30)).poly_count(), 1u);
  EXPECT_EQ(build_error_of([&] { (void)build_from_triangles(ramp(60)); }),
            "no walkable triangles: none of the 1 triangles faces up at a slope of at most 45 degrees with a "
            "plan area above 1e-09");
  EXPECT_EQ(build_from_triangles(ramp(60), {.max_slope_degrees = 61}).poly_count(), 1u);
  TriangleMesh ceiling = square_floor();
  for (auto& t : ceiling.triangles) std::swap(t[1], t[2]);
  EXPECT_NE(build_error_of([&] { (void)build_from_triangles(ceiling); }), "");
  TriangleMesh wall;
  wall.vertices = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
  wall.triangles = {{0, 1, 2}};
  EXPECT_NE(build_error_of([&] { (void)build_from_triangles(wall); }), "");
}

TEST(NavMeshBuild, DropsSliversAndRepeatsAndRefusesBadParameters) {
  TriangleMesh m = square_floor();
  m.vertices.push_back({2, 0, 0});
  m.triangles.push_back({0, 1, 2});  // a repeat of the first triangle
  m.triangles.push_back({5, 6, 5});  // two corners at one place
  EXPECT_EQ(build_from_triangles(m).poly_count(), 2u);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(build_error_of([&] { (void)build_from_triangles(m, {.max_slope_degrees = nan}); }),
            "max slope must be from 0 to below 90 degrees, got nan");
  EXPECT_EQ(build_error_of([&] { (void)build_from_triangles(m, {.weld_distance = -1}); }),
            "weld distance must be finite and >= 0, got -1");
  m.triangles.push_back({0, 1, 7});
  EXPECT_EQ(build_error_of([&] { (void)build_from_triangles(m); }), "a triangle names a vertex the mesh does not have");
}

/// Two unit squares side by side in x, each one polygon, linked across x = 1.
NavMeshData two_squares() {
  NavMeshData d;
  d.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 1}};
  // Counter-clockwise in plan (x, z): (0,0) (0,1) (1,1) (1,0) turns … check with cross > 0.
  d.corners = {0, 1, 4, 3, 1, 2, 5, 4};
  d.poly_begin = {0, 4, 8};
  d.neighbors = {PolyId{}, PolyId{1}, PolyId{}, PolyId{}, PolyId{}, PolyId{}, PolyId{}, PolyId{0}};
  d.areas = {0, 0};
  d.flags = {walk_flag, 0x02};
  return d;
}

TEST(NavMesh, ChecksItsData) {
  EXPECT_EQ(build_error_of([] { NavMesh nav(two_squares()); }), "");
  NavMeshData bad = two_squares();
  bad.neighbors[7] = PolyId{};
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }),
            "navmesh polygon 0: neighbour 1 does not share edge 1-4 back");
  bad = two_squares();
  std::swap(bad.corners[1], bad.corners[3]);  // clockwise
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }),
            "navmesh polygon 0: is not convex and counter-clockwise in plan (x, z)");
  bad = two_squares();
  bad.vertices[4] = {0.2, 0, 0.5};  // dents both squares
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }),
            "navmesh polygon 0: is not convex and counter-clockwise in plan (x, z)");
  bad = two_squares();
  bad.corners[2] = 6;
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }), "navmesh polygon 0: corner 6 is not a vertex");
  bad = two_squares();
  bad.vertices[0].y = std::numeric_limits<double>::infinity();
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }), "navmesh data: a vertex has a coordinate that is not finite");
  bad = two_squares();
  bad.areas[1] = max_areas;
  EXPECT_EQ(build_error_of([&] { NavMesh nav(bad); }), "navmesh polygon 1: area type 64 is not below 64");
}

TEST(NavMesh, NearestPolyAndClosestPoint) {
  NavMeshData d = two_squares();
  d.vertices[2].y = d.vertices[5].y = 1;  // the second square slopes up to y = 1 at x = 2
  const NavMesh nav(std::move(d));
  const Vec3 ext{0.5, 2, 0.5};
  auto hit = nav.nearest_poly({1.5, 3, 0.5}, {0.5, 4, 0.5});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->poly, PolyId{1});
  EXPECT_NEAR(hit->point.y, 0.5, 1e-12);  // straight below, on the slope
  hit = nav.nearest_poly({-0.3, 0, 0.5}, ext);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->poly, PolyId{0});
  EXPECT_EQ(hit->point, (Vec3{0, 0, 0.5}));  // the nearest boundary point
  EXPECT_FALSE(nav.nearest_poly({-0.6, 0, 0.5}, ext));  // the box misses every polygon
  EXPECT_FALSE(nav.nearest_poly({0.5, 0, 0.5}, ext, QueryFilter{.include = 0x04}));
  hit = nav.nearest_poly({0.9, 0, 0.5}, ext, QueryFilter{.include = 0xffff, .exclude = walk_flag});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->poly, PolyId{1});
  EXPECT_FALSE(nav.nearest_poly({std::nan(""), 0, 0}, ext));
}

TEST(NavMesh, RaycastCrossesPortalsAndStopsAtWalls) {
  const NavMesh nav(two_squares());
  RaycastHit hit;
  // Along the middle, across the portal at x = 1, into the wall at x = 2.
  ASSERT_TRUE(nav.raycast(PolyId{0}, {0.5, 0, 0.5}, {3.5, 0, 0.5}, hit).succeeded());
  EXPECT_TRUE(hit.hit);
  EXPECT_NEAR(hit.t, 0.5, 1e-12);
  EXPECT_NEAR(distance(hit.point, Vec3{2, 0, 0.5}), 0, 1e-12);
  EXPECT_NEAR(distance(hit.normal, Vec3{-1, 0, 0}), 0, 1e-12);  // back the way it came
  EXPECT_EQ(hit.polys, (std::vector<PolyId>{PolyId{0}, PolyId{1}}));
  // Ending inside: no hit, t = 1, the end point on the surface.
  ASSERT_TRUE(nav.raycast(PolyId{0}, {0.5, 0, 0.5}, {1.5, 7, 0.25}, hit).succeeded());
  EXPECT_FALSE(hit.hit);
  EXPECT_EQ(hit.t, 1);
  EXPECT_EQ(hit.point, (Vec3{1.5, 0, 0.25}));
  EXPECT_EQ(hit.normal, Vec3{});
  EXPECT_EQ(hit.polys.size(), 2u);
  // Sideways into the wall at z = 0.
  ASSERT_TRUE(nav.raycast(PolyId{1}, {1.5, 0, 0.5}, {1.5, 0, -0.5}, hit).succeeded());
  EXPECT_TRUE(hit.hit);
  EXPECT_NEAR(hit.t, 0.5, 1e-12);
  EXPECT_NEAR(distance(hit.normal, Vec3{0, 0, 1}), 0, 1e-12);
  EXPECT_EQ(hit.polys, (std::vector<PolyId>{PolyId{1}}));
  // A polygon the filter rejects is a wall: square 1 has flag 0x02 only.
  ASSERT_TRUE(nav.raycast(PolyId{0}, {0.5, 0, 0.5}, {1.5, 0, 0.5}, hit, QueryFilter{.include = walk_flag}).succeeded());
  EXPECT_TRUE(hit.hit);
  EXPECT_NEAR(hit.t, 0.5, 1e-12);
  EXPECT_EQ(hit.polys, (std::vector<PolyId>{PolyId{0}}));
  // A zero-length ray reaches its end where it starts.
  ASSERT_TRUE(nav.raycast(PolyId{0}, {0.5, 0, 0.5}, {0.5, 0, 0.5}, hit).succeeded());
  EXPECT_FALSE(hit.hit);
  // Bad input is a status, not a crash.
  EXPECT_TRUE(nav.raycast(PolyId{2}, {0.5, 0, 0.5}, {1, 0, 0}, hit).has(StatusDetail::invalid_query));
  EXPECT_TRUE(nav.raycast(PolyId{}, {0.5, 0, 0.5}, {1, 0, 0}, hit).has(StatusDetail::invalid_query));
  EXPECT_TRUE(nav.raycast(PolyId{0}, {std::nan(""), 0, 0.5}, {1, 0, 0}, hit).has(StatusDetail::invalid_query));
  EXPECT_TRUE(nav.raycast(PolyId{1}, {1.5, 0, 0.5}, {1, 0, 0}, hit, QueryFilter{.include = walk_flag})
                  .has(StatusDetail::invalid_query));
}

TEST(NavMesh, RandomPointsAreSeededOnTheSurfaceAndSpreadByArea) {
  NavMeshData d = two_squares();
  d.vertices[2].x = d.vertices[5].x = 4;  // the second polygon 3 units wide: 3/4 of the area
  d.vertices[2].y = d.vertices[5].y = 3;  // and sloping up to y = 3
  const NavMesh nav(std::move(d));
  EXPECT_DOUBLE_EQ(nav.plan_area(PolyId{0}), 1);
  EXPECT_DOUBLE_EQ(nav.plan_area(PolyId{1}), 3);
  std::mt19937_64 a(42), b(42);
  int in_second = 0;
  constexpr int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    const auto p = nav.random_point(a), q = nav.random_point(b);
    ASSERT_TRUE(p && q);
    EXPECT_EQ(p->point, q->point);  // the same seed, the same points
    EXPECT_TRUE(nav.contains_in_plan(p->poly, plan(p->point)));
    const double surface = p->poly == PolyId{0} ? 0 : p->point.x - 1;  // y on the slope
    EXPECT_NEAR(p->point.y, surface, 1e-9);
    in_second += p->poly == PolyId{1};
  }
  // 3/4 expected; 4 standard deviations of a binomial of 40,000 draws is 0.0087.
  EXPECT_NEAR(static_cast<double>(in_second) / draws, 0.75, 0.0087);
  // Within a polygon, uniform: a quarter of square 0 (x < 0.5, z < 0.5) holds a quarter.
  int quarter = 0, first = 0;
  for (int i = 0; i < draws; ++i) {
    const auto p = nav.random_point(a, QueryFilter{.include = walk_flag});
    ASSERT_TRUE(p);
    ASSERT_EQ(p->poly, PolyId{0});  // the filter leaves only square 0
    ++first;
    quarter += p->point.x < 0.5 && p->point.z < 0.5;
  }
  EXPECT_NEAR(static_cast<double>(quarter) / first, 0.25, 0.0087);
  EXPECT_FALSE(nav.random_point(a, QueryFilter{.include = 0x04}));
  // The three-number form at its ends stays in range.
  EXPECT_TRUE(nav.random_point({}, 0, 0, 0));
  EXPECT_TRUE(nav.random_point({}, 1, 1, 1));
}

TEST(NavMesh, RecastDemoMeshesBuildAndTheIndexAgreesWithBruteForce) {
  for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
    SCOPED_TRACE(file);
    const NavMesh nav = build_from_triangles(io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + file));
    EXPECT_GT(nav.poly_count(), 100u);
    std::size_t links = 0;
    for (std::uint32_t p = 0; p < nav.poly_count(); ++p) {
      for (PolyId q : nav.neighbors(PolyId{p})) links += q.valid();
    }
    EXPECT_GT(links, nav.poly_count());  // most triangles have neighbours
    std::mt19937_64 rng(7);
    const Aabb3 b = nav.bounds();
    std::uniform_real_distribution<double> ux(b.min.x, b.max.x), uy(b.min.y, b.max.y), uz(b.min.z, b.max.z);
    int found = 0;
    for (int i = 0; i < 500; ++i) {
      const Vec3 c{ux(rng), uy(rng), uz(rng)};
      const Vec3 h{2, 4, 2};  // RecastDemo's pick extents
      const auto fast = nav.nearest_poly(c, h);
      const auto slow = test::brute_nearest_poly(nav, c, h);
      ASSERT_EQ(fast.has_value(), slow.has_value());
      if (!fast) continue;
      ++found;
      EXPECT_DOUBLE_EQ(length_squared(fast->point - c), length_squared(slow->point - c));
      EXPECT_EQ(fast->poly, slow->poly);  // ties: the lowest id
    }
    EXPECT_GT(found, 50);  // the boxes are sampled in the whole 3D bounds, many in the air
  }
}

}  // namespace
}  // namespace waymark::navmesh::nav_mesh_test
