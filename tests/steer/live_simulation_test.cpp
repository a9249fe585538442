// A simulation in a live game: orders (new goals, stop and resume, removal, warp) and a world the
// game edits while agents run (a door that closes, a crate dropped in a doorway, a cell closing
// under an agent, a way opening to a goal that was unreachable). Each check is against the map
// itself: where the cells are blocked, where the agents are, which paths changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer::live_simulation_test {
namespace {

using grid::CellRect;
using grid::GridMap;

/// Rows of '.' (passable) and '@' (blocked); the first row is y = 0.
GridMap map_from(const std::vector<std::string>& rows) {
  const int w = static_cast<int>(rows[0].size()), h = static_cast<int>(rows.size());
  std::vector<std::uint8_t> passable;
  for (const std::string& row : rows) {
    for (const char c : row) passable.push_back(c == '.' ? 1 : 0);
  }
  return GridMap(w, h, std::move(passable), {});
}

/// Two rooms joined by a door at (10, 4), and a long way round below through a corridor.
GridMap two_rooms() {
  return map_from({
      "@@@@@@@@@@@@@@@@@@@@@",  // y 0
      "@.........@.........@",
      "@.........@.........@",
      "@.........@.........@",
      "@...................@",  // y 4: the door at x 10
      "@.........@.........@",
      "@.........@.........@",
      "@@@@@@@@.@@@@.@@@@@@@",  // y 7: the way down (x 8) and up (x 13)
      "@@@@@@@@.@@@@.@@@@@@@",
      "@@@@@@@@......@@@@@@@",  // y 9: the corridor below
      "@@@@@@@@@@@@@@@@@@@@@",
  });
}

constexpr double dt = 0.05;
const AgentParams small{.radius = 0.3};

AgentId id(std::size_t i) { return AgentId{static_cast<std::uint32_t>(i)}; }

bool in_blocked_cell(const Simulation& sim, Vec2 p) {
  const auto c = sim.map()->world_to_cell(p);
  return !c || !sim.map()->passable(c->x, c->y);
}

void run_until_arrived(Simulation& sim, std::uint64_t max_ticks) {
  while (!sim.all_arrived() && sim.stats().ticks < max_ticks) sim.step(dt);
}

TEST(LiveSimulation, ADoorClosingOnTheOnlyShortRouteReroutesOnlyTheAgentsThatCrossIt) {
  Simulation sim(two_rooms());
  const AgentId through = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});  // through the door
  const AgentId left = sim.add_agent(small, {1.5, 1.5}, {8.5, 6.5});      // stays in the left room
  const AgentId right = sim.add_agent(small, {12.5, 1.5}, {18.5, 6.5});   // stays in the right room
  sim.plan_pending();
  for (int i = 0; i < 12; ++i) sim.step(dt);
  ASSERT_EQ(sim.status(through), AgentStatus::moving);
  ASSERT_LT(sim.position(through).x, 8.0);  // not yet at the door
  const std::vector<Vec2> left_path(sim.path(left).begin(), sim.path(left).end());
  const std::vector<Vec2> right_path(sim.path(right).begin(), sim.path(right).end());
  const std::uint64_t plans = sim.stats().plans;

  sim.edit_map()->set_passable(CellRect::cell(10, 4), false);
  sim.step(dt);
  EXPECT_EQ(sim.stats().edit_replans, 1u);
  EXPECT_EQ(sim.stats().plans, plans + 1);
  EXPECT_EQ(std::vector<Vec2>(sim.path(left).begin(), sim.path(left).end()), left_path);
  EXPECT_EQ(std::vector<Vec2>(sim.path(right).begin(), sim.path(right).end()), right_path);
  // The new path goes round below: through the corridor's row.
  bool below = false;
  for (const Vec2 p : sim.path(through)) below = below || p.y > 8.5;
  EXPECT_TRUE(below);

  while (!sim.all_arrived() && sim.stats().ticks < 3000) {
    sim.step(dt);
    ASSERT_FALSE(in_blocked_cell(sim, sim.position(through))) << "tick " << sim.stats().ticks;
  }
  EXPECT_TRUE(sim.all_arrived());
  EXPECT_EQ(sim.stats().collisions, 0u);
}

