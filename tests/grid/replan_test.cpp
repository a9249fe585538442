// Dynamic re-planning: D* Lite against a reference Dijkstra on random maps edited while the
// agent walks, for every diagonal rule; and the Replanner in the scenarios (a door
// closes, a corridor opens, the goal walks away, the way is cut and reopened), simulated tick
// by tick with both strategies: every step legal when taken, every walk ending at the goal,
// and after every edit the re-planned cost equal to a fresh A* on the edited map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "support/cell_blob.hpp"
#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/replanner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_replan_test {
using namespace grid;
namespace {

const std::vector<DiagonalRule> every_rule{DiagonalRule::never, DiagonalRule::always,
                                           DiagonalRule::at_most_one_obstacle, DiagonalRule::no_corner_cutting};
const std::vector<ReplanStrategy> both_strategies{ReplanStrategy::incremental, ReplanStrategy::from_scratch};

::testing::AssertionResult same_cost(Cost a, Cost b) {
  if (a == b || std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " != " << b;
}

/// Shortest cost on the map as it is now, by a planner made afresh on a copy of it (A*).
Cost fresh_astar(const GridMap& map, DiagonalRule rule, CellId from, CellId to) {
  const GridMap copy = map;
  GridPlanner planner(copy, {.algorithm = Algorithm::astar, .diagonal = rule});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  return planner_search.run(from, to).succeeded() ? planner_search.path().cost : infinite_cost;
}

/// A move from `a` to `b` the rule allows on the map as it is now.
::testing::AssertionResult legal_step(const GridMap& map, DiagonalRule rule, CellId a, CellId b) {
  const GridSpace space(map, rule);
  bool found = false;
  space.for_each_successor(a, [&](CellId n, Cost) { found = found || n == b; });
  if (!map.passable(a) || !found) {
    const CellCoord p = map.coord(a), q = map.coord(b);
    return ::testing::AssertionFailure() << "illegal step (" << p.x << "," << p.y << ") -> (" << q.x << "," << q.y
                                         << ") under " << to_string(rule);
  }
  return ::testing::AssertionSuccess();
}

// ---- D* Lite alone -------------------------------------------------------------------------

/// One random edit anywhere: single cells and small rects blocked or freed, terrain
/// multipliers, zones added and removed.
void random_edit(GridMap& map, std::mt19937& rng, std::vector<ZoneId>& zones) {
  std::uniform_int_distribution<int> x(0, map.width() - 1), y(0, map.height() - 1), kind(0, 6);
  switch (kind(rng)) {
    case 0:
    case 1: map.set_passable(x(rng), y(rng), rng() % 2 == 0); break;
    case 2: {
      const int x0 = x(rng), y0 = y(rng);
      map.set_passable(CellRect{x0, y0, x0 + 1 + static_cast<int>(rng() % 3), y0 + 1 + static_cast<int>(rng() % 3)},
                       rng() % 2 == 0);
      break;
    }
    case 3:
    case 4: map.set_cost_multiplier(x(rng), y(rng), 0.5 + static_cast<double>(rng() % 6)); break;
    case 5:
      zones.push_back(map.add_zone(CostZone::circle(map.cell_center(CellCoord{x(rng), y(rng)}),
                                                    1.0 + static_cast<double>(rng() % 3),
                                                    static_cast<double>(rng() % 5) - 1.5)));
      break;
    default:
      if (!zones.empty()) {
        map.remove_zone(zones.back());
        zones.pop_back();
      }
  }
}

/// After replan(): the status and cost a reference Dijkstra gives on the map as it is, and a
/// valid path.
void expect_matches_reference(const DStarLite& d, const GridMap& map, DiagonalRule rule, CellId agent, CellId goal,
                              Status status) {
  if (!map.passable(goal)) {  // checked first, as the engine does
    EXPECT_EQ(status.reason(), FailureReason::goal_blocked);
    return;
  }
  if (!map.passable(agent)) {
    EXPECT_EQ(status.reason(), FailureReason::start_blocked);
    return;
  }
  const GridSpace space(map, rule);
  const Cost truth = test::reference_distances(space, agent)[goal.value];
  if (truth == infinite_cost) {
    EXPECT_EQ(status.reason(), FailureReason::unreachable);
    EXPECT_TRUE(d.path().empty());
    return;
  }
  ASSERT_TRUE(status.succeeded()) << describe(status);
  EXPECT_TRUE(same_cost(d.path().cost, truth));
  EXPECT_TRUE(test::is_valid_path(space, d.path(), agent, goal));
}

TEST(DStarLite, MatchesDijkstraAfterEveryEditAsTheAgentWalksForEveryRule) {
  // Six seeds (half on terrain) per rule in release, two under ASan (support/sanitized.hpp).
  constexpr unsigned seeds = test::full_or_sanitized(6u, 2u);
  std::uint64_t repaired = 0;
  for (const DiagonalRule rule : every_rule) {
    SCOPED_TRACE(to_string(rule));
    for (unsigned seed = 0; seed < seeds; ++seed) {
      SCOPED_TRACE(seed);
      std::mt19937 rng(1000 + 17 * seed + static_cast<unsigned>(rule));
      GridMap map = test::random_grid({44, 32, 0.22, seed % 2 == 1}, rng);
      std::vector<ZoneId> zones;
      CellId agent = test::random_passable(map, rng);
      const CellId goal = test::random_passable(map, rng);
      DStarLite d(map, {.diagonal = rule});
      expect_matches_reference(d, map, rule, agent, goal, d.plan(agent, goal));
      for (int round = 0; round < 40; ++round) {
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) random_edit(map, rng, zones);
        // The agent walks up to six steps of the current path, each legal when taken.
        if (d.status().succeeded()) {
          const auto& cells = d.path().nodes;
          const std::size_t steps = std::min<std::size_t>(cells.size() - 1, rng() % 7);
          for (std::size_t i = 1; i <= steps; ++i) {
            if (!map.passable(cells[i]) || !legal_step(map, rule, agent, cells[i])) break;  // edited away: stop
            agent = cells[i];
          }
          d.move_start(agent);
        }
        const Status s = d.replan();
        ASSERT_NO_FATAL_FAILURE(expect_matches_reference(d, map, rule, agent, goal, s));
        ++repaired;
      }
    }
  }
  EXPECT_EQ(repaired, 4u * seeds * 40u);
}


TEST(DStarLite, BlobsBlockedAndReopenedOnAMovingAiMapAfterAWalk) {
  // What the benchmark does, checked: the agent walks its path re-planning at every step, then
  // blobs of 1, 10 and 100 cells are walled up across its path (near it, midway, near the
  // goal) and opened again; every answer is a fresh A*'s, and the invariants hold throughout.
  GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const io::Scenario scen = io::load_movingai_scenario(test::data_dir + "/maps/arena.map.scen");
  const DiagonalRule rule = DiagonalRule::no_corner_cutting;
  int checked = 0;
  for (std::size_t q = scen.queries.size() - 8; q < scen.queries.size(); ++q) {
    const CellId start = map.cell(scen.queries[q].start.x, scen.queries[q].start.y);
    const CellId goal = map.cell(scen.queries[q].goal.x, scen.queries[q].goal.y);
    DStarLite d(map, {.diagonal = rule});
    ASSERT_TRUE(d.plan(start, goal).succeeded());
    EXPECT_TRUE(scen.queries[q].matches_optimal(d.path().cost));
    CellId agent = start;
    for (int step = 0; step < 10 && d.path().nodes.size() > 1; ++step) {
      agent = d.path().nodes[1];
      d.move_start(agent);
      ASSERT_TRUE(d.replan().succeeded());
      EXPECT_EQ(d.invariant_violations(), 0u);
    }
    for (const int k : {1, 10, 100}) {
      for (const double at : {0.15, 0.5, 0.9}) {
        SCOPED_TRACE("query " + std::to_string(q) + " k " + std::to_string(k) + " at " + std::to_string(at));
        const std::vector<CellId>& path = d.path().nodes;
        ASSERT_FALSE(path.empty());
        const CellCoord centre = map.coord(path[static_cast<std::size_t>(at * static_cast<double>(path.size() - 1))]);
        const std::vector<CellCoord> cells = test::blob(map, centre, k, agent, goal);
        for (const bool open : {false, true}) {
          for (const CellCoord c : cells) map.set_passable(c.x, c.y, open);
          const Status s = d.replan();
          EXPECT_EQ(d.invariant_violations(), 0u);
          const Cost truth = fresh_astar(map, rule, agent, goal);
          if (truth == infinite_cost) {
            EXPECT_EQ(s.reason(), FailureReason::unreachable);
          } else {
            ASSERT_TRUE(s.succeeded()) << describe(s);
            EXPECT_TRUE(same_cost(d.path().cost, truth));
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 8 * 3 * 3 * 2);
}

TEST(DStarLite, BlockedAndUnblockedEndsAndRecovery) {
  GridMap map(20, 9);
  map.set_passable(CellRect{10, 0, 11, 9}, false);  // a wall across the map...
  map.set_passable(10, 4, true);                    // ...with one door
  const CellId agent = map.cell(2, 4), goal = map.cell(17, 4);
  DStarLite d(map, {.diagonal = DiagonalRule::no_corner_cutting});
  ASSERT_TRUE(d.plan(agent, goal).succeeded());
  EXPECT_TRUE(same_cost(d.path().cost, 15.0));

  map.set_passable(10, 4, false);  // the door shuts: nothing left to find
  EXPECT_TRUE(d.stale());
  Status s = d.replan();
  EXPECT_EQ(s.reason(), FailureReason::unreachable);
  EXPECT_TRUE(d.path().empty());
  EXPECT_EQ(d.replan().reason(), FailureReason::unreachable);  // nothing changed: still so, cheaply
  EXPECT_EQ(d.stats().expanded, 0u);

  map.set_passable(10, 7, true);  // another door opens
  s = d.replan();
  ASSERT_TRUE(s.succeeded());
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::no_corner_cutting, agent, goal)));

  map.set_passable(17, 4, false);  // the goal walled in
  EXPECT_EQ(d.replan().reason(), FailureReason::goal_blocked);
  map.set_passable(17, 4, true);
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::no_corner_cutting, agent, goal)));

  map.set_passable(2, 4, false);  // the agent's own cell
  EXPECT_EQ(d.replan().reason(), FailureReason::start_blocked);
  map.set_passable(2, 4, true);
  EXPECT_TRUE(d.replan().succeeded());

  EXPECT_EQ(d.plan(agent, CellId{static_cast<std::uint32_t>(map.cell_count())}).reason(), FailureReason::out_of_bounds);
  DStarLite fresh(map);
  EXPECT_EQ(fresh.replan().reason(), FailureReason::invalid_query);  // nothing planned yet
}

