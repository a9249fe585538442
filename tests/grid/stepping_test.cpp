// Steppable searches: stepping one expansion at a time gives the one-shot result; cancel,
// partial results and observer hooks.
#include <gtest/gtest.h>

#include <random>

#include "support/random_grid.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/traversal.hpp"

namespace waymark::grid_stepping_test {
using namespace search;
using namespace grid;
using namespace io;
namespace {

template <class Search>
void expect_stepped_equals_one_shot(Search& search, CellId start, CellId goal) {
  const Status once = solve(search, start, goal);
  const Path<CellId> expected = search.path();
  const SearchStats stats = search.stats();

  search.begin(start, goal);
  std::size_t calls = 0;
  Status s = search.status();
  while (s.running()) {
    s = search.step(1);
    ++calls;
    if (s.running()) {
      EXPECT_TRUE(search.path().empty());
    }
  }
  EXPECT_EQ(s, once);
  EXPECT_EQ(search.path().nodes, expected.nodes);
  EXPECT_DOUBLE_EQ(search.path().cost, expected.cost);
  EXPECT_EQ(search.stats().expanded, stats.expanded);
  EXPECT_EQ(search.stats().generated, stats.generated);
  EXPECT_GE(calls, stats.expanded);
}

class Stepping : public ::testing::Test {
 protected:
  GridMap map = load_movingai_map(test::data_dir + "/maps/arena.map");
  GridSpace space{map, DiagonalRule::no_corner_cutting};
  CellId start = map.cell(3, 1);
  CellId goal = map.cell(35, 7);
};

TEST_F(Stepping, OneExpansionAtATimeMatchesOneShot) {
  AStar<GridSpace, OctileHeuristic> astar(space, OctileHeuristic(map));
  expect_stepped_equals_one_shot(astar, start, goal);
  WeightedAStar<GridSpace, OctileHeuristic> wastar(space, OctileHeuristic(map), WeightedAStarPriority{2.0});
  expect_stepped_equals_one_shot(wastar, start, goal);
  Dijkstra<GridSpace> dijkstra(space);
  expect_stepped_equals_one_shot(dijkstra, start, goal);
  GreedyBestFirst<GridSpace, OctileHeuristic> greedy(space, OctileHeuristic(map));
  expect_stepped_equals_one_shot(greedy, start, goal);
  BreadthFirstSearch<GridSpace> bfs(space);
  expect_stepped_equals_one_shot(bfs, start, goal);
  DepthFirstSearch<GridSpace> dfs(space);
  expect_stepped_equals_one_shot(dfs, start, goal);
  IdaStar<GridSpace, OctileHeuristic> ida(space, OctileHeuristic(map));
  expect_stepped_equals_one_shot(ida, start, goal);
}

TEST_F(Stepping, OnRandomGridsToo) {
  std::mt19937 rng(3);
  for (int k = 0; k < 30; ++k) {
    const GridMap m = test::random_grid({20, 20, 0.3, k % 2 == 1}, rng);
    const GridSpace s(m, DiagonalRule::at_most_one_obstacle);
    AStar<GridSpace, OctileHeuristic> astar(s, OctileHeuristic(m));
    expect_stepped_equals_one_shot(astar, test::random_passable(m, rng), test::random_passable(m, rng));
  }
}

TEST_F(Stepping, CancelEndsWithCancelledFlag) {
  AStar<GridSpace, OctileHeuristic> astar(space, OctileHeuristic(map));
  astar.begin(start, goal);
  EXPECT_TRUE(astar.step(5).running());
  astar.cancel();
  const Status s = astar.step(5);
  EXPECT_TRUE(s.failed());
  EXPECT_TRUE(s.has(StatusDetail::cancelled));
  EXPECT_FALSE(s.has(StatusDetail::partial_result));
  EXPECT_TRUE(astar.path().empty());
  // The object is reusable after a cancel.
  astar.begin(start, goal);
  EXPECT_TRUE(astar.step().succeeded());

  IdaStar<GridSpace, OctileHeuristic> ida(space, OctileHeuristic(map));
  ida.begin(start, goal);
  ida.step(3);
  ida.cancel();
  EXPECT_TRUE(ida.step().has(StatusDetail::cancelled));
}

TEST_F(Stepping, PartialResultLeadsTowardUnreachableGoal) {
  GridMap walled(10, 10);
  for (int y = 0; y < 10; ++y) walled.set_passable(7, y, false);
  const GridSpace s(walled, DiagonalRule::no_corner_cutting);
  AStar<GridSpace, OctileHeuristic> astar(s, OctileHeuristic(walled), {}, {}, BestFirstOptions{.partial_result = true});
  astar.begin(walled.cell(0, 0), walled.cell(9, 5));
  const Status st = astar.step();
  EXPECT_TRUE(st.failed());
  EXPECT_TRUE(st.has(StatusDetail::partial_result));
  ASSERT_FALSE(astar.path().empty());
  EXPECT_EQ(astar.path().nodes.back(), walled.cell(6, 5));  // closest reachable cell
  EXPECT_TRUE(test::is_valid_path(s, astar.path(), walled.cell(0, 0), walled.cell(6, 5)));
}

TEST_F(Stepping, ObserverSeesEveryEvent) {
  AStar<GridSpace, OctileHeuristic, CountingObserver> astar(space, OctileHeuristic(map));
  astar.begin(start, goal);
  ASSERT_TRUE(astar.step().succeeded());
  const CountingObserver& o = astar.observer();
  EXPECT_EQ(o.begins, 1u);
  EXPECT_EQ(o.ends, 1u);
  EXPECT_EQ(o.goals, 1u);
  EXPECT_EQ(o.expands, astar.stats().expanded);
  EXPECT_EQ(o.closes, astar.stats().expanded);
  EXPECT_GE(o.opens, o.expands);

  BestFirstSearch<GridSpace, OctileHeuristic, AStarPriority, RecordingObserver<CellId>> rec(space, OctileHeuristic(map));
  rec.begin(start, goal);
  rec.step();
  ASSERT_EQ(rec.observer().expanded.size(), rec.stats().expanded);
  EXPECT_EQ(rec.observer().expanded.front(), start);
}

TEST_F(Stepping, StatsAreFilledIn) {
  AStar<GridSpace, OctileHeuristic> astar(space, OctileHeuristic(map));
  EXPECT_EQ(astar.status().state, SearchState::not_started);
  astar.begin(start, goal);
  EXPECT_TRUE(astar.status().running());
  astar.step();
  EXPECT_GT(astar.stats().expanded, 0u);
  EXPECT_GE(astar.stats().generated, astar.stats().expanded);
  EXPECT_GT(astar.stats().max_open_size, 0u);
  EXPECT_GT(astar.stats().time_s, 0.0);
  EXPECT_EQ(astar.stats().reopened, 0u);  // octile is consistent
  EXPECT_DOUBLE_EQ(astar.g_of(goal), astar.path().cost);
}

}  // namespace
}  // namespace waymark::grid_stepping_test