TEST(LiveSimulation, ACrateInAOneCellDoorwayIsRoutedAroundNotWalkedInto) {
  // With planning blind to colliders the agent walks into the crate and never arrives; with
  // plan_around_obstacles it takes the long way round.
  for (const bool plan_around : {true, false}) {
    Simulation sim(two_rooms(), SimulationParams{}, GridWorldParams{.plan_around_obstacles = plan_around});
    const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
    sim.plan_pending();
    for (int i = 0; i < 10; ++i) sim.step(dt);
    const ColliderId crate = sim.add_obstacle(Box{{10.05, 4.05}, {10.95, 4.95}});
    EXPECT_TRUE(sim.obstacles().contains(crate));
    run_until_arrived(sim, 1500);
    if (plan_around) {
      EXPECT_TRUE(sim.arrived(a));
      EXPECT_EQ(sim.stats().collisions, 0u);
      EXPECT_FALSE(sim.planning_map()->passable(10, 4));
      EXPECT_TRUE(sim.map()->passable(10, 4));  // the game's map is not changed
    } else {
      EXPECT_FALSE(sim.arrived(a));
    }
  }
}

TEST(LiveSimulation, RemovingACrateOpensItsCellsToPlanningAgain) {
  Simulation sim(two_rooms());
  const ColliderId crate = sim.add_obstacle(Circle{{10.5, 4.5}, 0.3});
  EXPECT_FALSE(sim.planning_map()->passable(10, 4));
  EXPECT_TRUE(sim.remove_obstacle(crate));
  EXPECT_FALSE(sim.remove_obstacle(crate));
  EXPECT_TRUE(sim.planning_map()->passable(10, 4));
  EXPECT_FALSE(sim.obstacles().contains(crate));
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  sim.plan_pending();
  for (const Vec2 p : sim.path(a)) EXPECT_LT(p.y, 7.0);  // straight through the door
}

TEST(LiveSimulation, ANewGoalMidPathIsPlannedAndReached) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  EXPECT_EQ(sim.status(a), AgentStatus::planning);
  sim.plan_pending();
  EXPECT_EQ(sim.status(a), AgentStatus::moving);
  for (int i = 0; i < 20; ++i) sim.step(dt);
  ASSERT_TRUE(sim.set_goal(a, {2.5, 1.5}));
  EXPECT_EQ(sim.status(a), AgentStatus::planning);
  EXPECT_EQ(sim.goal(a), (Vec2{2.5, 1.5}));
  sim.step(dt);
  EXPECT_EQ(sim.status(a), AgentStatus::moving);
  ASSERT_TRUE(sim.corner(a).has_value());
  EXPECT_EQ(sim.remaining_path(a).back(), (Vec2{2.5, 1.5}));
  run_until_arrived(sim, 2000);
  EXPECT_EQ(sim.status(a), AgentStatus::arrived);
  EXPECT_LE(distance(sim.position(a), Vec2{2.5, 1.5}), small.radius);
  EXPECT_FALSE(sim.set_goal(a, {std::nan(""), 0}));
  EXPECT_FALSE(sim.set_goal(id(7), {2.5, 1.5}));
}

TEST(LiveSimulation, AStoppedAgentHoldsAndResumesItsPath) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  sim.plan_pending();
  for (int i = 0; i < 10; ++i) sim.step(dt);
  EXPECT_FALSE(sim.resume(a));  // not stopped
  ASSERT_TRUE(sim.stop(a));
  for (int i = 0; i < 40; ++i) sim.step(dt);  // two seconds: enough to brake
  EXPECT_EQ(sim.status(a), AgentStatus::stopped);
  const Vec2 held = sim.position(a);
  for (int i = 0; i < 100; ++i) sim.step(dt);  // longer than stuck_time: no re-plan, no move
  EXPECT_LT(distance(sim.position(a), held), 1e-3);
  EXPECT_LT(length(sim.velocity(a)), 1e-3);
  EXPECT_EQ(sim.stats().replans, 0u);
  ASSERT_TRUE(sim.resume(a));
  run_until_arrived(sim, 3000);
  EXPECT_TRUE(sim.arrived(a));
}

TEST(LiveSimulation, AWarpedAgentPlansAgainFromWhereItWasPut) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  sim.plan_pending();
  for (int i = 0; i < 10; ++i) sim.step(dt);
  ASSERT_TRUE(sim.warp(a, {16.5, 2.5}));
  EXPECT_EQ(sim.position(a), (Vec2{16.5, 2.5}));
  EXPECT_EQ(sim.velocity(a), Vec2{});
  sim.step(dt);
  ASSERT_FALSE(sim.path(a).empty());
  EXPECT_GT(sim.path(a).front().x, 15.0);  // from the new place, not the old one
  run_until_arrived(sim, 400);
  EXPECT_TRUE(sim.arrived(a));
  EXPECT_FALSE(sim.warp(a, {1e300, 0}));
}

