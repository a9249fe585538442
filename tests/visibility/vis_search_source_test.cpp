// Visibility-graph path requests through PathRequestQueue (VisibilityPlanner): many
// requests advanced a few expansions per frame end with exactly the one-shot VisibilityQuery's
// status, points and length; refusals carry the one-shot's reasons; cancellation.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/random_polygons.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/visibility/visibility_planner.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::visibility::vis_search_source_test {
namespace {

using search::Budget;
using search::PathRequestQueue;
using search::RequestId;
using search::RequestState;

std::uint64_t drain(PathRequestQueue<Vec2>& queue, const Budget& frame, std::uint64_t max_frames = 1'000'000) {
  const std::uint64_t first = queue.frame();
  while (queue.in_flight() > 0 && queue.frame() - first < max_frames) queue.update(frame);
  return queue.frame() - first;
}

/// The request's result equals the one-shot query's: status, points (exactly) and length.
void expect_one_shot(const PathRequestQueue<Vec2>& queue, RequestId id, VisibilityQuery& one_shot, Vec2 from,
                     Vec2 to) {
  const search::SearchResult<Vec2>* got = queue.result(id);
  ASSERT_NE(got, nullptr);
  const Status want = one_shot.find_path(from, to);
  EXPECT_EQ(got->status, want);
  EXPECT_EQ(got->path.nodes, one_shot.path().points);
  EXPECT_EQ(got->path.cost, one_shot.path().length);
}

struct World {
  const char* name;
  Obstacles obstacles;
  double radius;
};

std::vector<World> worlds() {
  std::mt19937_64 rng(21);
  Obstacles random = test::random_obstacles(rng, 14, 30, 1, 3);
  random.bounds = Aabb2{{0, 0}, {30, 30}};
  return {{"rooms.json", io::load_polygons(WAYMARK_DATA_DIR "/polygons/rooms.json").obstacles, 0.5},
          {"random", random, 0.3}};
}

// 60 requests per world (some inside obstacles: refused at once, as one-shot) with 1
// expansion per turn and a pool of 3 searches: each ends with the one-shot path.
TEST(VisibilityPlanner, TinyBudgetRequestsGiveTheOneShotPaths) {
  for (const World& w : worlds()) {
    SCOPED_TRACE(w.name);
    const VisibilityGraph g(w.obstacles, {.radius = w.radius});
    const VisibilityPlanner world(g);
    EXPECT_EQ(world.node_count(), g.point_count() + 2);
    EXPECT_EQ(world.world_version(), 0u);
    const Aabb2 box = *w.obstacles.bounds;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> x(box.min.x, box.max.x), y(box.min.y, box.max.y);
    std::vector<std::pair<Vec2, Vec2>> pairs;
    for (int i = 0; i < 60; ++i) pairs.push_back({{x(rng), y(rng)}, {x(rng), y(rng)}});
    PathRequestQueue<Vec2> queue({.max_requests = 64, .max_searches = 3, .turn = Budget::of_expansions(1)});
    std::vector<RequestId> ids;
    for (const auto& [from, to] : pairs) ids.push_back(queue.submit(world, from, to));
    EXPECT_GT(drain(queue, Budget::of_expansions(3)), pairs.size());
    VisibilityQuery one_shot(g);
    int succeeded = 0, refused = 0, sliced = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      SCOPED_TRACE(i);
      expect_one_shot(queue, ids[i], one_shot, pairs[i].first, pairs[i].second);
      const search::RequestInfo info = queue.info(ids[i]);
      succeeded += info.status.succeeded();
      refused += info.status.has(StatusDetail::invalid_query);
      sliced += info.turns > 1;
    }
    EXPECT_GT(succeeded, 30);
    EXPECT_GT(refused, 0);
    EXPECT_GT(sliced, 20);
  }
}

