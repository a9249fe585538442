// Recast's own limits (issue 32, section 1): every input that would reach a narrow field of
// Debian's Recast 1.5.1 is refused before Recast runs, with the limit named, and a level far
// from the origin builds as it does at the origin, translated.
#include <gtest/gtest.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/recast/tiled_build.hpp"

namespace waymark::recast::recast_limits_test {
namespace {

using navmesh::NavMesh;
using navmesh::NavMeshQuery;

TriangleMesh load(const char* name) { return io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + name); }

std::string solo_error(const TriangleMesh& mesh, const RecastParams& params) {
  return test::error_text<BuildError>([&] { (void)build_nav_mesh(mesh, params); });
}

std::string tiled_error(const TriangleMesh& mesh, const RecastParams& params) {
  return test::error_text<BuildError>([&] { (void)build_tiles(mesh, {.recast = params, .tile_size = 32}); });
}

/// Expects both builds to refuse `params` on `mesh`, naming `limit`.
void expect_refused(const TriangleMesh& mesh, const RecastParams& params, const std::string& limit) {
  EXPECT_NE(solo_error(mesh, params).find(limit), std::string::npos) << solo_error(mesh, params);
  EXPECT_NE(tiled_error(mesh, params).find(limit), std::string::npos) << tiled_error(mesh, params);
}

/// A flat square floor of side `side` with its low corner at (x, y, z).
TriangleMesh square(double x, double y, double z, double side) {
  TriangleMesh m;
  m.vertices = {{x, y, z}, {x + side, y, z}, {x + side, y, z + side}, {x, y, z + side}};
  m.triangles = {{0, 2, 1}, {0, 3, 2}};
  return m;
}

TriangleMesh translated(TriangleMesh m, Vec3 by) {
  for (Vec3& v : m.vertices) v = v + by;
  return m;
}

// The 8-bit erosion: radius 38.4 at cell size 0.3 is 128 cells, which Recast's erosion
// (twice the radius in an unsigned char) wrapped to none: the radius-0 path, exit 0.
TEST(RecastLimits, AgentRadiusAndHeightPastRecastsFieldsAreRefused) {
  const TriangleMesh mesh = load("nav_test.obj");
  expect_refused(mesh, {.agent_radius = 38.4}, "recast::max_radius_cells = 127");
  EXPECT_EQ(solo_error(mesh, {.agent_radius = 38.0}).find("max_radius_cells"), std::string::npos);  // 127 cells
  expect_refused(mesh, {.agent_height = 51.2}, "recast::max_agent_height_cells = 255");  // 256 cell heights
  EXPECT_EQ(solo_error(mesh, {.agent_height = 51.0}), "");  // 255: builds
  expect_refused(mesh, {.agent_max_climb = 2000}, "recast::max_climb_cells");
  expect_refused(mesh, {.edge_max_len = 20000}, "recast::max_edge_len_cells");
  expect_refused(mesh, {.edge_max_error = 65}, "recast::max_edge_error_cells");
}

// Recast 1.5.1 hung, allocating without bound, on a detail sample distance of 0 (its hull stays
// empty). Below 0.9 cells, 0 included, the detail mesh takes no samples: each polygon's detail
// vertices are its own corners.
TEST(RecastLimits, DetailSampleDistBelowTheMinimumTakesNoSamples) {
  const TriangleMesh mesh = load("nav_test.obj");
  for (const double dist : {0.0, 0.5, 0.89}) {
    const RecastMeshes m = build_recast_meshes(mesh, {.detail_sample_dist = dist});
    const rcPolyMesh& pm = m.poly_mesh();
    const rcPolyMeshDetail& dm = m.detail_mesh();
    ASSERT_EQ(dm.nmeshes, pm.npolys);
    for (int i = 0; i < pm.npolys; ++i) {
      int corners = 0;
      while (corners < pm.nvp && pm.polys[i * 2 * pm.nvp + corners] != RC_MESH_NULL_IDX) ++corners;
      EXPECT_EQ(dm.meshes[i * 4 + 1], static_cast<unsigned>(corners)) << "polygon " << i << " at " << dist;
    }
  }
  // At the default (6 cells) some polygon has samples, so the check above can fail.
  const RecastMeshes sampled = build_recast_meshes(mesh);
  int extra = 0;
  for (int i = 0; i < sampled.poly_mesh().npolys; ++i) {
    int corners = 0;
    const rcPolyMesh& pm = sampled.poly_mesh();
    while (corners < pm.nvp && pm.polys[i * 2 * pm.nvp + corners] != RC_MESH_NULL_IDX) ++corners;
    extra += static_cast<int>(sampled.detail_mesh().meshes[i * 4 + 1]) - corners;
  }
  EXPECT_GT(extra, 0);
}

// A 1,235-unit floor is 4117 x 4117 cells: over Recast's 24-bit span index, refused before
// Recast allocates (it was refused as "no walkable area" after 4.5 s and 1.1 GB). In tiles it builds.
TEST(RecastLimits, HeightfieldsPastTheSpanIndexAreRefusedBeforeRecastRuns) {
  const TriangleMesh floor = square(0, 0, 0, 1235);
  EXPECT_NE(solo_error(floor, {}).find("4117 x 4117 cells, more than Recast indexes (recast::max_heightfield_cells"),
            std::string::npos);
  TriangleMesh long_strip = square(0, 0, 0, 3);
  long_strip.vertices[1].x = long_strip.vertices[2].x = 20000;  // 66,667 cells along x, few across
  EXPECT_NE(solo_error(long_strip, {}).find("recast::max_heightfield_side = 65535"), std::string::npos) << solo_error(long_strip, {});
  TriangleMesh tall = square(0, 0, 0, 10);
  tall.vertices.push_back({5, 1700, 5});  // 8,500 cell heights above the floor
  tall.triangles.push_back({0, 1, 4});
  expect_refused(tall, {}, "recast::max_level_height_cells = 8191");
  TriangleMesh wide = square(0, 0, 0, 3);
  wide.vertices[1].x = wide.vertices[2].x = 2e5;  // 666,667 cells across
  EXPECT_NE(tiled_error(wide, {}).find("recast::max_level_extent_cells"), std::string::npos) << tiled_error(wide, {});
}

/// A floor of n × n one-cell rooms (cell size 0.3) between walls one cell thick and 3 tall:
/// with no erosion and no smallest region, the walls' tops make one region whose outline joins
/// the n² rooms' holes.
TriangleMesh rooms(int n) {
  constexpr double c = 0.3, h = 3;
  const double side = (2 * n + 1) * c;
  TriangleMesh m = square(0, 0, 0, side);
  const auto box = [&](double x0, double z0, double x1, double z1) {
    const auto at = [&](double x, double y, double z) {
      m.vertices.push_back({x, y, z});
      return static_cast<std::uint32_t>(m.vertices.size() - 1);
    };
    const std::uint32_t b[4] = {at(x0, 0, z0), at(x1, 0, z0), at(x1, 0, z1), at(x0, 0, z1)};
    const std::uint32_t t[4] = {at(x0, h, z0), at(x1, h, z0), at(x1, h, z1), at(x0, h, z1)};
    m.triangles.push_back({t[0], t[2], t[1]});  // the top, facing up
    m.triangles.push_back({t[0], t[3], t[2]});
    for (int k = 0; k < 4; ++k) {  // the sides
      m.triangles.push_back({b[k], b[(k + 1) % 4], t[(k + 1) % 4]});
      m.triangles.push_back({b[k], t[(k + 1) % 4], t[k]});
    }
  };
  for (int i = 0; i <= n; ++i) {
    box(0, 2 * i * c, side, (2 * i + 1) * c);
    box(2 * i * c, 0, (2 * i + 1) * c, side);
  }
  return m;
}

// Issue 32, section 2: Recast's polygon step is cubic in a region outline's corners (90 × 90
// rooms: 1,166 corners, 5.6 s; 120 × 120: 1,887, 23 s). Past max_contour_vertices the build
// stops before it, naming the limit; 45 × 45 rooms (193 corners) build, and so do 90 × 90 in
// tiles, which split the outline.
TEST(RecastLimits, RegionOutlinesPastTheirCornerLimitAreRefusedBeforeThePolygonStep) {
  const RecastParams bare{.agent_radius = 0, .region_min_size = 0, .region_merge_size = 0};
  EXPECT_EQ(solo_error(rooms(45), bare), "");
  const TriangleMesh many = rooms(90);
  const std::string refused = solo_error(many, bare);
  EXPECT_NE(refused.find("corners, more than Recast's polygon step takes in bounded time (recast::max_contour_vertices = 1024"),
            std::string::npos)
      << refused;
  EXPECT_EQ(tiled_error(many, bare), "");
}

// 64 floors over one cell: more than Recast's 6-bit neighbour index links (it logged "too many
// layers" and left them unlinked). 63 build.
TEST(RecastLimits, MoreFloorsOverACellThanRecastLinksAreRefused) {
  const auto stack = [](int floors) {
    TriangleMesh m;
    for (int f = 0; f < floors; ++f) {
      const TriangleMesh s = square(0, f * 3.0, 0, 6);
      const auto base = static_cast<std::uint32_t>(m.vertices.size());
      m.vertices.insert(m.vertices.end(), s.vertices.begin(), s.vertices.end());
      for (auto t : s.triangles) m.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
    return m;
  };
  expect_refused(stack(64), {}, "64 walkable floors over one cell, more than Recast links (recast::max_column_spans = 63");
  EXPECT_EQ(solo_error(stack(63), {}), "");
}

/// The paths of RecastDemo's queries on `mesh` moved by `by`, their corners moved back.
std::vector<std::vector<Vec3>> paths_on(const TriangleMesh& mesh, Vec3 by) {
  const NavMesh nav = build_nav_mesh(translated(mesh, by));
  NavMeshQuery q(nav);
  std::vector<std::vector<Vec3>> out;
  for (const auto& [from, to] : test::recast_demo_queries()) {
    std::vector<Vec3>& corners = out.emplace_back();
    if (!q.find_path(from + by, to + by).succeeded()) continue;
    for (const Vec3 c : q.path().corners) corners.push_back(c - by);
  }
  return out;
}

/// Whether both paths have the same corners within `eps` on each axis.
bool same_corners(const std::vector<Vec3>& a, const std::vector<Vec3>& b, double eps) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec3 d = a[i] - b[i];
    if (std::abs(d.x) > eps || std::abs(d.y) > eps || std::abs(d.z) > eps) return false;
  }
  return true;
}