TEST(LiveSimulation, ARemovedAgentLeavesTheCrowdAndRefusesOrders) {
  Simulation sim(two_rooms());
  std::vector<AgentId> crowd;
  for (int i = 0; i < 4; ++i) {
    crowd.push_back(sim.add_agent(small, {1.5 + i, 2.5}, {18.5 - i, 2.5}));
    crowd.push_back(sim.add_agent(small, {18.5 - i, 5.5}, {1.5 + i, 5.5}));
  }
  sim.plan_pending();
  for (int i = 0; i < 30; ++i) sim.step(dt);
  ASSERT_TRUE(sim.remove_agent(crowd[3]));
  EXPECT_FALSE(sim.remove_agent(crowd[3]));
  EXPECT_EQ(sim.status(crowd[3]), AgentStatus::removed);
  EXPECT_FALSE(sim.set_goal(crowd[3], {2.5, 2.5}));
  EXPECT_FALSE(sim.stop(crowd[3]));
  EXPECT_FALSE(sim.warp(crowd[3], {2.5, 2.5}));
  EXPECT_EQ(sim.live_agents(), 7u);
  const Vec2 left_at = sim.position(crowd[3]);
  run_until_arrived(sim, 4000);
  EXPECT_TRUE(sim.all_arrived());
  EXPECT_EQ(sim.stats().arrived, 7u);
  EXPECT_EQ(sim.stats().removed, 1u);
  EXPECT_EQ(sim.stats().collisions, 0u);
  EXPECT_EQ(sim.position(crowd[3]), left_at);  // nothing moves it any more
}

TEST(LiveSimulation, AnAgentWhoseCellClosesIsMovedToTheNearestFreeCell) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {4.5, 3.5}, {4.5, 3.5});
  sim.plan_pending();
  sim.step(dt);
  // Its cell and the two to the left close: the nearest free centres are right of it (5.5),
  // above (4.5, 2.5) and below (4.5, 4.5), all one cell away; rings are scanned in a fixed order.
  sim.edit_map()->set_passable(CellRect{2, 3, 5, 4}, false);
  sim.step(dt);
  EXPECT_EQ(sim.stats().pushed_out, 1u);
  EXPECT_FALSE(in_blocked_cell(sim, sim.position(a)));
  EXPECT_NEAR(distance(sim.position(a), Vec2{4.5, 3.5}), 1.0, 0.05);
}

TEST(LiveSimulation, AGoalThatWasUnreachableIsTriedAgainWhenAnEditOpensAWay) {
  GridMap map = two_rooms();
  map.set_passable(CellRect::cell(10, 4), false);
  map.set_passable(CellRect::cell(13, 7), false);
  Simulation sim(std::move(map));
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  sim.plan_pending();
  sim.step(dt);
  EXPECT_EQ(sim.status(a), AgentStatus::unreachable);
  EXPECT_EQ(sim.stats().failed_plans, 1u);
  for (int i = 0; i < 50; ++i) sim.step(dt);
  EXPECT_EQ(sim.stats().plans, 1u);  // it does not ask again by itself
  sim.edit_map()->set_passable(CellRect::cell(10, 4), true);
  run_until_arrived(sim, 2000);
  EXPECT_TRUE(sim.arrived(a));
  EXPECT_EQ(sim.stats().edit_replans, 1u);
}

TEST(LiveSimulation, TwoSizesThroughOneGapEachWhereItsDiscFits) {
  // Two rooms joined by a one-cell gap (x 10, y 4) and, below, an opening four cells wide. A
  // radius-0.4 agent fits every free cell and takes the gap; a radius-0.8 agent fits only cells
  // whose centre is 1.5 cells from any wall (the next clearance a centre can have) and goes
  // round below.
  Simulation sim(map_from({"@@@@@@@@@@@@@@@@@@@@@", "@.........@.........@", "@.........@.........@",
                           "@.........@.........@", "@...................@", "@.........@.........@",
                           "@.........@.........@", "@.........@.........@", "@.........@.........@",
                           "@.........@.........@", "@...................@", "@...................@",
                           "@...................@", "@...................@", "@@@@@@@@@@@@@@@@@@@@@"}));
  const AgentId a = sim.add_agent(AgentParams{.radius = 0.4}, {3.5, 3.5}, {17.5, 3.5});
  const AgentId b = sim.add_agent(AgentParams{.radius = 0.8}, {3.5, 6.5}, {17.5, 6.5});
  const AgentId c = sim.add_agent(AgentParams{.radius = 0.85}, {6.5, 6.5}, {14.5, 6.5});
  EXPECT_EQ(sim.size_class(a), 0u);
  EXPECT_EQ(sim.size_class(b), 1u);
  EXPECT_EQ(sim.size_class(c), 1u);  // the same cells fit both
  sim.plan_pending();
  double a_lowest = 0, b_lowest = 0;
  for (const Vec2 p : sim.path(a)) a_lowest = std::max(a_lowest, p.y);
  for (const Vec2 p : sim.path(b)) b_lowest = std::max(b_lowest, p.y);
  EXPECT_LT(a_lowest, 9.0);   // through the gap
  EXPECT_GT(b_lowest, 10.0);  // round below
  run_until_arrived(sim, 3000);
  EXPECT_TRUE(sim.all_arrived());
  EXPECT_EQ(sim.stats().collisions, 0u);
  // The wide opening closes to three cells (rows 11-13 stay): still wide enough. Then to two:
  // the large agents' goal side is cut off for them, not for the small one.
  sim.edit_map()->set_passable(CellRect{10, 10, 11, 11}, false);
  EXPECT_TRUE(sim.set_goal(b, {3.5, 6.5}));
  sim.step(dt);
  EXPECT_EQ(sim.status(b), AgentStatus::moving);
  sim.edit_map()->set_passable(CellRect{10, 11, 11, 12}, false);
  EXPECT_TRUE(sim.set_goal(b, {3.5, 6.5}));
  EXPECT_TRUE(sim.set_goal(a, {3.5, 3.5}));
  sim.step(dt);
  EXPECT_EQ(sim.status(b), AgentStatus::unreachable);
  EXPECT_EQ(sim.status(a), AgentStatus::moving);
}

