// A queue over a navmesh or a visibility graph (requests by position) allocates nothing after
// warm-up: submitting, updating with small budgets, copying results out and releasing.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/visibility/visibility_planner.hpp"

namespace waymark::search_position_queue_allocation_test {
namespace {

using test::expect_no_allocation_after_warm_up;

template <class Point>
void expect_queue_allocates_nothing(const search::SearchSource<Point>& world,
                                    const std::vector<std::pair<Point, Point>>& queries, bool partial) {
  search::PathRequestQueue<Point> queue(
      {.max_requests = 64, .max_searches = 4, .turn = search::Budget::of_expansions(3)});
  std::vector<search::RequestId> ids;
  ids.reserve(queries.size());
  search::SearchResult<Point> kept;
  expect_no_allocation_after_warm_up([&] {
    ids.clear();
    for (const auto& [from, to] : queries) ids.push_back(queue.submit(world, from, to, {.partial_result = partial}));
    while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(10));
    std::size_t solved = 0;
    for (const search::RequestId id : ids) {
      queue.copy_result(id, kept);
      solved += kept.status.succeeded() ? 1 : 0;
      queue.release(id);
    }
    return solved;
  });
}

TEST(PositionQueueAllocation, NavmeshRequestsAllocateNothingAfterWarmUp) {
  const navmesh::NavMesh nav = navmesh::build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  std::mt19937_64 rng(3);
  std::vector<std::pair<Vec3, Vec3>> queries;
  for (int i = 0; i < 40; ++i) queries.emplace_back(nav.random_point(rng)->point, nav.random_point(rng)->point);
  queries.emplace_back(Vec3{1000, 0, 1000}, queries.front().second);  // off the mesh
  for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const navmesh::NavPlanner world(nav, {.mode = mode});
    expect_queue_allocates_nothing<Vec3>(world, queries, true);
  }
}

TEST(PositionQueueAllocation, VisibilityRequestsAllocateNothingAfterWarmUp) {
  const visibility::VisibilityGraph graph(io::load_polygons(WAYMARK_DATA_DIR "/polygons/rooms.json").obstacles,
                                          {.radius = 0.5});
  const visibility::VisibilityPlanner world(graph);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> x(0, 40), y(0, 30);
  std::vector<std::pair<Vec2, Vec2>> queries;
  for (int i = 0; i < 40; ++i) queries.push_back({{x(rng), y(rng)}, {x(rng), y(rng)}});
  expect_queue_allocates_nothing<Vec2>(world, queries, false);
}

}  // namespace
}  // namespace waymark::search_position_queue_allocation_test
