// Simulation::step allocates nothing once its scratch has grown: agents following planned
// paths, avoiding walls and each other, on a grid map and with extra colliders.
#include <gtest/gtest.h>

#include <cmath>

#include "support/allocation_counter.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::steer_allocation_test {
namespace {

TEST(SteerAllocation, StepAllocatesNothingAfterWarmUp) {
  grid::GridMap map = io::load_movingai_map(std::string(WAYMARK_DATA_DIR) + "/maps/arena.map");
  std::vector<Vec2> free;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable(x, y) && (x * 7 + y * 3) % 11 == 0) free.push_back(map.cell_center({x, y}));
    }
  }
  ASSERT_GE(free.size(), 130u);
  SimulationParams params;
  params.stuck_time = 1e9;  // no re-plans: a new path may be longer than any before and grow its vector
  Simulation sim(std::move(map), params);
  // A collider on a layer of its own besides the grid, on no agent's start or goal.
  sim.obstacles().add(Circle{free[free.size() / 2], 0.2}, 3);
  for (std::size_t i = 0; i < 60; ++i) sim.add_agent({}, free[i], free[free.size() - 1 - i]);
  while (sim.plan_pending() > 0) {
  }
  for (int t = 0; t < 40; ++t) sim.step(0.05);  // warm-up: hashes, solver, contacts, results
  const std::uint64_t plans = sim.stats().plans;
  const std::size_t before = test::allocation_count();
  for (int t = 0; t < 100; ++t) sim.step(0.05);
  EXPECT_EQ(test::allocation_count() - before, 0u);
  EXPECT_EQ(sim.stats().plans, plans) << "a re-plan in the counted ticks: the check did not cover what it meant to";
}

TEST(SteerAllocation, WallLinesRebuildAndOrcaWithWallsAllocateNothingAfterWarmUp) {
  // Two worlds of different size: the arena's outline with colliders, and a map of its own.
  const grid::GridMap arena = io::load_movingai_map(std::string(WAYMARK_DATA_DIR) + "/maps/arena.map");
  grid::GridMap blocks(40, 30);
  for (int k = 0; k < 12; ++k) blocks.set_passable(grid::CellRect{3 * k + 1, k + 2, 3 * k + 2, k + 9}, false);
  ObstacleWorld big, small;
  big.set_grid(&arena);
  big.add(Circle{{20, 20}, 1.5});
  big.add(Polygon{{{30, 10}, {34, 11}, {31, 14}}}, 2);
  big.add(Segment2{{10, 30}, {14, 33}}, 3);
  small.set_grid(&blocks);
  std::vector<OrcaAgent> agents;
  for (int y = 0; y < arena.height(); y += 3) {
    for (int x = 0; x < arena.width(); x += 3) {
      if (!arena.passable(x, y)) continue;
      const auto i = static_cast<double>(agents.size());
      agents.push_back({.position = arena.cell_center({x, y}), .velocity = {std::cos(i), std::sin(i)},
                        .preferred_velocity = {3 * std::sin(i), 3 * std::cos(i)}});
    }
  }
  ASSERT_GT(agents.size(), 100u);
  std::vector<Vec2> out(agents.size());
  ObstacleLines lines;
  OrcaSolver orca;
  test::expect_no_allocation_after_warm_up([&] {
    std::size_t planes = 0;
    for (const ObstacleWorld* world : {&big, &small}) {
      lines.rebuild(*world);
      EXPECT_EQ(orca.solve(agents, lines, 0.05, out), AvoidanceStatus::ok);
      planes += orca.stats().obstacle_planes;
    }
    return planes;
  });
}

}  // namespace
}  // namespace waymark::steer::steer_allocation_test