TEST(LiveSimulation, TheMixedSizeSceneSendsTheSmallThroughTheGapAndTheLargeRoundIt) {
  // scenes/mixed_sizes.json on scenes/maps/gap.map: rooms joined by a one-cell gap at (12, 5)
  // and an opening five cells wide below row 10. Radii up to 0.5 fit the gap; larger ones not.
  const std::string path = std::string(WAYMARK_DATA_DIR) + "/../scenes/mixed_sizes.json";
  const SceneSpec spec = io::load_scene(path);
  GridMap map = io::load_movingai_map(spec.map);
  io::check_scene_against_map(spec, map, path);
  const std::unique_ptr<Simulation> sim = make_simulation(spec, std::move(map));
  sim->plan_pending();
  for (std::size_t i = 0; i < sim->size(); ++i) {
    double lowest = 0;
    for (const Vec2 p : sim->path(id(i))) lowest = std::max(lowest, p.y);
    if (sim->params(id(i)).radius <= 0.5) {
      EXPECT_LT(lowest, 10.0) << "agent " << i;
    } else {
      EXPECT_GT(lowest, 11.0) << "agent " << i;
    }
  }
  while (!sim->all_arrived() && sim->stats().ticks < spec.max_steps) sim->step(spec.dt);
  EXPECT_TRUE(sim->all_arrived());
  EXPECT_EQ(sim->stats().collisions, 0u);
}

TEST(LiveSimulation, AnAgentBesideACrateInACellTheCrateClosesStillPlans) {
  // A crate off the grid's lines closes cells whose centre is within half a cell of it; an
  // agent may stand clear of the crate in such a cell, and plans from the nearest open one.
  Simulation sim(two_rooms());
  sim.add_obstacle(Circle{{10.0, 4.5}, 0.3});
  sim.step(dt);
  ASSERT_FALSE(sim.planning_map()->passable(9, 4));
  const AgentId a = sim.add_agent(small, {9.2, 4.9}, {2.5, 1.5});
  sim.step(dt);
  EXPECT_EQ(sim.status(a), AgentStatus::moving);
  run_until_arrived(sim, 1000);
  EXPECT_TRUE(sim.arrived(a));
}

TEST(LiveSimulation, ACollidersOnlyAvoidanceSawLeavesPlanningAloneWhenRemoved) {
  Simulation sim(two_rooms());
  const ColliderId seen = sim.add_obstacle(Circle{{10.5, 4.5}, 0.3});
  const ColliderId unseen = sim.obstacles().add(Circle{{10.5, 4.5}, 0.3});
  EXPECT_TRUE(sim.remove_obstacle(unseen));
  EXPECT_FALSE(sim.planning_map()->passable(10, 4));  // still closed by the one planning saw
  EXPECT_TRUE(sim.remove_obstacle(seen));
  EXPECT_TRUE(sim.planning_map()->passable(10, 4));
}

TEST(LiveSimulation, ALargeAgentWhoseGoalItCannotFitArrivesWhereItFits) {
  // Radius 0.8 fits only cells 1.5 from a wall; the goal (1.5, 1.5) is a corner cell, so the
  // path ends at the nearest cell it fits, (2.5, 2.5), and arriving there counts.
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(AgentParams{.radius = 0.8}, {7.5, 3.5}, {1.5, 1.5});
  sim.plan_pending();
  ASSERT_FALSE(sim.path(a).empty());
  EXPECT_EQ(sim.path(a).back(), (Vec2{2.5, 2.5}));
  run_until_arrived(sim, 1000);
  EXPECT_EQ(sim.status(a), AgentStatus::arrived);
}