TEST(DStarLite, StartEqualsGoalAndOneCellMaps) {
  GridMap one(1, 1);
  DStarLite d(one);
  ASSERT_TRUE(d.plan(one.cell(0, 0), one.cell(0, 0)).succeeded());
  EXPECT_EQ(d.path().nodes.size(), 1u);
  EXPECT_EQ(d.path().cost, 0.0);
  GridMap row(7, 1);
  DStarLite r(row, {.diagonal = DiagonalRule::always});
  ASSERT_TRUE(r.plan(row.cell(0, 0), row.cell(6, 0)).succeeded());
  EXPECT_TRUE(same_cost(r.path().cost, 6.0));
  row.set_passable(3, 0, false);
  EXPECT_EQ(r.replan().reason(), FailureReason::unreachable);
}

TEST(DStarLite, EditsAwayFromTheSearchCostNoExpansions) {
  // An edit that changes no distance the search used leaves nothing to repair: no expansion,
  // where a fresh search repeats all its work. Not a timing: a count of expansions.
  GridMap map(120, 40);
  const CellId agent = map.cell(5, 20), goal = map.cell(114, 20);
  DStarLite d(map, {.diagonal = DiagonalRule::no_corner_cutting});
  ASSERT_TRUE(d.plan(agent, goal).succeeded());
  EXPECT_GE(d.stats().expanded, 109u);
  map.set_passable(CellRect{50, 0, 52, 3}, false);
  map.set_cost_multiplier(80, 38, 4.0);
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_EQ(d.stats().expanded, 0u);
  EXPECT_TRUE(same_cost(d.path().cost, 109.0));
  // A wall across the straight line costs a detour: repaired, and the same as a fresh search.
  map.set_passable(CellRect{7, 17, 8, 24}, false);
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_GT(d.stats().expanded, 0u);
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::no_corner_cutting, agent, goal)));
  EXPECT_EQ(d.restarts(), 0u);
}

