// TiledNavMesh: stitching tiles at shared borders (T-junctions split, heights beyond the climb
// kept apart), snapshots that outlive changes, and TiledNavPlanner's staleness: searches and
// request queues refuse a world whose tiles changed until sync(), then answer from the new one.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::navmesh::tiled_nav_mesh_test {
namespace {

/// Tile (x, z) of unit side at height y, cut into `strips` rectangles along z (neighbours
/// within the tile; the tile's border edges are walls).
NavTile strip_tile(TileCoord c, int strips, double y = 0, double climb = 0.5) {
  NavTile t{c, {double(c.x), double(c.z)}, {double(c.x + 1), double(c.z + 1)}, {}};
  NavMeshData& d = t.data;
  d.climb = climb;
  for (int k = 0; k <= strips; ++k) {
    const double z = c.z + static_cast<double>(k) / strips;
    d.vertices.push_back({double(c.x), y, z});
    d.vertices.push_back({double(c.x + 1), y, z});
  }
  for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(strips); ++k) {
    // counter-clockwise in plan (x, z): edges a-b (z low), b-e (x max), e-f (z high), f-a (x min)
    const std::uint32_t a = 2 * k, b = 2 * k + 1, e = 2 * k + 3, f = 2 * k + 2;
    d.corners.insert(d.corners.end(), {a, b, e, f});
    d.neighbors.push_back(k > 0 ? PolyId{k - 1} : PolyId{});
    d.neighbors.push_back({});
    d.neighbors.push_back(k + 1 < static_cast<std::uint32_t>(strips) ? PolyId{k + 1} : PolyId{});
    d.neighbors.push_back({});
    d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
    d.areas.push_back(0);
    d.flags.push_back(walk_flag);
  }
  return t;
}

TEST(TiledNavMesh, StitchingSplitsTJunctionsAndJoinsBothWays) {
  TiledNavMesh world;
  world.set_tile(strip_tile({0, 0}, 1));
  world.set_tile(strip_tile({1, 0}, 2));
  const auto snap = world.snapshot();
  const NavMesh& mesh = snap->mesh;
  ASSERT_EQ(mesh.poly_count(), 3u);
  EXPECT_EQ(snap->joined_edges, 2u);
  EXPECT_EQ(mesh.corner_count(PolyId{0}), 5u);  // the square gained the T-junction's corner
  EXPECT_EQ(snap->tile_of(PolyId{0}), (TileCoord{0, 0}));
  EXPECT_EQ(snap->tile_of(PolyId{2}), (TileCoord{1, 0}));
  EXPECT_EQ(mesh.island(PolyId{0}), mesh.island(PolyId{2}));
  for (const NavMode mode : {NavMode::shortest, NavMode::funnel}) {
    NavMeshQuery q(mesh, {.mode = mode});
    const Vec3 from{0.25, 0, 0.5}, to{1.75, 0, 0.9};
    ASSERT_TRUE(q.find_path(from, to).succeeded());
    EXPECT_NEAR(q.path().length, distance(from, to), 1e-9);  // one convex room: straight
  }
}

TEST(TiledNavMesh, HeightsBeyondTheClimbStayApart) {
  TiledNavMesh world;
  world.set_tile(strip_tile({0, 0}, 1, 0.0));
  world.set_tile(strip_tile({1, 0}, 1, 0.6));  // climb 0.5
  const auto apart = world.snapshot();
  EXPECT_EQ(apart->joined_edges, 0u);
  NavMeshQuery q(apart->mesh);
  EXPECT_FALSE(q.find_path({0.5, 0, 0.5}, {1.5, 0.6, 0.5}).succeeded());
  world.set_tile(strip_tile({1, 0}, 1, 0.4));  // within the climb: a step
  const auto joined = world.snapshot();
  EXPECT_EQ(joined->joined_edges, 1u);
  NavMeshQuery again(joined->mesh);
  EXPECT_TRUE(again.find_path({0.5, 0, 0.5}, {1.5, 0.4, 0.5}).succeeded());
}