TEST(LiveSimulation, StateHashFollowsEveryBitOfTheState) {
  Simulation one(two_rooms()), two(two_rooms());
  for (Simulation* sim : {&one, &two}) {
    sim->add_agent(small, {2.5, 4.5}, {18.5, 4.5});
    sim->plan_pending();
    for (int i = 0; i < 10; ++i) sim->step(dt);
  }
  EXPECT_EQ(one.state_hash(), two.state_hash());
  two.warp(id(0), two.position(id(0)) + Vec2{1e-12, 0});
  EXPECT_NE(one.state_hash(), two.state_hash());
}

TEST(LiveSimulation, SizeClassesAreRefusedPastTheirLimits) {
  // A radius beyond max_class_radius_cells, and a class beyond max_size_classes, are refused:
  // add_agent throws BuildError and the service answers nullopt.
  Simulation sim(GridMap(300, 300));
  EXPECT_THROW(sim.add_agent(AgentParams{.radius = 64.5}, {150.5, 150.5}, {160.5, 150.5}), BuildError);
  GridPathService service(*sim.planning_map(), {}, {});
  EXPECT_EQ(service.size_class(0.3), 0u);
  EXPECT_FALSE(service.size_class(-1.0).has_value());
  EXPECT_FALSE(service.size_class(GridPathService::max_class_radius_cells + 0.01).has_value());
  // Radii 1, 2, … cells fall in distinct clearance steps: 15 classes besides class 0.
  for (int k = 1; k < static_cast<int>(GridPathService::max_size_classes); ++k) {
    EXPECT_EQ(service.size_class(k), static_cast<std::size_t>(k)) << k;
  }
  EXPECT_EQ(service.size_classes(), GridPathService::max_size_classes);
  EXPECT_FALSE(service.size_class(20.0).has_value());
  EXPECT_EQ(service.size_class(3.0), 3u);  // a radius of a class already made is still answered
}

TEST(LiveSimulation, StuckReplansBelowOneAreRefused) {
  EXPECT_FALSE(SimulationParams{.stuck_replans = 0}.valid());
  EXPECT_THROW(Simulation(two_rooms(), SimulationParams{.stuck_replans = 0}), BuildError);
}

TEST(LiveSimulation, MoreChangesInOneStepThanListedReplanEveryone) {
  // 64 listed rectangles are tested against each path; one more and every agent with a path
  // re-plans instead (bounded cost). Edits far from both paths: with 64 none re-plans.
  for (const int edits : {64, 65}) {
    Simulation sim(two_rooms());
    sim.add_agent(small, {2.5, 1.5}, {8.5, 1.5});
    sim.add_agent(small, {12.5, 1.5}, {18.5, 1.5});
    sim.plan_pending();
    sim.step(dt);
    for (int i = 0; i < edits; ++i) sim.edit_map()->set_cost_multiplier(1 + i % 9, 6, 1.0 + (i + 1) * 0.01);
    sim.step(dt);
    EXPECT_EQ(sim.stats().edit_replans, edits == 64 ? 0u : 2u) << edits << " edits";
  }
}

TEST(LiveSimulation, StatusNamesAreDistinct) {
  EXPECT_EQ(to_string(AgentStatus::planning), "planning");
  EXPECT_EQ(to_string(AgentStatus::unreachable), "unreachable");
  EXPECT_EQ(to_string(AgentStatus::removed), "removed");
  EXPECT_NE(to_string(AgentStatus::stuck), to_string(AgentStatus::stopped));
}

// ---- Every agent's state ends, with a reason (issue 41) ------------------------------------

/// Calls plan_pending() as a host's warm-up loop would, at most `rounds` times; returns how
/// many agents still wait after the last.
std::size_t warm_up(Simulation& sim, int rounds) {
  std::size_t waiting = sim.plan_pending();
  for (int i = 1; i < rounds && waiting > 0; ++i) waiting = sim.plan_pending();
  return waiting;
}

