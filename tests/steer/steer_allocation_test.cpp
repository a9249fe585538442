// Simulation::step allocates nothing once its scratch has grown: agents following planned
// paths, avoiding walls and each other, on a grid map and with extra colliders; and neither do
// the orders and edits of a live game between steps (new goals, stop and resume, removal, warp,
// a door closed and opened, a planning collider removed).
#include <gtest/gtest.h>

#include <cmath>

#include "support/allocation_counter.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::steer_allocation_test {
namespace {

/// Free cell centres spread over `map` (every cell with (7x + 3y) mod 11 = 0), in row order.
std::vector<Vec2> spread_cells(const grid::GridMap& map) {
  std::vector<Vec2> free;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable(x, y) && (x * 7 + y * 3) % 11 == 0) free.push_back(map.cell_center({x, y}));
    }
  }
  return free;
}

TEST(SteerAllocation, StepAllocatesNothingAfterWarmUp) {
  grid::GridMap map = io::load_movingai_map(std::string(WAYMARK_DATA_DIR) + "/maps/arena.map");
  const std::vector<Vec2> free = spread_cells(map);
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

/// Orders and edits at fixed ticks of a 40-tick round (the same kinds in the warm-up round and
/// the counted ones).
void live_round(Simulation& sim, const std::vector<Vec2>& free, std::size_t round, std::vector<ColliderId>& crates) {
  grid::GridMap& map = *sim.edit_map();
  const grid::CellRect door{map.width() / 2 - 1, 0, map.width() / 2 + 1, map.height()};
  for (int t = 0; t < 40; ++t) {
    if (t == 5) map.set_passable(door, false);
    if (t == 12) map.set_passable(door, true);
    if (t == 8 && !crates.empty()) {
      EXPECT_TRUE(sim.remove_obstacle(crates.back()));
      crates.pop_back();
    }
    if (t == 15) {
      for (std::uint32_t i = 0; i < 10; ++i) sim.set_goal(AgentId{i}, free[(i + 70 + 13 * (round % 2)) % free.size()]);
      sim.stop(AgentId{20});
      sim.warp(AgentId{21}, free[100 + round % 2]);
    }
    if (t == 30) {
      sim.resume(AgentId{20});
      sim.remove_agent(AgentId{static_cast<std::uint32_t>(59 - round)});
    }
    sim.step(0.05);
  }
}

TEST(SteerAllocation, OrdersAndEditsBetweenStepsAllocateNothingAfterWarmUp) {
  grid::GridMap map = io::load_movingai_map(std::string(WAYMARK_DATA_DIR) + "/maps/arena.map");
  const std::vector<Vec2> free = spread_cells(map);
  ASSERT_GE(free.size(), 130u);
  SimulationParams params;
  params.stuck_time = 1e9;
  params.queue.reserve_path_nodes = 1024;  // every request's result holds any path here at once
  Simulation sim(std::move(map), params);
  std::vector<ColliderId> crates;
  for (int k = 0; k < 4; ++k) crates.push_back(sim.add_obstacle(Circle{free[120 + k], 0.3}, 3));
  for (std::size_t i = 0; i < 60; ++i) sim.add_agent({}, free[i], free[free.size() - 1 - i]);
  while (sim.plan_pending() > 0) {
  }
  sim.reserve_planning();  // the pool's searches sized for paths of up to reserve_path_nodes
  for (std::size_t round = 0; round < 2; ++round) live_round(sim, free, round, crates);  // warm-up
  const std::uint64_t edits = sim.stats().edits;
  const std::size_t before = test::allocation_count();
  live_round(sim, free, 2, crates);
  live_round(sim, free, 3, crates);
  EXPECT_EQ(test::allocation_count() - before, 0u);
  EXPECT_GE(sim.stats().edits, edits + 6) << "the counted rounds did not edit the world";
  EXPECT_GE(sim.stats().edit_replans, 1u);
  EXPECT_EQ(sim.stats().removed, 4u);
}

}  // namespace
}  // namespace waymark::steer::steer_allocation_test