// A 4 x 3 grid of tiles cut into 1 to 4 strips each: one convex rectangle, so every shortest
// path is the straight line (the truth), through every kind of T-junction; the funnel mode's
// crosses the same borders.
TEST(TiledNavMesh, GridOfTilesIsOneRoom) {
  TiledNavMesh world;
  for (int z = 0; z < 3; ++z) {
    for (int x = 0; x < 4; ++x) world.set_tile(strip_tile({x, z}, 1 + (x * 3 + z) % 4));
  }
  EXPECT_EQ(world.version(), 12u);
  const auto snap = world.snapshot();
  NavMeshQuery shortest(snap->mesh), funnel(snap->mesh, {.mode = NavMode::funnel});
  const std::vector<std::pair<Vec3, Vec3>> pairs = {
      {{0.1, 0, 0.1}, {3.9, 0, 2.9}}, {{0.05, 0, 2.95}, {3.95, 0, 0.02}}, {{1.5, 0, 0.5}, {1.5, 0, 2.5}}, {{0.3, 0, 1.7}, {3.6, 0, 1.2}}};
  for (const auto& [from, to] : pairs) {
    ASSERT_TRUE(shortest.find_path(from, to).succeeded());
    EXPECT_NEAR(shortest.path().length, distance(from, to), 1e-9);
    // the funnel mode follows the corridor its A* over portal midpoints chose: never shorter
    ASSERT_TRUE(funnel.find_path(from, to).succeeded());
    EXPECT_GE(funnel.path().length, distance(from, to) - 1e-9);
    EXPECT_LE(funnel.path().length, distance(from, to) * 1.05);
  }
}

TEST(TiledNavMesh, RefusesBadTilesAndKeepsOldSnapshotsAlive) {
  TiledNavMesh world;
  NavTile bad = strip_tile({0, 0}, 1);
  bad.data.neighbors[1] = PolyId{5};
  EXPECT_THROW(world.set_tile(bad), BuildError);
  bad = strip_tile({0, 0}, 1);
  bad.max = bad.min;
  EXPECT_THROW(world.set_tile(bad), BuildError);
  EXPECT_EQ(world.version(), 0u);
  EXPECT_FALSE(world.set_tile(strip_tile({0, 0}, 1)));
  NavTile with_link = strip_tile({0, 0}, 2);
  with_link.data.links.push_back({.start = {0.2, 0, 0.2}, .end = {0.8, 0, 0.8}, .user_id = 7});
  EXPECT_TRUE(world.set_tile(std::move(with_link)));  // replaced
  world.set_links({{.start = {0.1, 0, 0.1}, .end = {0.9, 0, 0.9}, .user_id = 9}});
  const auto linked = world.snapshot();
  ASSERT_EQ(linked->mesh.data().links.size(), 2u);  // the tile's, then the world's
  EXPECT_EQ(linked->mesh.data().links[0].user_id, 7u);
  EXPECT_EQ(linked->mesh.data().links[1].user_id, 9u);
  std::shared_ptr<const NavMesh> old = world.mesh();
  EXPECT_TRUE(world.remove_tile({0, 0}));
  EXPECT_FALSE(world.remove_tile({0, 0}));
  EXPECT_EQ(world.version(), 4u);
  EXPECT_EQ(world.mesh().get()->poly_count(), 0u);
  NavMeshQuery q(*old);  // the old snapshot still answers
  EXPECT_TRUE(q.find_path({0.5, 0, 0.2}, {0.5, 0, 0.8}).succeeded());
}