// A block over the whole map, or a collider over all of it, leaves an agent no free cell: the
// path service refuses it, and it is unreachable at once (it once waited for a path forever,
// and `waymark simulate`'s warm-up with it). An edit that opens a cell lets it try again.
TEST(LiveSimulation, AnAgentWithNoFreeCellIsUnreachableAtOnce) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  sim.edit_map()->set_passable(CellRect{0, 0, 21, 11}, false);
  EXPECT_EQ(warm_up(sim, 50), 0u);
  EXPECT_EQ(sim.status(a), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(a), AgentReason::start_closed);
  EXPECT_EQ(sim.stats().refused_plans, 1u);
  EXPECT_EQ(sim.stats().failed_plans, 0u);  // no search ran
  EXPECT_TRUE(sim.settled());
  for (int i = 0; i < 20; ++i) sim.step(dt);
  EXPECT_EQ(sim.stats().refused_plans, 1u);  // it does not ask again by itself
  sim.edit_map()->set_passable(CellRect{1, 1, 20, 7}, true);
  sim.edit_map()->set_passable(CellRect{10, 1, 11, 4}, false);
  run_until_arrived(sim, 2000);
  EXPECT_TRUE(sim.arrived(a));
  EXPECT_EQ(sim.reason(a), AgentReason::none);

  Simulation covered(two_rooms());
  const AgentId b = covered.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  covered.add_obstacle(Circle{{10.5, 5.5}, 40});
  EXPECT_EQ(warm_up(covered, 50), 0u);
  EXPECT_EQ(covered.status(b), AgentStatus::unreachable);
  EXPECT_EQ(covered.reason(b), AgentReason::start_closed);
}

// A start or goal off the map: unreachable at once, saying which end (both once waited for a
// path forever). A goal on the map again plans.
TEST(LiveSimulation, StartsAndGoalsOffTheMapAreUnreachableAtOnce) {
  Simulation sim(two_rooms());
  const AgentId off_start = sim.add_agent(small, {-5, 3.5}, {4.5, 3.5});
  const AgentId off_goal = sim.add_agent(small, {2.5, 2.5}, {50.5, 3.5});
  const AgentId later = sim.add_agent(small, {2.5, 5.5}, {6.5, 5.5});
  EXPECT_EQ(warm_up(sim, 50), 0u);
  EXPECT_EQ(sim.status(off_start), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(off_start), AgentReason::start_outside);
  EXPECT_EQ(sim.status(off_goal), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(off_goal), AgentReason::goal_outside);
  EXPECT_EQ(sim.status(later), AgentStatus::moving);
  ASSERT_TRUE(sim.set_goal(later, {6.5, -20}));
  sim.step(dt);
  EXPECT_EQ(sim.status(later), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(later), AgentReason::goal_outside);
  ASSERT_TRUE(sim.set_goal(off_goal, {8.5, 3.5}));
  run_until_arrived(sim, 1000);
  EXPECT_TRUE(sim.arrived(off_goal));
  EXPECT_EQ(sim.status(off_start), AgentStatus::unreachable);
  EXPECT_EQ(sim.stats().refused_plans, 3u);
}

// A goal in a closed cell: unreachable at once (the search refuses the blocked goal without
// expanding anything), with the reason; an edit that opens the cell lets it arrive.
TEST(LiveSimulation, AGoalInAClosedCellIsUnreachableUntilTheCellOpens) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {8.5, 2.5});
  const ColliderId crate = sim.add_obstacle(Box{{8.1, 2.1}, {8.9, 2.9}});
  sim.plan_pending();
  EXPECT_EQ(sim.status(a), AgentStatus::unreachable);
  EXPECT_EQ(sim.reason(a), AgentReason::goal_closed);
  ASSERT_TRUE(sim.remove_obstacle(crate));
  run_until_arrived(sim, 1000);
  EXPECT_TRUE(sim.arrived(a));
  // A goal no way leads to: no_path.
  GridMap walled = two_rooms();
  walled.set_passable(CellRect::cell(10, 4), false);
  walled.set_passable(CellRect::cell(13, 7), false);
  Simulation apart(std::move(walled));
  const AgentId b = apart.add_agent(small, {2.5, 4.5}, {18.5, 4.5});
  apart.plan_pending();
  EXPECT_EQ(apart.status(b), AgentStatus::unreachable);
  EXPECT_EQ(apart.reason(b), AgentReason::no_path);
}