namespace waymark::grid_stepping_test {
using namespace search;
using namespace grid;
using namespace io;
namespace {

TEST(UserHeuristic, AnyCallableWorks) {
  const GridMap map = load_movingai_map(test::data_dir + "/maps/arena.map");
  const GridSpace space(map, DiagonalRule::no_corner_cutting);
  // A user functor: a lambda computing half the octile distance (admissible, weaker).
  const auto half_octile = [&map](CellId a, CellId b) {
    const CellCoord p = map.coord(a), q = map.coord(b);
    return 0.5 * OctileMetric::distance(std::abs(p.x - q.x), std::abs(p.y - q.y));
  };
  AStar<GridSpace, decltype(half_octile)> weak(space, half_octile);
  AStar<GridSpace, OctileHeuristic> strong(space, OctileHeuristic(map));
  weak.begin(map.cell(3, 1), map.cell(35, 7));
  strong.begin(map.cell(3, 1), map.cell(35, 7));
  ASSERT_TRUE(weak.step().succeeded());
  ASSERT_TRUE(strong.step().succeeded());
  EXPECT_NEAR(weak.path().cost, strong.path().cost, 1e-9);
  EXPECT_GT(weak.stats().expanded, strong.stats().expanded);
}

}  // namespace
}  // namespace waymark::grid_stepping_test