double length(const std::vector<Vec3>& corners) {
  double sum = 0;
  for (std::size_t i = 1; i < corners.size(); ++i) sum += distance(corners[i - 1], corners[i]);
  return sum;
}

// Far from the origin Recast's floats lost the cells (a stack smash in rasterizeTri at 10^7):
// the level is built moved near Recast's origin, by a multiple of 2^16 at cell size 0.3
// (2^15 in y at cell height 0.2; RecastMeshes::origin). Moved by such multiples, nav_test answers RecastDemo's queries as at
// the origin (the same mesh: corners within the 2e-9 to which the test's own doubles round the
// moved query points); moved by the offsets, as closely as its voxels allow.
TEST(RecastLimits, LevelsFarFromTheOriginBuildAsAtTheOrigin) {
  for (const double at : {8e6, 1e7}) {  // the quads
    const NavMesh far = build_nav_mesh(square(at, 0, at, 10));
    NavMeshQuery q(far);
    ASSERT_TRUE(q.find_path({at + 1, 0, at + 1}, {at + 9, 0, at + 9}).succeeded()) << at;
    EXPECT_NEAR(q.path().length, std::sqrt(128.0), 1e-6) << at;
  }
  const TriangleMesh level = load("nav_test.obj");
  EXPECT_EQ(build_recast_meshes(level).origin(), (Vec3{0, 0, 0}));
  const auto here = paths_on(level, {0, 0, 0});
  const double q = 65536;
  for (const Vec3 by : {Vec3{122 * q, 0, 122 * q}, Vec3{153 * q, 3 * 32768.0, -153 * q}}) {
    const auto there = paths_on(level, by);
    ASSERT_EQ(there.size(), here.size());
    for (std::size_t i = 0; i < here.size(); ++i) EXPECT_TRUE(same_corners(there[i], here[i], 1e-8)) << "query " << i;
  }
  // Past 10^8 the build failed (the polygons' areas cancelled: NavMesh refused them).
  for (const Vec3 by : {Vec3{8e6, 0, 8e6}, Vec3{1e7, 0, -1e7}, Vec3{-3e6, 1e6, 5e6}, Vec3{1e8, 0, 1e8}, Vec3{1e10, 0, -1e10},
                        Vec3{-1e12, 1e6, 1e12}, Vec3{1e13, 0, 1e13}}) {
    const auto there = paths_on(level, by);
    ASSERT_EQ(there.size(), here.size());
    // The query points moved there are rounded to a double's step: 0.002 at 10^13.
    const double rounding = 1e-3 + 1e-15 * std::max({std::abs(by.x), std::abs(by.y), std::abs(by.z)});
    for (std::size_t i = 0; i < here.size(); ++i) {
      ASSERT_FALSE(there[i].empty()) << "query " << i;
      EXPECT_LT(distance(there[i].front(), here[i].front()) + distance(there[i].back(), here[i].back()), rounding) << "query " << i;
      EXPECT_NEAR(length(there[i]), length(here[i]), 0.01 * length(here[i])) << "query " << i;
    }
  }
}

