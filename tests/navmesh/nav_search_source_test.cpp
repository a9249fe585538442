// Navmesh path requests through PathRequestQueue (NavPlanner): many requests advanced a
// few expansions per frame end with exactly the one-shot NavMeshQuery's status, corners and
// length; refusals carry the one-shot's reasons; cancellation.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/navmesh_support.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::navmesh::nav_search_source_test {
namespace {

using search::Budget;
using search::PathRequestQueue;
using search::RequestId;
using search::RequestState;

NavMesh load_mesh(const std::string& file) {
  return build_from_triangles(io::load_obj(std::string(WAYMARK_DATA_DIR "/meshes/") + file));
}

/// RecastDemo's 21 queries, then `random` seeded pairs of points on the mesh.
std::vector<std::pair<Vec3, Vec3>> queries(const NavMesh& nav, int random, bool recast_demo) {
  std::vector<std::pair<Vec3, Vec3>> out;
  if (recast_demo) out = test::recast_demo_queries();
  std::mt19937_64 rng(13);
  for (int i = 0; i < random; ++i) out.emplace_back(nav.random_point(rng)->point, nav.random_point(rng)->point);
  return out;
}

std::uint64_t drain(PathRequestQueue<Vec3>& queue, const Budget& frame, std::uint64_t max_frames = 1'000'000) {
  const std::uint64_t first = queue.frame();
  while (queue.in_flight() > 0 && queue.frame() - first < max_frames) queue.update(frame);
  return queue.frame() - first;
}

/// The request's result equals the one-shot query's: status, corners (exactly) and length.
void expect_one_shot(const PathRequestQueue<Vec3>& queue, RequestId id, NavMeshQuery& one_shot, Vec3 from, Vec3 to,
                     const QueryFilter& filter = {}) {
  const search::SearchResult<Vec3>* got = queue.result(id);
  ASSERT_NE(got, nullptr);
  const Status want = one_shot.find_path(from, to, filter);
  EXPECT_EQ(got->status, want);
  EXPECT_EQ(got->path.nodes, one_shot.path().corners);
  EXPECT_EQ(got->path.cost, one_shot.path().length);
  EXPECT_EQ(queue.state(id), want.succeeded() ? RequestState::succeeded : RequestState::failed);
}

// 100 requests in one queue, half on the shortest mode and half on the funnel mode of the same
// mesh (so the pool's searches are made again for the other source), a pool of 4 searches and
// 3 expansions per turn: each ends with the one-shot path. dungeon.obj's islands give failures
// with partial paths, which must match too.
TEST(NavPlanner, TinyBudgetRequestsGiveTheOneShotPaths) {
  for (const auto& [file, random, recast_demo] :
       {std::tuple{"nav_test.obj", 19, true}, std::tuple{"dungeon.obj", 30, false}}) {
    SCOPED_TRACE(file);
    const NavMesh nav = load_mesh(file);
    const auto pairs = queries(nav, random, recast_demo);
    const NavPlanner shortest(nav, {.mode = NavMode::shortest});
    const NavPlanner funnel(nav, {.mode = NavMode::funnel});
    EXPECT_EQ(shortest.node_count(), nav.data().corners.size() + 2);
    EXPECT_FALSE(shortest.stale());
    PathRequestQueue<Vec3> queue({.max_requests = 128, .max_searches = 4, .turn = Budget::of_expansions(3)});
    std::vector<RequestId> ids;
    for (const NavPlanner* world : {&shortest, &funnel}) {
      for (const auto& [from, to] : pairs) {
        ids.push_back(queue.submit(*world, from, to, {.partial_result = true}));
        ASSERT_TRUE(ids.back().valid());
      }
    }
    EXPECT_GT(drain(queue, Budget::of_expansions(10)), pairs.size());  // spread over many frames
    EXPECT_LE(queue.searches(), 4u);
    int succeeded = 0, partial = 0, turns_above_one = 0;
    for (const NavMode mode : {NavMode::shortest, NavMode::funnel}) {
      NavMeshQuery one_shot(nav, {.mode = mode, .query = {.partial_result = true}});
      const std::size_t first = mode == NavMode::shortest ? 0 : pairs.size();
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        SCOPED_TRACE(i);
        expect_one_shot(queue, ids[first + i], one_shot, pairs[i].first, pairs[i].second);
        succeeded += queue.info(ids[first + i]).status.succeeded();
        partial += queue.info(ids[first + i]).status.has(StatusDetail::partial_result);
        turns_above_one += queue.info(ids[first + i]).turns > 1;
      }
    }
    // nav_test.obj: mostly found; dungeon.obj (islands): mostly partial paths.
    EXPECT_GT(recast_demo ? succeeded : partial, 30);
    EXPECT_GT(turns_above_one, 20);  // the searches really were sliced
  }
}

