// D* Lite re-plans spread over frames (issue 30): a re-plan after map edits cut into many small
// budgets (expansions, cells looked at) ends with exactly the path and cost of the same re-plan
// run whole, and that cost is a brute-force Dijkstra's on the edited map; edits and agent moves
// between the calls of an unfinished re-plan are taken in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "support/cell_blob.hpp"
#include "support/random_grid.hpp"
#include "waymark/grid/dstar_lite.hpp"

namespace waymark::grid_budgeted_replan_test {
using namespace grid;
namespace {

using search::Budget;

/// Cost of a shortest path on the map as it is now: the reference Dijkstra, apart from D* Lite.
Cost dijkstra(const GridMap& map, DiagonalRule rule, CellId from, CellId to) {
  const GridSpace space(map, rule);
  return test::reference_distances(space, from)[to.value];
}

::testing::AssertionResult near_cost(Cost a, Cost b) {
  if (a == b || std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " != " << b;
}

/// Calls replan(budget) until the re-plan finishes; every unfinished call leaves no path.
/// Returns the calls it took.
int replan_in_slices(DStarLite& d, const Budget& budget) {
  int calls = 1;
  while (d.replan(budget).running()) {
    EXPECT_TRUE(d.path().nodes.empty());
    ++calls;
    if (calls > 1000000) break;
  }
  return calls;
}

void set_all(GridMap& map, const std::vector<CellCoord>& cells, bool passable) {
  for (const CellCoord c : cells) map.set_passable(c.x, c.y, passable);
}

TEST(BudgetedReplan, ARePlanSplitOverSmallBudgetsEqualsTheWholeOneAndDijkstra) {
  const std::vector<Budget> budgets{Budget::of_expansions(1), Budget::of_expansions(7), Budget::of_scanned(40)};
  int sliced_replans = 0;
  for (const DiagonalRule rule : {DiagonalRule::no_corner_cutting, DiagonalRule::never}) {
    for (std::uint32_t seed = 0; seed < 4; ++seed) {
      SCOPED_TRACE(::testing::Message() << "rule " << to_string(rule) << ", seed " << seed);
      std::mt19937 rng(seed);
      GridMap map = test::random_grid({.width = 80, .height = 60, .obstacle_density = 0.2, .terrain = seed % 2 == 1}, rng);
      const CellId agent = test::random_passable(map, rng), goal = test::random_passable(map, rng);
      for (const Budget& budget : budgets) {
        DStarLite whole(map, {.diagonal = rule});
        DStarLite sliced(map, {.diagonal = rule});
        const Status first = whole.plan(agent, goal);
        Status s = sliced.plan(agent, goal, budget);
        while (s.running()) s = sliced.replan(budget);
        ASSERT_EQ(s.state, first.state);
        if (!first.succeeded()) continue;
        ASSERT_EQ(sliced.path().nodes, whole.path().nodes);
        // Walk a third of the way, then edit around the rest of the path: blocks and reopenings.
        const CellId at = whole.path().nodes[whole.path().nodes.size() / 3];
        whole.move_start(at);
        sliced.move_start(at);
        const CellCoord mid = map.coord(whole.path().nodes[2 * whole.path().nodes.size() / 3]);
        const std::vector<CellCoord> wall = test::blob(map, mid, 12, at, goal);
        set_all(map, wall, false);
        const Status w = whole.replan();
        const int calls = replan_in_slices(sliced, budget);
        ASSERT_EQ(sliced.status().state, w.state);
        EXPECT_EQ(sliced.path().nodes, whole.path().nodes);
        EXPECT_EQ(sliced.path().cost, whole.path().cost);  // the same work: the same sums, bit for bit
        const Cost truth = dijkstra(map, rule, at, goal);
        if (w.succeeded()) {
          EXPECT_TRUE(near_cost(sliced.path().cost, truth));
        } else {
          EXPECT_EQ(truth, infinite_cost);
        }
        EXPECT_EQ(sliced.invariant_violations(), 0u);
        if (whole.stats().expanded > 20) {
          EXPECT_GT(calls, 1);  // it was cut into pieces
          ++sliced_replans;
        }
        set_all(map, wall, true);  // the next budget starts from the same map
      }
    }
  }
  EXPECT_GT(sliced_replans, 6);
}

TEST(BudgetedReplan, EditsAndMovesBetweenTheCallsAreTakenIn) {
  std::mt19937 rng(30);
  GridMap map = test::random_grid({.width = 100, .height = 100, .obstacle_density = 0.15, .terrain = true}, rng);
  const CellId agent = test::random_passable(map, rng), goal = test::random_passable(map, rng);
  DStarLite d(map);
  ASSERT_TRUE(d.plan(agent, goal).succeeded());
  ASSERT_GT(d.path().nodes.size(), 20u);
  int mid_edits = 0;
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    if (!d.status().succeeded()) break;
    const std::vector<CellId>& path = d.path().nodes;
    const CellCoord centre = map.coord(path[path.size() / 2]);
    set_all(map, test::blob(map, centre, 8, d.start(), goal), false);
    // Start the re-plan with a tiny budget; while it runs, the agent steps on and another
    // edit lands (a cell opens somewhere, another closes near the goal).
    const CellId next = path.size() > 1 ? path[1] : path[0];
    Status s = d.replan(Budget::of_expansions(2));
    if (s.running()) {
      ++mid_edits;
      d.move_start(next);
      const CellId far = test::random_passable(map, rng);
      if (far != next && far != goal) map.set_passable(map.coord(far).x, map.coord(far).y, false);
      map.set_cost_multiplier(map.coord(goal).x, map.coord(goal).y, 2.5);
    }
    while (s.running()) s = d.replan(Budget::of_expansions(5));
    const Cost truth = dijkstra(map, DiagonalRule::no_corner_cutting, d.start(), goal);
    if (truth == infinite_cost) {
      EXPECT_TRUE(s.failed());
      break;
    }
    ASSERT_TRUE(s.succeeded());
    EXPECT_TRUE(near_cost(d.path().cost, truth));
    EXPECT_EQ(d.path().nodes.front(), d.start());
    EXPECT_EQ(d.invariant_violations(), 0u);
  }
  EXPECT_GT(mid_edits, 2);
}

}  // namespace
}  // namespace waymark::grid_budgeted_replan_test