TEST(TiledNavPlanner, StaleUntilSyncedThenAnswersTheNewWorld) {
  TiledNavMesh world;
  for (int x = 0; x < 3; ++x) world.set_tile(strip_tile({x, 0}, 1 + x));
  TiledNavPlanner planner(world);
  const Vec3 from{0.5, 0, 0.5}, to{2.5, 0, 0.5};
  search::SearchHandle<Vec3> handle = planner.make_search();
  ASSERT_TRUE(handle.run(from, to).succeeded());
  EXPECT_NEAR(handle.path().cost, 2.0, 1e-9);
  EXPECT_FALSE(planner.stale());

  world.remove_tile({1, 0});  // the middle tile streams out
  EXPECT_TRUE(planner.stale());
  EXPECT_EQ(planner.world_version(), world.version());
  EXPECT_EQ(handle.run(from, to).reason(), FailureReason::stale_world);
  EXPECT_EQ(planner.plan(from, to).status.reason(), FailureReason::stale_world);
  EXPECT_EQ(planner.sync().world_version, world.version());
  EXPECT_FALSE(planner.stale());
  const Status cut = handle.run(from, to);  // the same handle, the new world: no way across
  EXPECT_TRUE(cut.failed());
  EXPECT_NE(cut.reason(), FailureReason::stale_world);

  world.set_tile(strip_tile({1, 0}, 3));
  EXPECT_EQ(handle.run(from, to).reason(), FailureReason::stale_world);
  planner.sync();
  ASSERT_TRUE(handle.run(from, to).succeeded());
  EXPECT_NEAR(handle.path().cost, 2.0, 1e-9);
}

// The handle reaches the snapshot's full NavPath (the polygons crossed, the method), the one a
// NavMeshQuery on the same snapshot gives; none while the planner is stale.
TEST(TiledNavPlanner, TheHandleReachesTheNavPathOfItsSnapshot) {
  TiledNavMesh world;
  for (int x = 0; x < 3; ++x) world.set_tile(strip_tile({x, 0}, 1 + x));
  TiledNavPlanner planner(world);
  const Vec3 from{0.5, 0, 0.5}, to{2.5, 0, 0.9};
  search::SearchHandle<Vec3> handle = planner.make_search(NavMode::funnel, planner.default_query());
  EXPECT_TRUE(handle.world_result<NavPath>() != nullptr);  // empty before a query
  EXPECT_TRUE(handle.world_result<NavPath>()->polys.empty());
  ASSERT_TRUE(handle.run(from, to).succeeded());
  const NavPath* full = handle.world_result<NavPath>();
  ASSERT_NE(full, nullptr);
  NavMeshQuery reference(planner.snapshot()->mesh, {.mode = NavMode::funnel});
  ASSERT_TRUE(reference.find_path(from, to).succeeded());
  EXPECT_EQ(full->polys, reference.path().polys);
  EXPECT_EQ(full->corners, handle.path().nodes);
  EXPECT_EQ(full->method, NavMode::funnel);
  EXPECT_GE(full->polys.size(), 3u);  // one polygon of each tile at least

  world.remove_tile({1, 0});
  EXPECT_EQ(handle.run(from, to).reason(), FailureReason::stale_world);
  ASSERT_NE(handle.world_result<NavPath>(), nullptr);
  EXPECT_TRUE(handle.world_result<NavPath>()->polys.empty());  // a stale search answers nothing
}