// The planner's handle reaches the query's VisibilityPath, the one-shot query's points and length.
TEST(VisibilityPlanner, TheHandleReachesTheVisibilityPath) {
  const VisibilityGraph rooms(io::load_polygons(WAYMARK_DATA_DIR "/polygons/rooms.json").obstacles, {.radius = 0.5});
  const VisibilityPlanner world(rooms);
  const Vec2 a{2, 2}, b{38, 28};
  search::SearchHandle<Vec2> handle = world.make_search();
  ASSERT_TRUE(handle.run(a, b).succeeded());
  const VisibilityPath* full = handle.world_result<VisibilityPath>();
  ASSERT_NE(full, nullptr);
  VisibilityQuery one_shot(rooms);
  ASSERT_TRUE(one_shot.find_path(a, b).succeeded());
  EXPECT_EQ(full->points, one_shot.path().points);
  EXPECT_EQ(full->length, one_shot.path().length);
  EXPECT_GT(full->points.size(), 2u);  // the rooms' walls bend it
  const search::Source<Vec2> two[] = {{a, 0}, {b, 0}};
  EXPECT_TRUE(handle.begin(two, search::Goal<Vec2>::at(b)).has(StatusDetail::invalid_query));
  ASSERT_NE(handle.world_result<VisibilityPath>(), nullptr);
  EXPECT_TRUE(handle.world_result<VisibilityPath>()->points.empty());  // refused: no answer
}

// Inside an obstacle, outside the bounds, walled off: the reasons of the one-shot query; the
// request's max_nodes reaches the query; a running request and a queued one can be cancelled.
TEST(VisibilityPlanner, ReasonsLimitsAndCancellation) {
  const Obstacles walls{.polygons = {{{0, 4}, {6, 4}, {6, 5}, {0, 5}}, {{5, 4}, {10, 4}, {10, 5}, {5, 5}}},
                        .bounds = Aabb2{{0, 0}, {10, 10}}};
  const VisibilityGraph closed(walls, {.radius = 0.2});
  const VisibilityGraph rooms(io::load_polygons(WAYMARK_DATA_DIR "/polygons/rooms.json").obstacles, {.radius = 0.5});
  const VisibilityPlanner closed_world(closed), rooms_world(rooms);
  PathRequestQueue<Vec2> queue({.max_requests = 16, .max_searches = 2, .turn = Budget::of_expansions(1)});
  const Vec2 in_wall{3, 4.5}, outside{-3, 2}, below{5, 1}, above{5, 9};
  const RequestId blocked_start = queue.submit(closed_world, in_wall, above);
  const RequestId blocked_goal = queue.submit(closed_world, below, in_wall);
  const RequestId out = queue.submit(closed_world, outside, above);
  const RequestId apart = queue.submit(closed_world, below, above);
  const Vec2 a{2, 2}, b{38, 28};
  const RequestId limited = queue.submit(rooms_world, a, b, {.max_nodes = 2});
  const RequestId running = queue.submit(rooms_world, a, b);
  const RequestId queued = queue.submit(rooms_world, b, a);
  while (queue.state(running) != RequestState::running) queue.update(Budget::of_expansions(1));
  ASSERT_EQ(queue.state(queued), RequestState::queued);
  EXPECT_TRUE(queue.cancel(running));
  EXPECT_TRUE(queue.cancel(queued));
  drain(queue, Budget::of_expansions(4));
  VisibilityQuery one_closed(closed);
  expect_one_shot(queue, blocked_start, one_closed, in_wall, above);
  EXPECT_EQ(queue.info(blocked_start).status.reason(), FailureReason::start_blocked);
  expect_one_shot(queue, blocked_goal, one_closed, below, in_wall);
  EXPECT_EQ(queue.info(blocked_goal).status.reason(), FailureReason::goal_blocked);
  expect_one_shot(queue, out, one_closed, outside, above);
  EXPECT_EQ(queue.info(out).status.reason(), FailureReason::out_of_bounds);
  expect_one_shot(queue, apart, one_closed, below, above);
  EXPECT_EQ(queue.info(apart).status.reason(), FailureReason::unreachable);
  VisibilityQuery one_limited(rooms, {.query = {.max_nodes = 2}});
  expect_one_shot(queue, limited, one_limited, a, b);
  EXPECT_EQ(queue.info(limited).status.reason(), FailureReason::budget_exhausted);
  for (const RequestId id : {running, queued}) {
    EXPECT_EQ(queue.state(id), RequestState::cancelled);
    EXPECT_EQ(queue.info(id).status.reason(), FailureReason::cancelled);
    EXPECT_TRUE(queue.result(id)->path.empty());
  }
}

}  // namespace
}  // namespace waymark::visibility::vis_search_source_test
