// Steering worlds shared by threads: an ObstacleWorld (raycasts, contacts, clearance) and a
// FlowField read by two threads at once answer exactly as one thread (and are clean under
// ThreadSanitizer: make test-tsan); so do the simulation's shared planning parts — a
// ClearanceMap with a size class's map and planner, and the walls ORCA reads (ObstacleLines).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/steer/behaviours.hpp"
#include "waymark/steer/flow_field.hpp"
#include "waymark/grid/clearance.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer::steer_concurrency_test {
namespace {

struct Answer {
  double ray = -1;
  Vec2 normal;
  std::size_t contacts = 0;
  double clearance = 0;
  Vec2 flow;
  friend bool operator==(const Answer&, const Answer&) = default;
};

TEST(Concurrency, ObstacleWorldAndFlowFieldShareAcrossThreads) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  ObstacleWorld world;
  world.set_grid(&map, 0);
  Random random(11);
  for (int i = 0; i < 300; ++i) {
    const Vec2 c{random.uniform(0, map.width()), random.uniform(0, map.height())};
    world.add(Circle{c, random.uniform(0.1, 1.0)}, i % 4);
    world.add(Segment2{c, c + Vec2{random.uniform(-2, 2), random.uniform(-2, 2)}}, 4 + i % 4);
  }
  FlowField field(map);
  std::mt19937 rng(5);
  const grid::CellCoord goal = map.coord(test::random_passable(map, rng));
  ASSERT_TRUE(field.build(goal).succeeded());

  std::vector<Vec2> points;
  for (int i = 0; i < 4000; ++i) points.push_back({random.uniform(0, map.width()), random.uniform(0, map.height())});
  const auto answer = [&](std::size_t i, std::vector<Contact>& contacts) {
    const Vec2 p = points[i];
    const double angle = static_cast<double>(i) * 0.7;
    const LayerMask mask = i % 3 == 0 ? all_layers : layer_bit(0) | layer_bit(static_cast<int>(i % 8));
    Answer a;
    if (const auto hit = world.raycast(p, {std::cos(angle), std::sin(angle)}, 60, mask)) {
      a.ray = hit->distance;
      a.normal = hit->normal;
    }
    a.contacts = world.disc_contacts(p, 0.6, mask, contacts);
    a.clearance = world.clearance(p, 5, mask);
    a.flow = field.direction_at(p);
    return a;
  };
  std::vector<Answer> one(points.size());
  std::vector<Contact> scratch;
  for (std::size_t i = 0; i < points.size(); ++i) one[i] = answer(i, scratch);

  std::vector<Answer> two(points.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Contact> contacts;
      for (std::size_t i = t; i < points.size(); i += 2) two[i] = answer(i, contacts);
    });
  }
  for (std::thread& th : threads) th.join();
  std::size_t hits = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    ASSERT_EQ(one[i], two[i]) << i;
    hits += one[i].ray >= 0 ? 1 : 0;
  }
  EXPECT_GT(hits, points.size() / 2);  // the rays did meet walls: the check covered the walk
}

struct PlanAnswer {
  double cost = 0;
  std::size_t near = 0;
  friend bool operator==(const PlanAnswer&, const PlanAnswer&) = default;
};

TEST(Concurrency, SizeClassPlannersAndWallLinesShareAcrossThreads) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  grid::ClearanceMap clearance(map, {.max_clearance = 1.5});
  const grid::SizeClassMap large(clearance, 1.5 - 1e-9);
  const grid::GridPlanner planner(large.map());
  ObstacleWorld world;
  world.set_grid(&map, 0);
  world.add(Circle{{60, 60}, 2}, 1);
  const ObstacleLines lines(world);
  std::mt19937 rng(9);
  std::vector<std::pair<CellId, CellId>> queries;
  while (queries.size() < 40) {
    const CellId a = test::random_passable(large.map(), rng), b = test::random_passable(large.map(), rng);
    queries.emplace_back(a, b);
  }
  const auto answer = [&](std::size_t i) {
    PlanAnswer r;
    r.cost = planner.plan(queries[i].first, queries[i].second).path.cost;
    lines.for_each_near(large.map().cell_center(queries[i].first), 4, all_layers, [&](std::size_t, double) { ++r.near; });
    return r;
  };
  std::vector<PlanAnswer> one(queries.size()), two(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) one[i] = answer(i);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < queries.size(); i += 2) two[i] = answer(i);
    });
  }
  for (std::thread& th : threads) th.join();
  std::size_t found = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    EXPECT_EQ(one[i], two[i]) << i;
    found += std::isfinite(one[i].cost) ? 1 : 0;
  }
  EXPECT_GT(found, queries.size() / 2);
}

}  // namespace
}  // namespace waymark::steer::steer_concurrency_test