TEST(DStarLite, LargeEditsAndALoweredScaleStartOver) {
  GridMap map(30, 30);
  const CellId agent = map.cell(1, 1), goal = map.cell(28, 28);
  DStarLite d(map, {.diagonal = DiagonalRule::always, .restart_area_fraction = 0.25});
  ASSERT_TRUE(d.plan(agent, goal).succeeded());
  map.set_passable(CellRect{0, 10, 20, 30}, false);  // 2/3 of the map: cheaper to start over
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_EQ(d.restarts(), 1u);
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::always, agent, goal)));
  map.set_cost_multiplier(25, 5, 0.25);  // below every multiplier so far: the heuristic must shrink
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_EQ(d.restarts(), 2u);
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::always, agent, goal)));
  map.set_cost_multiplier(25, 5, 3.0);  // raising it keeps the smaller, still admissible scale
  ASSERT_TRUE(d.replan().succeeded());
  EXPECT_EQ(d.restarts(), 2u);
  EXPECT_TRUE(same_cost(d.path().cost, fresh_astar(map, DiagonalRule::always, agent, goal)));
}

// ---- the Replanner, tick by tick -------------------------------------------------------------

struct Walk {
  int ticks = 0;
  int steps = 0;
  std::vector<ReplanReason> reasons;  ///< every re-plan's reason, in order
  bool reached = false;               ///< at the goal when the world had gone quiet
};