// A warp into a solid — a wall, a collider's closed cells, a cell an edit closed this frame,
// a small collider that closes no cell — puts the agent at the nearest free cell's centre, as
// an edit closing its cell would (it once stayed inside, colliding every tick). Off the map,
// or with no free cell, the warp is refused and nothing changes.
TEST(LiveSimulation, AWarpIntoASolidPutsTheAgentAtTheNearestFreeCell) {
  Simulation sim(two_rooms());
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 1.5});
  sim.add_obstacle(Box{{14.1, 2.1}, {16.9, 4.9}});   // closes cells 14-16 × 2-4
  sim.add_obstacle(Circle{{5.0, 2.0}, 0.2});          // closes no cell centre
  sim.plan_pending();
  sim.step(dt);
  const auto solid = [&](Vec2 p) { return !(sim.obstacles().clearance(p, 1.0, sim.params(a).avoid_mask) > 0); };
  std::uint64_t pushed = 0;
  for (const Vec2 into : {Vec2{10.5, 2.5}, Vec2{15.5, 3.5}, Vec2{5.0, 2.0}, Vec2{7.5, 5.5}}) {
    if (into == Vec2{7.5, 5.5}) sim.edit_map()->set_passable(CellRect{6, 4, 9, 7}, false);  // closed this frame
    ASSERT_TRUE(sim.warp(a, into)) << into.x << ", " << into.y;
    EXPECT_EQ(sim.stats().pushed_out, ++pushed);
    EXPECT_FALSE(in_blocked_cell(sim, sim.position(a))) << into.x << ", " << into.y;
    EXPECT_FALSE(solid(sim.position(a))) << into.x << ", " << into.y;
    EXPECT_LT(distance(sim.position(a), into), 2.5);  // a free cell near it, not anywhere
    sim.step(dt);
  }
  ASSERT_TRUE(sim.warp(a, {3.5, 3.5}));  // a free place: no push
  EXPECT_EQ(sim.position(a), (Vec2{3.5, 3.5}));
  EXPECT_EQ(sim.stats().pushed_out, pushed);
  EXPECT_FALSE(sim.warp(a, {-3.5, 3.5}));  // off the map: refused
  EXPECT_EQ(sim.position(a), (Vec2{3.5, 3.5}));
  const std::uint64_t collisions = sim.stats().collisions;
  run_until_arrived(sim, 2000);
  EXPECT_TRUE(sim.arrived(a));
  EXPECT_EQ(sim.stats().collisions, collisions);

  sim.edit_map()->set_passable(CellRect{0, 0, 21, 11}, false);
  EXPECT_FALSE(sim.warp(a, {3.5, 3.5}));  // no free cell anywhere: refused
  EXPECT_EQ(sim.stats().pushed_out, pushed);
}

// With plan_around_obstacles off a collider closes no cell: a warp into it goes to the nearest
// cell whose centre it does not cover (it once went to its own cell's centre, inside the box).
TEST(LiveSimulation, AWarpIntoAColliderThatClosesNoCellLeavesIt) {
  Simulation sim(two_rooms(), SimulationParams{}, GridWorldParams{.plan_around_obstacles = false});
  const AgentId a = sim.add_agent(small, {2.5, 4.5}, {18.5, 1.5});
  sim.add_obstacle(Box{{14.1, 2.1}, {16.9, 4.9}});
  sim.plan_pending();
  sim.step(dt);
  ASSERT_TRUE(sim.warp(a, {15.5, 3.5}));
  EXPECT_EQ(sim.stats().pushed_out, 1u);
  EXPECT_GT(sim.obstacles().clearance(sim.position(a), 1.0, sim.params(a).avoid_mask), 0);
  EXPECT_LT(distance(sim.position(a), Vec2{15.5, 3.5}), 2.5);
}