// A level past max_world_cells is out of range, said so with the limit (at 10^300 it collapsed to
// a point: "no walkable area: the geometry is narrower than half a cell in plan"); within it, a
// quad at 10^13 builds as at the origin.
TEST(RecastLimits, LevelsBeyondMaxWorldCellsAreOutOfRange) {
  const std::string plan = "the level is out of range: a coordinate of 1e+300 lies more than recast::max_world_cells = 2^48 cells (of "
                           "cell_size 0.3) from the world's origin, where a double's step passes 1/8 cell (move the level nearer the origin)";
  EXPECT_EQ(solo_error(square(1e300, 0, 1e300, 10), {}), plan);
  EXPECT_EQ(tiled_error(square(1e300, 0, 1e300, 10), {}), plan);
  EXPECT_EQ(solo_error(square(0, -1e300, 0, 10), {}),
            "the level is out of range: a coordinate of -1e+300 lies more than recast::max_world_cells = 2^48 cells (of "
            "cell_height 0.2) from the world's origin, where a double's step passes 1/8 cell (move the level nearer the origin)");
  EXPECT_NE(solo_error(square(-1e14, 0, 0, 10), {}).find("recast::max_world_cells"), std::string::npos);  // 3.3e14 cells
  const NavMesh far = build_nav_mesh(square(1e13, 0, 1e13, 10));
  NavMeshQuery q(far);
  ASSERT_TRUE(q.find_path({1e13 + 1, 0, 1e13 + 1}, {1e13 + 9, 0, 1e13 + 9}).succeeded());
  EXPECT_NEAR(q.path().length, std::sqrt(128.0), 1e-2);
}

// The tiled build (and carving and bake, which share it) moves the level the same way.
TEST(RecastLimits, TiledLevelsFarFromTheOriginBuildAsAtTheOrigin) {
  const TriangleMesh level = load("nav_test.obj");
  const auto tiles_here = build_tiles(level, {.tile_size = 32});
  const Vec3 by{153 * 65536.0, 0, 122 * 65536.0};
  const auto tiles_there = build_tiles(translated(level, by), {.tile_size = 32});
  ASSERT_EQ(tiles_there.size(), tiles_here.size());
  for (std::size_t t = 0; t < tiles_here.size(); ++t) {
    std::vector<Vec3> moved_back;
    for (const Vec3 v : tiles_there[t].data.vertices) moved_back.push_back(v - by);
    EXPECT_TRUE(same_corners(moved_back, tiles_here[t].data.vertices, 1e-8)) << "tile " << t;  // the grid lines are doubles
  }
}

}  // namespace
}  // namespace waymark::recast::recast_limits_test