/// Runs the world: each tick `world(tick)` edits the map or moves the goal, then update(), then
/// the agent takes one step of the path, which must be legal on the map as it is then. Every
/// re-plan (after an edit, a goal move, anything) must have the cost of a fresh A* on the map
/// as it is. Stops when the agent stands on the goal after tick `quiet_after` (the world's
/// last event), or after `max_ticks`.
Walk simulate(GridMap& map, Replanner& r, CellId agent, CellId goal, const std::function<void(int, Replanner&)>& world,
              int quiet_after, int max_ticks) {
  Walk w;
  const DiagonalRule rule = r.options().diagonal;
  EXPECT_TRUE(r.start(agent, goal).succeeded());
  EXPECT_TRUE(same_cost(r.cost(), fresh_astar(map, rule, agent, goal)));
  for (int tick = 0; tick < max_ticks; ++tick) {
    w.ticks = tick + 1;
    world(tick, r);
    const ReplanUpdate u = r.update(1.0);
    if (u.replanned) {
      w.reasons.push_back(u.reason);
      if (u.status.succeeded() && r.planned_goal() == r.goal()) {
        EXPECT_TRUE(same_cost(r.cost(), fresh_astar(map, rule, r.agent(), r.goal())))
            << "tick " << tick << " " << to_string(u.reason);
      }
    }
    if (u.status.succeeded()) {
      const std::span<const CellId> path = r.path();
      EXPECT_FALSE(path.empty());
      EXPECT_EQ(path.front(), r.agent());
      if (path.size() >= 2) {
        EXPECT_TRUE(legal_step(map, rule, r.agent(), path[1])) << "tick " << tick;
        r.advance_to(path[1]);
        ++w.steps;
      }
    }
    if (tick > quiet_after && r.agent() == r.goal()) {
      w.reached = true;
      break;
    }
  }
  return w;
}

/// 31 × 15 with a wall at x = 15 and doors at y = 3 (near the straight line) and y = 12.
GridMap two_door_map(bool near_door_open) {
  GridMap map(31, 15);
  map.set_passable(CellRect{15, 0, 16, 15}, false);
  map.set_passable(15, 12, true);
  if (near_door_open) map.set_passable(15, 3, true);
  return map;
}

TEST(Replanner, ADoorClosesInFrontOfTheAgent) {
  for (const ReplanStrategy strategy : both_strategies) {
    for (const DiagonalRule rule : every_rule) {
      SCOPED_TRACE(std::string(to_string(strategy)) + " " + std::string(to_string(rule)));
      GridMap map = two_door_map(true);
      Replanner r(map, {.strategy = strategy, .diagonal = rule, .replan_on_any_edit = false});
      const Walk w = simulate(map, r, map.cell(2, 3), map.cell(28, 3), [&](int tick, Replanner&) {
        if (tick == 5) map.set_passable(15, 3, false);
      }, 5, 200);
      EXPECT_TRUE(w.reached);
      ASSERT_EQ(w.reasons.size(), 1u);
      EXPECT_EQ(w.reasons[0], ReplanReason::path_blocked);
      EXPECT_GT(w.steps, 26);  // the long way round
    }
  }
}

