// Every grid search against an independent reference Dijkstra on seeded random grids.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
#include "waymark/grid/grid_planner.hpp"

namespace waymark::grid_differential_test {
using namespace search;
using namespace grid;
namespace {

using test::is_valid_path;
using test::reference_distances;

constexpr DiagonalRule all_rules[] = {DiagonalRule::never, DiagonalRule::always,
                                      DiagonalRule::at_most_one_obstacle, DiagonalRule::no_corner_cutting};
constexpr double weight = 1.5;
constexpr double relative_eps = 1e-9;
// IDA* runs one iteration per distinct f value below the optimum, so it is checked on small
// grids with unit terrain only (f = a + b·√2); random real-valued terrain would make it crawl.
constexpr int max_ida_cells = 16 * 16;

struct Case {
  const GridMap* map;
  DiagonalRule rule;
  CellId start;
  CellId goal;
  Cost expected;  ///< infinite when unreachable
};

void expect_matches(GridPlanner& planner, const Case& c, const char* what) {
  const search::SearchResult<CellId> result = planner.plan(c.start, c.goal);
  const Status st = result.status;
  const GridSpace& space = planner.space();
  SCOPED_TRACE(::testing::Message() << what << " rule=" << to_string(c.rule) << " "
                                    << c.map->width() << "x" << c.map->height());
  if (c.expected == infinite_cost) {
    EXPECT_TRUE(st.failed());
    EXPECT_TRUE(result.path.empty());
    return;
  }
  ASSERT_TRUE(st.succeeded());
  ASSERT_TRUE(is_valid_path(space, result.path, c.start, c.goal));
  const Cost found = result.path.cost;
  const Cost eps = relative_eps * std::max(1.0, c.expected);
  switch (planner.options().algorithm) {
    case Algorithm::astar:
    case Algorithm::dijkstra:
    case Algorithm::ida: EXPECT_NEAR(found, c.expected, eps); break;
    case Algorithm::wastar: EXPECT_LE(found, weight * c.expected + eps); break;
    default: EXPECT_GE(found, c.expected - eps); break;
  }
}

TEST(Differential, RandomGridsAllRulesAllSearches) {
  const test::RandomGridSpec specs[] = {
      {1, 1, 0.0, false},   {1, 12, 0.1, false},  {12, 1, 0.1, true},   {8, 8, 0.2, false},
      {8, 8, 0.35, true},   {16, 16, 0.1, false}, {16, 16, 0.3, true},  {16, 16, 0.45, false},
      {32, 32, 0.2, false}, {32, 32, 0.3, true},  {48, 20, 0.25, false}, {64, 64, 0.15, true},
  };
  // 12 specs × 45 = 540 grids, each under all four rules; under ASan 12 × 12 = 144 (every spec,
  // rule and search: support/sanitized.hpp), a quarter of the 14 s this took there.
  constexpr int grids_per_spec = test::full_or_sanitized(45, 12);
  constexpr int queries_per_grid = 3;
  std::mt19937 rng(2026);
  int grids = 0, checked = 0, unreachable = 0;
  for (const auto& spec : specs) {
    for (int k = 0; k < grids_per_spec; ++k, ++grids) {
      const GridMap map = test::random_grid(spec, rng);
      if (map.passable_count() == 0) continue;
      for (const DiagonalRule rule : all_rules) {
        const GridSpace space(map, rule);
        std::vector<std::unique_ptr<GridPlanner>> planners;
        for (Algorithm a : {Algorithm::astar, Algorithm::wastar, Algorithm::dijkstra, Algorithm::greedy,
                            Algorithm::bfs, Algorithm::dfs, Algorithm::ida}) {
          if (a == Algorithm::ida && (spec.terrain || spec.width * spec.height > max_ida_cells)) continue;
          planners.push_back(std::make_unique<GridPlanner>(
              map, GridPlannerOptions{.algorithm = a, .diagonal = rule, .query = {.weight = weight}}));
        }
        for (int q = 0; q < queries_per_grid; ++q) {
          const CellId start = test::random_passable(map, rng);
          const CellId goal = test::random_passable(map, rng);
          const Case c{&map, rule, start, goal, reference_distances(space, start)[goal.value]};
          unreachable += c.expected == infinite_cost ? 1 : 0;
          for (auto& p : planners) expect_matches(*p, c, std::string(to_string(p->options().algorithm)).c_str());
          ++checked;
          if (::testing::Test::HasFailure()) return;  // one clear failure beats thousands
        }
      }
    }
  }
  EXPECT_GE(grids, test::full_or_sanitized(500, 140));
  EXPECT_GT(unreachable, 0) << "the sample should include unreachable goals";
  RecordProperty("queries", checked);
}

TEST(Differential, EveryAdmissibleHeuristicIsOptimal) {
  std::mt19937 rng(7);
  for (int k = 0; k < 60; ++k) {
    const GridMap map = test::random_grid({24, 24, 0.25, k % 2 == 0}, rng);
    for (const DiagonalRule rule : all_rules) {
      const GridSpace space(map, rule);
      const CellId start = test::random_passable(map, rng), goal = test::random_passable(map, rng);
      const Cost expected = reference_distances(space, start)[goal.value];
      for (auto h : {HeuristicKind::manhattan, HeuristicKind::octile, HeuristicKind::euclidean,
                     HeuristicKind::chebyshev, HeuristicKind::zero}) {
        if (!is_admissible(h, rule)) continue;
        GridPlanner planner(map, GridPlannerOptions{.diagonal = rule, .heuristic = h});
        search::SearchHandle<CellId> planner_search = planner.make_search();
        const Status st = planner_search.run(start, goal);
        if (expected == infinite_cost) {
          EXPECT_TRUE(st.failed());
        } else {
          ASSERT_TRUE(st.succeeded());
          EXPECT_NEAR(planner_search.path().cost, expected, relative_eps * expected) << to_string(h);
        }
      }
    }
  }
}

TEST(Differential, BfsStepsEqualDijkstraCostOnUnitFourConnectedGrids) {
  std::mt19937 rng(11);
  for (int k = 0; k < 100; ++k) {
    const GridMap map = test::random_grid({20, 20, 0.3, false}, rng);
    GridPlanner bfs(map, GridPlannerOptions{.algorithm = Algorithm::bfs, .diagonal = DiagonalRule::never});
    search::SearchHandle<CellId> bfs_search = bfs.make_search();
    GridPlanner dijkstra(map, GridPlannerOptions{.algorithm = Algorithm::dijkstra, .diagonal = DiagonalRule::never});
    search::SearchHandle<CellId> dijkstra_search = dijkstra.make_search();
    const CellId start = test::random_passable(map, rng), goal = test::random_passable(map, rng);
    const Status a = bfs_search.run(start, goal);
    const Status b = dijkstra_search.run(start, goal);
    ASSERT_EQ(a.state, b.state);
    if (a.succeeded()) {
      EXPECT_EQ(static_cast<double>(bfs_search.path().steps()), dijkstra_search.path().cost);
    }
  }
}

TEST(EdgeCases, StartEqualsGoalBlockedEndpointsAndWalls) {
  GridMap map(5, 5);
  for (int y = 0; y < 5; ++y) map.set_passable(2, y, false);  // a wall splits the map
  for (Algorithm a : {Algorithm::astar, Algorithm::wastar, Algorithm::dijkstra, Algorithm::greedy,
                      Algorithm::bfs, Algorithm::dfs, Algorithm::ida}) {
    SCOPED_TRACE(to_string(a));
    GridPlanner p(map, GridPlannerOptions{.algorithm = a});
    search::SearchHandle<CellId> p_search = p.make_search();
    ASSERT_TRUE(p_search.run(map.cell(1, 1), map.cell(1, 1)).succeeded());
    EXPECT_EQ(p_search.path().nodes.size(), 1u);
    EXPECT_EQ(p_search.path().cost, 0);
    EXPECT_TRUE(p_search.run(map.cell(0, 0), map.cell(4, 4)).failed());  // unreachable
    EXPECT_TRUE(p_search.path().empty());
    EXPECT_TRUE(p_search.run(map.cell(2, 2), map.cell(0, 0)).failed());  // blocked start
    EXPECT_EQ(p_search.stats().expanded, 0u);
    EXPECT_TRUE(p_search.run(map.cell(0, 0), map.cell(2, 3)).failed());  // blocked goal
    EXPECT_EQ(p_search.stats().expanded, 0u);
  }
}

TEST(EdgeCases, OneByOneAndOneByN) {
  GridMap one(1, 1);
  GridPlanner p1(one, GridPlannerOptions{});
  search::SearchHandle<CellId> p1_search = p1.make_search();
  ASSERT_TRUE(p1_search.run(one.cell(0, 0), one.cell(0, 0)).succeeded());
  GridMap column(1, 9);
  for (Algorithm a : {Algorithm::astar, Algorithm::bfs, Algorithm::ida, Algorithm::dfs}) {
    GridPlanner p(column, GridPlannerOptions{.algorithm = a});
    search::SearchHandle<CellId> p_search = p.make_search();
    ASSERT_TRUE(p_search.run(column.cell(0, 0), column.cell(0, 8)).succeeded());
    EXPECT_EQ(p_search.path().cost, 8);
    EXPECT_EQ(p_search.path().steps(), 8u);
  }
}

}  // namespace
}  // namespace waymark::grid_differential_test