// Two agents sent to one goal: one arrives on it, the other stops within crowded_stop_distance
// and reports arrived for the reason crowded_goal (it once circled the first for ever,
// "moving"). With the stopping distance off, the stuck rule ends it: no progress toward the
// goal through stuck_replans re-plans, stuck for the reason no_progress.
TEST(LiveSimulation, TwoAgentsSentToOneGoalBothEndWithAReason) {
  const Vec2 goal{5.5, 3.5};
  for (const double stop : {1.5, 0.0}) {
    SimulationParams params;
    params.crowded_stop_distance = stop;
    Simulation sim(two_rooms(), params);
    const AgentId a = sim.add_agent(small, {1.5, 1.5}, goal);
    const AgentId b = sim.add_agent(small, {8.5, 5.5}, goal);
    sim.plan_pending();
    // stuck_time · (stuck_replans + 1) = 12 s without progress, and the walk there: 400 ticks.
    while (sim.stats().ticks < 600 && !(sim.settled() || sim.status(a) == AgentStatus::stuck || sim.status(b) == AgentStatus::stuck))
      sim.step(dt);
    const AgentId first = sim.reason(a) == AgentReason::none ? a : b, second = first == a ? b : a;
    EXPECT_EQ(sim.status(first), AgentStatus::arrived) << "stop " << stop;
    EXPECT_EQ(sim.reason(first), AgentReason::none);
    if (stop > 0) {
      EXPECT_EQ(sim.status(second), AgentStatus::arrived);
      EXPECT_EQ(sim.reason(second), AgentReason::crowded_goal);
      EXPECT_LE(distance(sim.position(second), goal), stop);
      EXPECT_TRUE(sim.all_arrived());
      // It brakes (from its speed when the crowd held it back) and stands.
      for (int i = 0; i < 20; ++i) sim.step(dt);
      const Vec2 at = sim.position(second);
      for (int i = 0; i < 100; ++i) sim.step(dt);
      EXPECT_LT(distance(sim.position(second), at), 0.05);
      EXPECT_EQ(sim.status(second), AgentStatus::arrived);
    } else {
      EXPECT_EQ(sim.status(second), AgentStatus::stuck);
      EXPECT_EQ(sim.reason(second), AgentReason::no_progress);
      EXPECT_EQ(sim.stats().replans, params.stuck_replans);
    }
    EXPECT_EQ(sim.stats().collisions, 0u);
    // A new goal clears the reason.
    ASSERT_TRUE(sim.set_goal(second, {2.5, 5.5}));
    EXPECT_EQ(sim.reason(second), AgentReason::none);
    run_until_arrived(sim, sim.stats().ticks + 400);
    EXPECT_EQ(sim.status(second), AgentStatus::arrived);
    EXPECT_EQ(sim.reason(second), AgentReason::none);
  }
  EXPECT_FALSE(SimulationParams{.crowded_stop_distance = -1}.valid());
  EXPECT_FALSE(SimulationParams{.crowded_stop_distance = std::numeric_limits<double>::infinity()}.valid());
}

// The bound on arrival: the longest remaining path over its agent's top speed; none while an
// agent waits, is unreachable or loops forever.
TEST(LiveSimulation, ArrivalTimeBoundIsTheLongestRemainingPathAtTopSpeed) {
  Simulation sim(two_rooms());
  EXPECT_EQ(sim.arrival_time_bound(), 0.0);  // nobody to wait for
  const AgentId a = sim.add_agent(small, {2.5, 2.5}, {8.5, 2.5});  // 6 units, straight
  EXPECT_FALSE(sim.arrival_time_bound().has_value());               // not planned yet
  sim.plan_pending();
  ASSERT_TRUE(sim.arrival_time_bound().has_value());
  EXPECT_NEAR(*sim.arrival_time_bound(), 6.0 / small.max_speed, 1e-9);
  const std::vector<Vec2> lap{{12.5, 2.5}, {16.5, 2.5}};
  sim.add_follower(small, {12.5, 5.5}, lap, true, 2);  // 3 + 4, then back 4 and on 4 again
  EXPECT_NEAR(*sim.arrival_time_bound(), 15.0 / small.max_speed, 1e-9);
  sim.add_follower(small, {12.5, 6.5}, lap, true);  // forever
  EXPECT_FALSE(sim.arrival_time_bound().has_value());
  EXPECT_FALSE(sim.settled());
  sim.remove_agent(id(2));
  sim.set_goal(a, {50, 2.5});
  sim.step(dt);
  EXPECT_FALSE(sim.arrival_time_bound().has_value());  // unreachable
}

// Limits in messages are spelt shortest (number_text: "1000000000"), never std::to_string's
// "1000000000.000000".
TEST(LiveSimulation, RefusalsSpellTheirLimitsShortest) {
  Simulation sim(two_rooms());
  const auto message = [&](auto&& call) {
    try {
      call();
    } catch (const BuildError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string far = message([&] { sim.add_agent(small, {2e9, 1.5}, {2.5, 1.5}); });
  EXPECT_NE(far.find("within +-1000000000"), std::string::npos) << far;
  const std::vector<Vec2> beyond{{2.5, 3e9}};
  const std::string waypoint = message([&] { sim.add_follower(small, {2.5, 1.5}, beyond, false); });
  EXPECT_NE(waypoint.find("within +-1000000000"), std::string::npos) << waypoint;
  EXPECT_EQ(far.find(".000000"), std::string::npos) << far;
}

TEST(LiveSimulation, ReasonNamesAreDistinct) {
  EXPECT_EQ(to_string(AgentReason::none), "none");
  EXPECT_EQ(to_string(AgentReason::start_closed), "start_closed");
  EXPECT_EQ(to_string(AgentReason::crowded_goal), "crowded_goal");
  EXPECT_EQ(to_string(AgentReason::no_progress), "no_progress");
  EXPECT_EQ(to_string(PlanFailure::goal_outside), "goal_outside");
  EXPECT_NE(to_string(AgentReason::start_outside), to_string(AgentReason::goal_outside));
}

}  // namespace
}  // namespace waymark::steer::live_simulation_test
