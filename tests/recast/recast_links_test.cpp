// Off-mesh links on Recast's meshes against Detour's off-mesh connections (the same polygon
// mesh, the same links through dtNavMeshCreateParams::offMeshCon*): which queries reach their
// goal, and how long the paths are.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <vector>

#include "support/detour_reference.hpp"
#include "support/link_levels.hpp"
#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::recast::recast_links_test {
namespace {

using navmesh::NavMesh;
using navmesh::NavMeshQuery;
using navmesh::OffMeshLink;

NavMesh linked(const RecastMeshes& meshes, const std::vector<OffMeshLink>& links) {
  navmesh::NavMeshData d = to_nav_mesh(meshes).data();
  d.links = links;
  return NavMesh(std::move(d));
}

TriangleMesh model(const char* text) {
  std::istringstream in(text);
  return io::parse_obj(in, "two_storey.obj");
}

TEST(RecastLinks, TheOnlyRouteOffTheBlockTakesTheDropDownAsInDetour) {
  const RecastMeshes meshes = build_recast_meshes(model(test::two_storey_obj));
  const std::vector<OffMeshLink> links = {test::block_drop_down()};
  const NavMesh nav = linked(meshes, links);
  ASSERT_TRUE(nav.resolved_link(0).active);
  test::DetourReference detour(meshes, links);
  const Vec3 top{6, 3, 5}, ground{2, 0, 15};
  const auto ref = detour.find_path(top, ground);
  ASSERT_TRUE(ref.found && !ref.partial);
  for (navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
    NavMeshQuery q(nav, {.mode = mode});
    ASSERT_TRUE(q.find_path(top, ground).succeeded());
    ASSERT_EQ(q.path().links.size(), 1u);
    EXPECT_EQ(q.path().links[0].user_id, 42u);
    EXPECT_LE(q.path().length, ref.length * 1.005 + 1e-3);
    if (mode == navmesh::NavMode::funnel) {
      EXPECT_NEAR(q.path().length, ref.length, ref.length * 0.005 + 1e-3);
    }
  }
  // Back up: neither finds a way (Detour's path is partial, ours unreachable).
  NavMeshQuery q(nav);
  EXPECT_TRUE(q.find_path(ground, top).has(StatusDetail::unreachable));
  EXPECT_TRUE(detour.find_path(ground, top).partial);
  // Without the link, no way down either.
  const NavMesh bare = to_nav_mesh(meshes);
  NavMeshQuery b(bare);
  EXPECT_TRUE(b.find_path(top, ground).has(StatusDetail::unreachable));
}

/// Seeded links between random points of the mesh (one or both ways), and seeded queries,
/// with Detour and with waymark in `mode`: the same queries reach their goal, and lengths are
/// tallied (1e-3 + 0.5 %: heights come from different places).
test::LengthTally compare(const char* file, navmesh::NavMode mode, int link_count, int query_count) {
  const RecastMeshes meshes = build_recast_meshes(io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + file));
  const NavMesh bare = to_nav_mesh(meshes);
  std::mt19937_64 rng(31);
  const auto point = [&] {
    for (;;) {
      if (const auto p = bare.random_point(rng)) return p->point;
    }
  };
  std::vector<OffMeshLink> links;
  for (int i = 0; i < link_count; ++i) {
    links.push_back({.start = point(), .end = point(), .radius = 0.6, .bidirectional = i % 2 == 0,
                     .user_id = static_cast<std::uint32_t>(i)});
  }
  const NavMesh nav = linked(meshes, links);
  test::DetourReference detour(meshes, links);
  NavMeshQuery q(nav, {.mode = mode});
  test::LengthTally c;
  int reached = 0, with_links = 0;
  for (int i = 0; i < query_count; ++i) {
    const Vec3 from = point(), to = point();
    const auto ref = detour.find_path(from, to);
    const Status s = q.find_path(from, to);
    EXPECT_EQ(ref.found && !ref.partial, s.succeeded()) << "query " << i;
    if (!s.succeeded() || !ref.found || ref.partial) continue;
    ++reached;
    with_links += q.path().links.empty() ? 0 : 1;
    c.add(q.path().length, ref.length);
  }
  std::printf("%s, %s, %d links: %d of %d reached (%d by links); vs Detour %d equal, %d shorter, %d longer (worst x%.4f)\n",
              file, mode == navmesh::NavMode::funnel ? "funnel" : "shortest", link_count, reached, query_count, with_links,
              c.equal, c.shorter, c.longer, c.worst_longer_ratio);
  EXPECT_GT(with_links, query_count / 10);
  return c;
}

TEST(RecastLinks, ReachabilityAndLengthsAgreeWithDetourOnDungeon) {
  const test::LengthTally shortest = compare("dungeon.obj", navmesh::NavMode::shortest, 6, 300);
  EXPECT_EQ(shortest.longer, 0);
  const test::LengthTally funnel = compare("dungeon.obj", navmesh::NavMode::funnel, 6, 300);
  EXPECT_GE(funnel.equal, funnel.compared * 90 / 100);
}

}  // namespace
}  // namespace waymark::recast::recast_links_test