TEST(Replanner, ACorridorOpens) {
  for (const ReplanStrategy strategy : both_strategies) {
    for (const bool any_edit : {true, false}) {
      SCOPED_TRACE(std::string(to_string(strategy)) + (any_edit ? " any edit" : " path edits"));
      GridMap map = two_door_map(false);
      Replanner r(map, {.strategy = strategy, .replan_on_any_edit = any_edit});
      const CellId start = map.cell(2, 3), goal = map.cell(28, 3);
      GridPlanner around(map);
      search::SearchHandle<CellId> around_search = around.make_search();
      ASSERT_TRUE(around_search.run(start, goal).succeeded());
      const std::size_t around_steps = around_search.path().steps();
      const Walk w = simulate(map, r, start, goal, [&](int tick, Replanner&) {
        if (tick == 3) map.set_passable(15, 3, true);
      }, 3, 200);
      EXPECT_TRUE(w.reached);
      if (any_edit) {
        ASSERT_EQ(w.reasons.size(), 1u);
        EXPECT_EQ(w.reasons[0], ReplanReason::map_edited);
        EXPECT_EQ(w.steps, 26);  // straight through the new opening
      } else {
        EXPECT_TRUE(w.reasons.empty());  // the old path stays legal: no re-plan
        EXPECT_EQ(static_cast<std::size_t>(w.steps), around_steps);
      }
    }
  }
}

TEST(Replanner, AnOpeningIsTakenAtTheNextInterval) {
  GridMap map = two_door_map(false);
  Replanner r(map, {.replan_interval_s = 4.0, .replan_on_any_edit = false});
  const Walk w = simulate(map, r, map.cell(2, 3), map.cell(28, 3), [&](int tick, Replanner&) {
    if (tick == 1) map.set_passable(15, 3, true);
  }, 1, 200);
  EXPECT_TRUE(w.reached);
  ASSERT_FALSE(w.reasons.empty());
  EXPECT_EQ(w.reasons[0], ReplanReason::interval);
  EXPECT_EQ(w.steps, 26);  // the interval came before the agent turned away from the opening
}

TEST(Replanner, TheGoalWalksAway) {
  for (const ReplanStrategy strategy : both_strategies) {
    for (const double threshold : {0.0, 3.0}) {
      SCOPED_TRACE(std::string(to_string(strategy)) + " threshold " + std::to_string(threshold));
      GridMap map(40, 20);
      map.set_passable(CellRect{12, 4, 13, 17}, false);  // something to walk around
      Replanner r(map, {.strategy = strategy, .goal_move_threshold = threshold});
      int goal_moves = 0;
      const Walk w = simulate(map, r, map.cell(2, 10), map.cell(20, 10), [&](int tick, Replanner& rp) {
        // The goal steps away every other tick until it reaches x = 36, then waits.
        const CellCoord g = map.coord(rp.goal());
        if (tick % 2 == 0 && g.x < 36) {
          rp.set_goal(map.cell(g.x + 1, g.y + (tick % 4 == 0 ? 1 : 0) - (g.y > 14 ? 1 : 0)));
          ++goal_moves;
        }
      }, 32, 300);
      EXPECT_TRUE(w.reached);
      EXPECT_EQ(goal_moves, 16);
      const auto moved = std::count(w.reasons.begin(), w.reasons.end(), ReplanReason::goal_moved);
      const auto ended = std::count(w.reasons.begin(), w.reasons.end(), ReplanReason::path_ended);
      if (threshold == 0.0) {
        EXPECT_EQ(moved, goal_moves);
      } else {
        EXPECT_LT(moved, goal_moves);  // small moves wait
        EXPECT_GE(moved + ended, 1);
      }
    }
  }
}

