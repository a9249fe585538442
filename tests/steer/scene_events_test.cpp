// SceneEvents (steer/scene_events.hpp): a scene's events applied to its simulation at their
// ticks. The shipped scenes with events (scenes/door.json, scenes/orders.json) end with every
// agent not removed arrived, and each event's effect is checked against the map and the
// agents' positions; the tick rule, the index mappings and the refusals on scenes built here.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/steer/scene_events.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::scene_events_test {
namespace {

const std::string scenes_dir = std::string(WAYMARK_DATA_DIR) + "/../scenes";

struct Loaded {
  SceneSpec spec;
  std::unique_ptr<Simulation> sim;
};

Loaded load(const std::string& name) {
  const std::string path = scenes_dir + "/" + name;
  Loaded l{io::load_scene(path), nullptr};
  grid::GridMap map = io::load_movingai_map(l.spec.map);
  io::check_scene_against_map(l.spec, map, path);
  l.sim = make_simulation(l.spec, std::move(map));
  return l;
}

AgentId agent(std::size_t i) { return AgentId{static_cast<std::uint32_t>(i)}; }

bool in_cells(Vec2 p, int x0, int y0, int x1, int y1) { return p.x >= x0 && p.x < x1 + 1 && p.y >= y0 && p.y < y1 + 1; }

TEST(SceneEventsApplied, DoorClosesOnTheShortRouteAndEveryoneGoesRound) {
  Loaded l = load("door.json");
  Simulation& sim = *l.sim;
  SceneEvents events(l.spec, sim);
  ASSERT_EQ(events.pending(), 1u);
  EXPECT_EQ(events.apply_due(sim, 0), 0u);
  sim.plan_pending();
  // The door: cells (14, 7) to (14, 9) of maps/door.map; the long way round is the corridor
  // below the rooms, row 16 to 18.
  ASSERT_TRUE(sim.map()->passable(14, 8));
  std::vector<bool> used_door(sim.size()), used_corridor(sim.size());
  while (sim.stats().ticks < l.spec.max_steps && (!sim.all_arrived() || events.pending() > 0)) {
    const std::uint64_t tick = sim.stats().ticks;
    EXPECT_EQ(events.apply_due(sim, tick), tick == 40 ? 1u : 0u) << tick;
    EXPECT_EQ(sim.map()->passable(14, 8), tick < 40) << "closed just before step 41";
    sim.step(l.spec.dt);
    for (std::size_t i = 0; i < sim.size(); ++i) {
      const Vec2 p = sim.position(agent(i));
      if (in_cells(p, 14, 7, 14, 9)) {
        used_door[i] = true;
        EXPECT_LE(sim.stats().ticks, 41u) << "agent " << i << " in the closed door";
      }
      if (p.y >= 16) used_corridor[i] = true;
    }
  }
  const SimulationStats& s = sim.stats();
  EXPECT_TRUE(sim.all_arrived()) << s.arrived << " of " << sim.size() << " after " << s.ticks;
  EXPECT_EQ(s.arrived, sim.size());
  EXPECT_EQ(s.collisions, 0u);
  EXPECT_EQ(events.refused(), 0u);
  std::size_t rerouted = 0;
  for (std::size_t i = 0; i < sim.size(); ++i) {
    const bool crosses = (l.spec.agents[i].start.x < 14) != (l.spec.agents[i].goal.x < 14);
    if (crosses) {
      EXPECT_TRUE(used_door[i] || used_corridor[i]) << "agent " << i;
    }
    if (crosses && used_corridor[i]) ++rerouted;
    EXPECT_LE(distance(sim.position(agent(i)), sim.goal(agent(i))), sim.params(agent(i)).radius * 1.5) << i;
  }
  EXPECT_GE(rerouted, 5u) << "several agents went round";
}

TEST(SceneEventsApplied, OrdersSceneEachOrderTakesEffect) {
  Loaded l = load("orders.json");
  Simulation& sim = *l.sim;
  SceneEvents events(l.spec, sim);
  events.apply_due(sim, 0);
  sim.plan_pending();
  const ColliderId scene_box{static_cast<std::uint32_t>(sim.obstacles().size() - 1)};
  ASSERT_TRUE(sim.obstacles().contains(scene_box));
  Vec2 removed_at;
  while (sim.stats().ticks < l.spec.max_steps && (!sim.all_arrived() || events.pending() > 0)) {
    const std::uint64_t tick = sim.stats().ticks;
    events.apply_due(sim, tick);
    if (tick == 30) {
      EXPECT_EQ(sim.obstacles().size(), scene_box.value + 2u) << "the crate added";
    }
    if (tick >= 40 && tick < 100) {
      EXPECT_EQ(sim.status(agent(1)), AgentStatus::stopped) << tick;
    }
    if (tick == 60) removed_at = sim.position(agent(5));
    if (tick >= 60) {
      EXPECT_EQ(sim.status(agent(5)), AgentStatus::removed) << tick;
    }
    if (tick == 80) {
      EXPECT_EQ(sim.goal(agent(0)), (Vec2{12.5, 21.5}));
    }
    if (tick == 120) {
      EXPECT_EQ(sim.position(agent(3)), (Vec2{6.5, 20.5})) << "warped before the step";
    }
    if (tick == 200) {
      EXPECT_FALSE(sim.obstacles().contains(scene_box));
    }
    sim.step(l.spec.dt);
  }
  const SimulationStats& s = sim.stats();
  EXPECT_TRUE(sim.all_arrived()) << s.arrived << " of " << sim.live_agents() << " after " << s.ticks;
  EXPECT_EQ(s.removed, 1u);
  EXPECT_EQ(s.arrived, sim.size() - 1);
  EXPECT_EQ(s.collisions, 0u);
  EXPECT_EQ(events.applied(), l.spec.events.size());
  EXPECT_EQ(events.refused(), 0u);
  EXPECT_EQ(sim.position(agent(5)), removed_at) << "a removed agent stays where it was";
  EXPECT_LE(distance(sim.position(agent(0)), Vec2{12.5, 21.5}), 0.35 * 1.5);
  EXPECT_LE(distance(sim.position(agent(8)), Vec2{2.5, 2.5}), 0.35 * 1.5);
  EXPECT_TRUE(sim.obstacles().contains(ColliderId{scene_box.value + 1})) << "the crate stays";
}

/// Two agents on an open 12 x 8 map, one obstacle, and these events.
Loaded small_scene(std::vector<SceneEvent> list) {
  Loaded l;
  l.spec.agents = {AgentSpec{.start = {1.5, 1.5}, .goal = {10.5, 1.5}}, AgentSpec{.start = {1.5, 5.5}, .goal = {10.5, 5.5}}};
  l.spec.obstacles = {ObstacleSpec{.kind = ObstacleSpec::Kind::circle, .points = {{6, 4}}, .radius = 0.5}};
  l.spec.events = std::move(list);
  l.sim = make_simulation(l.spec, grid::GridMap(12, 8));
  return l;
}

SceneEvent order(std::uint64_t tick, SceneEvent::Kind kind, std::size_t index) {
  SceneEvent e;
  e.tick = tick;
  e.kind = kind;
  e.index = index;
  return e;
}

TEST(SceneEventsApplied, TickRuleAndCounts) {
  using Kind = SceneEvent::Kind;
  SceneEvent block = order(3, Kind::block, 0);
  block.x0 = 2;
  block.y0 = 0;
  block.x1 = 3;
  block.y1 = 7;
  Loaded l = small_scene({order(0, Kind::stop, 1), block, order(3, Kind::resume, 1), order(9, Kind::remove, 0)});
  Simulation& sim = *l.sim;
  SceneEvents events(l.spec, sim);
  EXPECT_EQ(events.next_tick(), 0u);
  EXPECT_EQ(events.apply_due(sim, 0), 1u);
  EXPECT_EQ(sim.status(agent(1)), AgentStatus::stopped);
  EXPECT_EQ(events.apply_due(sim, 2), 0u) << "tick 3's events wait for stats().ticks == 3";
  EXPECT_EQ(events.next_tick(), 3u);
  EXPECT_TRUE(sim.map()->passable(3, 7));
  EXPECT_EQ(events.apply_due(sim, 3), 2u);
  for (int y = 0; y < 8; ++y) {
    EXPECT_FALSE(sim.map()->passable(2, y)) << y;
    EXPECT_FALSE(sim.map()->passable(3, y)) << y << ": inclusive";
    EXPECT_TRUE(sim.map()->passable(4, y)) << y;
  }
  EXPECT_NE(sim.status(agent(1)), AgentStatus::stopped);
  EXPECT_EQ(events.apply_due(sim, 100), 1u) << "late: everything due at once";
  EXPECT_EQ(sim.status(agent(0)), AgentStatus::removed);
  EXPECT_EQ(events.pending(), 0u);
  EXPECT_EQ(events.next_tick(), std::nullopt);
  EXPECT_EQ(events.applied(), 4u);
  EXPECT_EQ(events.refused(), 0u);
}

TEST(SceneEventsApplied, ObstacleIndicesCountTheScenesThenTheAdded) {
  using Kind = SceneEvent::Kind;
  SceneEvent crate = order(1, Kind::add_obstacle, 0);
  crate.obstacle = ObstacleSpec{.kind = ObstacleSpec::Kind::box, .points = {{8, 2}, {9, 3}}, .layer = 2};
  Loaded l = small_scene({crate, order(2, Kind::remove_obstacle, 0), order(3, Kind::remove_obstacle, 1)});
  Simulation& sim = *l.sim;
  const std::size_t before = sim.obstacles().size();
  const ColliderId scene_circle{static_cast<std::uint32_t>(before - 1)};
  SceneEvents events(l.spec, sim);
  events.apply_due(sim, 1);
  ASSERT_EQ(sim.obstacles().size(), before + 1);
  const ColliderId added{static_cast<std::uint32_t>(before)};
  EXPECT_EQ(sim.obstacles().layer(added), 2);
  events.apply_due(sim, 2);
  EXPECT_FALSE(sim.obstacles().contains(scene_circle)) << "index 0: the scene's circle";
  EXPECT_TRUE(sim.obstacles().contains(added));
  events.apply_due(sim, 3);
  EXPECT_FALSE(sim.obstacles().contains(added)) << "index 1: the first added";
  EXPECT_EQ(events.refused(), 0u);
}

TEST(SceneEventsApplied, WhatTheSimulationRefusesIsCounted) {
  using Kind = SceneEvent::Kind;
  SceneEvent outside = order(0, Kind::open, 0);
  outside.x1 = 12;  // the map is 12 wide
  SceneEvent bad_shape = order(0, Kind::add_obstacle, 0);
  bad_shape.obstacle = ObstacleSpec{.kind = ObstacleSpec::Kind::circle, .points = {{1, 1}}, .radius = -1};
  Loaded l = small_scene({order(0, Kind::resume, 0),  // not stopped
                          order(0, Kind::remove, 1), order(0, Kind::goal, 1),  // an order to a removed agent
                          order(0, Kind::stop, 2),                             // no agent 2
                          outside, bad_shape,
                          order(0, Kind::remove_obstacle, 1),  // the refused shape's index
                          order(0, Kind::remove_obstacle, 2), order(0, Kind::remove_obstacle, 0),
                          order(0, Kind::remove_obstacle, 0)});  // twice
  Simulation& sim = *l.sim;
  SceneEvents events(l.spec, sim);
  EXPECT_EQ(events.apply_due(sim, 0), 10u);
  EXPECT_EQ(events.refused(), 8u);
  EXPECT_EQ(sim.stats().removed, 1u);
  EXPECT_TRUE(sim.map()->passable(0, 0));
}

// A last event far past the agents' arrival (late_event_factor times their ticks, and
// late_event_slack seconds after) is found once their paths are planned; one near it, or past
// a step limit that comes first, is not.
TEST(SceneEventsApplied, ALastEventFarPastEveryArrivalIsFound) {
  using Kind = SceneEvent::Kind;
  for (const std::uint64_t last : {5000u, 1000u}) {
    Loaded l = small_scene({order(0, Kind::stop, 0), order(0, Kind::resume, 0), order(last, Kind::stop, 1)});
    Simulation& sim = *l.sim;
    SceneEvents events(l.spec, sim);
    events.apply_due(sim, 0);
    EXPECT_FALSE(late_events(events, sim, l.spec.dt).has_value()) << "no paths yet: no bound";
    sim.plan_pending();
    const std::optional<LateEvents> late = late_events(events, sim, l.spec.dt);
    if (last == 1000) {  // 940 ticks, 47 s after the arrival: within the slack
      EXPECT_FALSE(late.has_value());
      continue;
    }
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ(late->last_tick, last);
    EXPECT_EQ(late->idle_until, last);
    // 9 units straight at 3 units/s: 3 s, 60 ticks of 0.05 s.
    EXPECT_NEAR(static_cast<double>(late->arrival_tick), 60.0, 1.0);
    const std::optional<LateEvents> limited = late_events(events, sim, l.spec.dt, 3000);
    ASSERT_TRUE(limited.has_value());
    EXPECT_EQ(limited->idle_until, 3000u);
    EXPECT_FALSE(late_events(events, sim, l.spec.dt, 1000).has_value()) << "the step limit comes first";
    events.apply_due(sim, last);
    EXPECT_FALSE(late_events(events, sim, l.spec.dt).has_value()) << "no event left";
  }
}

}  // namespace
}  // namespace waymark::steer::scene_events_test