// Requests in flight while tiles are removed and added: they wait for the sync, then answer the
// world as it is after it (the removed tile's goals off the mesh; all reachable once it is back).
TEST(TiledNavPlanner, RequestQueueWaitsForSyncWhileTilesChange) {
  TiledNavMesh world;
  for (int x = 0; x < 4; ++x) world.set_tile(strip_tile({x, 0}, 1 + x % 3));
  TiledNavPlanner planner(world);
  search::PathRequestQueue<Vec3> queue({.max_requests = 64, .max_searches = 4, .turn = search::Budget::of_expansions(1)});
  std::vector<search::RequestId> ids;
  for (int i = 0; i < 40; ++i) {
    const double x = 0.1 + 3.8 * (i % 10) / 9.0;
    ids.push_back(queue.submit(planner, {0.2, 0, 0.3}, {x, 0, 0.1 + 0.02 * i}));
  }
  queue.update(search::Budget::of_expansions(8));
  world.remove_tile({2, 0});  // the third tile streams out
  for (int frame = 0; frame < 5; ++frame) queue.update(search::Budget::of_expansions(8));
  std::size_t waiting = 0;
  for (const auto id : ids) waiting += queue.info(id).waiting == search::RequestWait::for_sync;
  EXPECT_GT(waiting, 0u);  // none advanced on the stale world
  planner.sync();
  while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(64));
  int reached = 0, off = 0;
  for (int i = 0; i < 40; ++i) {
    const auto info = queue.info(ids[static_cast<std::size_t>(i)]);
    const double x = 0.1 + 3.8 * (i % 10) / 9.0;
    EXPECT_TRUE(info.state == search::RequestState::succeeded || info.state == search::RequestState::failed) << i;
    if (x < 2) {
      EXPECT_TRUE(info.status.succeeded()) << i;
      reached += info.status.succeeded();
    } else if (x > 3) {  // beyond the gap: cut off
      EXPECT_FALSE(info.status.succeeded()) << i;
      off += !info.status.succeeded();
    }
  }
  EXPECT_EQ(reached, 20);  // x below 2: five goals in ten
  EXPECT_EQ(off, 12);     // x above 3: three in ten
  world.set_tile(strip_tile({2, 0}, 2));  // streamed back in
  planner.sync();
  const auto back = planner.plan({0.2, 0, 0.3}, {3.9, 0, 0.5});
  ASSERT_TRUE(back.status.succeeded());
  EXPECT_NEAR(back.path.cost, distance(Vec3{0.2, 0, 0.3}, Vec3{3.9, 0, 0.5}), 1e-9);
}


// Queries running on two threads while the owner streams a tile out: each thread's searches
// succeed, then, once the tile is gone, fail with stale_world (never a path from the old
// world once the change is seen); after the owner syncs, they answer from the new world.
TEST(TiledNavPlanner, QueriesOnThreadsRefuseStaleUseWhileATileIsRemoved) {
  TiledNavMesh world;
  for (int x = 0; x < 3; ++x) world.set_tile(strip_tile({x, 0}, 2));
  TiledNavPlanner planner(world);
  const Vec3 from{0.5, 0, 0.5}, to{2.5, 0, 0.5};
  std::atomic<bool> removed{false}, stop{false};
  std::atomic<int> ok_before{0}, stale_after{0}, ok_after_seen_stale{0};
  const auto worker = [&] {
    search::SearchHandle<Vec3> handle = planner.make_search();
    bool seen_stale = false;
    while (!stop.load()) {
      const bool was_removed = removed.load();
      const Status s = handle.run(from, to);
      if (s.succeeded() && !was_removed) ok_before.fetch_add(1);
      if (s.reason() == FailureReason::stale_world) {
        seen_stale = true;
        stale_after.fetch_add(1);
      } else if (seen_stale) {
        ok_after_seen_stale.fetch_add(1);  // must not happen before the sync
      }
    }
  };
  std::thread a(worker), b(worker);
  while (ok_before.load() < 20) std::this_thread::yield();
  world.remove_tile({1, 0});  // only the version is read by the searches meanwhile
  removed.store(true);
  while (stale_after.load() < 20) std::this_thread::yield();
  stop.store(true);
  a.join();
  b.join();
  EXPECT_EQ(ok_after_seen_stale.load(), 0);
  planner.sync();
  EXPECT_FALSE(planner.plan(from, to).status.succeeded());  // the middle tile is gone
  world.set_tile(strip_tile({1, 0}, 1));
  planner.sync();
  EXPECT_TRUE(planner.plan(from, to).status.succeeded());
}

}  // namespace
}  // namespace waymark::navmesh::tiled_nav_mesh_test