TEST(Replanner, TheWayIsCutThenReopened) {
  for (const ReplanStrategy strategy : both_strategies) {
    SCOPED_TRACE(to_string(strategy));
    GridMap map(21, 9);
    map.set_passable(CellRect{10, 0, 11, 9}, false);
    map.set_passable(10, 4, true);
    Replanner r(map, {.strategy = strategy, .replan_on_any_edit = false});
    std::vector<Status> seen;
    const Walk w = simulate(map, r, map.cell(1, 4), map.cell(19, 4), [&](int tick, Replanner& rp) {
      seen.push_back(rp.status());
      if (tick == 3) map.set_passable(10, 4, false);
      if (tick == 9) map.set_passable(10, 4, true);
    }, 9, 100);
    EXPECT_TRUE(w.reached);
    // Failed from the tick after the cut until the tick after the reopening.
    ASSERT_GT(seen.size(), 10u);
    EXPECT_TRUE(seen[3].succeeded());
    for (int t = 4; t <= 9; ++t) {
      EXPECT_TRUE(seen[static_cast<std::size_t>(t)].failed()) << t;
      if (strategy == ReplanStrategy::incremental) {
        EXPECT_EQ(seen[static_cast<std::size_t>(t)].reason(), FailureReason::unreachable);
      }
    }
    EXPECT_TRUE(seen[10].succeeded());
    ASSERT_GE(w.reasons.size(), 2u);
    EXPECT_EQ(w.reasons[0], ReplanReason::path_blocked);
    EXPECT_EQ(w.reasons.back(), ReplanReason::retry);
    EXPECT_TRUE(r.path().size() == 1 && r.agent() == r.goal());
  }
}

TEST(Replanner, ACostOnThePathTriggersAndOffPathEditsDoNot) {
  GridMap map(30, 10);
  Replanner r(map, {.replan_on_any_edit = false});
  ASSERT_TRUE(r.start(map.cell(1, 5), map.cell(28, 5)).succeeded());
  EXPECT_TRUE(same_cost(r.cost(), 27.0));
  map.set_passable(5, 0, false);  // far from the path
  map.set_cost_multiplier(20, 9, 4.0);
  ReplanUpdate u = r.update();
  EXPECT_FALSE(u.replanned);
  map.set_cost_multiplier(14, 5, 6.0);  // on it: swamp
  u = r.update();
  EXPECT_TRUE(u.replanned);
  EXPECT_EQ(u.reason, ReplanReason::path_cost_changed);
  EXPECT_TRUE(same_cost(r.cost(), fresh_astar(map, DiagonalRule::no_corner_cutting, map.cell(1, 5), map.cell(28, 5))));
  // The agent is pushed off its path.
  r.advance_to(map.cell(3, 8));
  u = r.update();
  EXPECT_EQ(u.reason, ReplanReason::left_path);
  EXPECT_EQ(r.path().front(), map.cell(3, 8));
  EXPECT_TRUE(same_cost(r.cost(), fresh_astar(map, DiagonalRule::no_corner_cutting, map.cell(3, 8), map.cell(28, 5))));
  // Walking ahead along the path, even skipping cells, is not leaving it.
  const CellId ahead = r.path()[3];
  r.advance_to(ahead);
  EXPECT_FALSE(r.update().replanned);
  EXPECT_EQ(r.path().front(), ahead);
}

TEST(Replanner, RandomEditsWhileWalkingMatchAFreshSearch) {
  for (const ReplanStrategy strategy : both_strategies) {
    for (const DiagonalRule rule : every_rule) {
      SCOPED_TRACE(std::string(to_string(strategy)) + " " + std::string(to_string(rule)));
      for (unsigned seed = 0; seed < 3; ++seed) {
        std::mt19937 rng(77 + seed * 5 + static_cast<unsigned>(rule));
        GridMap map = test::random_grid({32, 24, 0.2, seed == 1}, rng);
        std::vector<ZoneId> zones;
        const CellId start = test::random_passable(map, rng);
        CellId goal = test::random_passable(map, rng);
        Replanner r(map, {.strategy = strategy, .diagonal = rule});
        simulate(map, r, start, goal, [&](int tick, Replanner& rp) {
          if (tick % 7 == 6) {  // the goal jumps to a neighbour
            const CellCoord g = map.coord(rp.goal());
            const int nx = std::clamp(g.x + static_cast<int>(rng() % 3) - 1, 0, map.width() - 1);
            const int ny = std::clamp(g.y + static_cast<int>(rng() % 3) - 1, 0, map.height() - 1);
            if (map.passable(nx, ny)) rp.set_goal(map.cell(nx, ny));
          }
          if (tick % 2 == 1) return;
          for (int e = 0; e < 3; ++e) {
            random_edit(map, rng, zones);
            // Keep the agent's own cell open: it cannot stand in a wall.
            const CellCoord a = map.coord(rp.agent());
            if (!map.passable(a.x, a.y)) map.set_passable(a.x, a.y, true);
          }
        }, 60, 60);
        EXPECT_GT(r.replans(), 20u);
      }
    }
  }
}

}  // namespace
}  // namespace waymark::grid_replan_test