// Off the mesh, or on polygons the filter excludes: the request fails at its first turn with
// the one-shot query's reason; the request's options reach the query (max_nodes, partial).
TEST(NavPlanner, RefusalsAndLimitsCarryTheOneShotReasons) {
  const NavMesh nav = load_mesh("nav_test.obj");
  const auto demo = test::recast_demo_queries();
  const Vec3 on = demo[0].first, far = demo[0].second, off{1000, 0, 1000};
  QueryFilter none;
  none.include = 0;
  const NavPlanner world(nav), excluded(nav, {}, none);
  PathRequestQueue<Vec3> queue({.max_requests = 16, .max_searches = 2, .turn = Budget::of_expansions(2)});
  const RequestId off_start = queue.submit(world, off, far);
  const RequestId off_goal = queue.submit(world, on, off);
  const RequestId blocked = queue.submit(excluded, on, far);
  const RequestId limited = queue.submit(world, on, far, {.max_nodes = 3});
  const RequestId limited_partial = queue.submit(world, on, far, {.max_nodes = 3, .partial_result = true});
  drain(queue, Budget::of_expansions(4));
  NavMeshQuery one_shot(nav, {.query = {.partial_result = false}});
  expect_one_shot(queue, off_start, one_shot, off, far);
  EXPECT_EQ(queue.info(off_start).status.reason(), FailureReason::out_of_bounds);
  expect_one_shot(queue, off_goal, one_shot, on, off);
  EXPECT_EQ(queue.info(off_goal).status.reason(), FailureReason::out_of_bounds);
  expect_one_shot(queue, blocked, one_shot, on, far, none);
  EXPECT_EQ(queue.info(blocked).status.reason(), FailureReason::goal_blocked);  // both ends: the goal's
  EXPECT_TRUE(queue.info(blocked).status.has(StatusDetail::start_blocked));
  EXPECT_EQ(queue.info(blocked).turns, 1u);
  NavMeshQuery one_shot_limited(nav, {.query = {.max_nodes = 3, .partial_result = false}});
  expect_one_shot(queue, limited, one_shot_limited, on, far);
  EXPECT_TRUE(queue.info(limited).status.has(StatusDetail::out_of_nodes));
  NavMeshQuery one_shot_partial(nav, {.query = {.max_nodes = 3, .partial_result = true}});
  expect_one_shot(queue, limited_partial, one_shot_partial, on, far);

  // Handles take one start point and one goal point; anything else is refused.
  search::SearchHandle<Vec3> handle = world.make_search({});
  const std::array<search::Source<Vec3>, 2> two{{{on, 0}, {far, 0}}};
  EXPECT_EQ(handle.begin(two, search::Goal<Vec3>::at(far)), Status::failure(StatusDetail::invalid_query));
  EXPECT_EQ(handle.stats().expanded, 0u);
  EXPECT_EQ(handle.begin(std::span(two).first(1), search::Goal<Vec3>::none()),
            Status::failure(StatusDetail::invalid_query));
  EXPECT_TRUE(handle.path().empty());
  // A start with an initial cost: the path costs that much more.
  const search::Source<Vec3> paid{on, 2.5};
  ASSERT_TRUE(handle.begin(std::span(&paid, 1), search::Goal<Vec3>::at(far)).running());
  ASSERT_TRUE(handle.step().succeeded());
  ASSERT_TRUE(one_shot.find_path(on, far).succeeded());
  EXPECT_EQ(handle.path().cost, 2.5 + one_shot.path().length);
}

TEST(NavPlanner, CancelQueuedAndRunningRequests) {
  const NavMesh nav = load_mesh("nav_test.obj");
  const auto demo = test::recast_demo_queries();
  const NavPlanner world(nav);
  PathRequestQueue<Vec3> queue({.max_requests = 32, .max_searches = 2, .turn = Budget::of_expansions(1)});
  std::vector<RequestId> ids;
  for (const auto& [from, to] : demo) ids.push_back(queue.submit(world, from, to));
  queue.update(Budget::of_expansions(2));
  std::size_t running = 0;
  while (running < ids.size() && queue.state(ids[running]) != RequestState::running) ++running;
  ASSERT_LT(running, ids.size());
  const RequestId queued = ids.back();
  ASSERT_EQ(queue.state(queued), RequestState::queued);
  EXPECT_TRUE(queue.cancel(ids[running]));
  EXPECT_TRUE(queue.cancel(queued));
  EXPECT_FALSE(queue.cancel(queued));  // already ended
  for (const RequestId id : {ids[running], queued}) {
    EXPECT_EQ(queue.state(id), RequestState::cancelled);
    EXPECT_EQ(queue.info(id).status.reason(), FailureReason::cancelled);
  }
  drain(queue, Budget::of_expansions(4));
  NavMeshQuery one_shot(nav, {.query = {.partial_result = false}});
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i == running || ids[i] == queued) continue;
    SCOPED_TRACE(i);
    expect_one_shot(queue, ids[i], one_shot, demo[i].first, demo[i].second);
  }
}

}  // namespace
}  // namespace waymark::navmesh::nav_search_source_test
