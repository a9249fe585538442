// Grid searches over the sparse node table: the same answers as over the dense table (and the
// Moving AI optimal lengths), memory that grows with what a query reaches, and a page budget
// that fails a query with out_of_nodes.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/paged_node_table.hpp"

namespace waymark::grid_sparse_table_test {
namespace {

using grid::Algorithm;
using search::NodeTableKind;
using Table = search::PagedNodeTable<grid::GridSpace>;

TEST(SparseTable, SameAnswersAsDenseOnMovingAiScenarios) {
  for (const char* name : {"den520d", "Boston_0_256", "arena"}) {
    SCOPED_TRACE(name);
    const std::string base = test::data_dir + "/maps/" + name + ".map";
    const grid::GridMap map = io::load_movingai_map(base);
    const io::Scenario scen = io::load_movingai_scenario(base + ".scen");
    for (const Algorithm algorithm : {Algorithm::astar, Algorithm::wastar, Algorithm::dijkstra, Algorithm::greedy}) {
      SCOPED_TRACE(static_cast<int>(algorithm));
      const grid::GridPlanner planner(map, {.algorithm = algorithm});
      search::SearchHandle<CellId> dense = planner.make_search({});
      search::SearchHandle<CellId> sparse = planner.make_search({.table = NodeTableKind::sparse});
      // A sample: every 12th query (Dijkstra, slower on the large maps: every 40th).
      const std::size_t stride = algorithm == Algorithm::dijkstra ? 40 : 12;
      std::size_t compared = 0;
      for (std::size_t i = 0; i < scen.queries.size(); i += stride) {
        const io::ScenarioQuery& q = scen.queries[i];
        const CellId s = map.cell(q.start.x, q.start.y);
        const CellId g = map.cell(q.goal.x, q.goal.y);
        dense.run(s, g);
        sparse.run(s, g);
        ASSERT_EQ(sparse.status(), dense.status()) << "line " << q.line;
        ASSERT_EQ(sparse.path().nodes, dense.path().nodes) << "line " << q.line;
        ASSERT_EQ(sparse.path().cost, dense.path().cost);
        ASSERT_EQ(sparse.stats().expanded, dense.stats().expanded);
        if (algorithm == Algorithm::astar || algorithm == Algorithm::dijkstra) {
          EXPECT_TRUE(q.matches_optimal(sparse.path().cost)) << "line " << q.line << ": " << sparse.path().cost;
        }
        ++compared;
      }
      EXPECT_GE(compared, 3u);
    }
  }
}

TEST(SparseTable, OtherAlgorithmsFallBackToTheDenseTable) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  for (const Algorithm algorithm : {Algorithm::bfs, Algorithm::jps, Algorithm::jps_plus}) {
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    search::SearchHandle<CellId> dense = planner.make_search({});
    search::SearchHandle<CellId> sparse = planner.make_search({.table = NodeTableKind::sparse});
    const CellId s = map.cell(3, 3);
    const CellId g = map.cell(45, 40);
    dense.run(s, g);
    sparse.run(s, g);
    EXPECT_TRUE(sparse.status().succeeded());
    EXPECT_EQ(sparse.path().nodes, dense.path().nodes);
  }
}

// GridPlanner::has_sparse_table (what the request queue trusts to bound memory) says true
// exactly for the algorithms whose sparse handles hold only pages: a short query on them holds
// a fraction of the dense table; the others, where they report memory, hold the whole dense one.
TEST(SparseTable, SourceKnowsWhichAlgorithmsHaveOne) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const io::Scenario scen = io::load_movingai_scenario(test::data_dir + "/maps/den520d.map.scen");
  const io::ScenarioQuery& q = scen.queries.front();  // bucket 0: a few cells
  const std::size_t dense_bytes = map.cell_count() * sizeof(search::NodeRecord);
  std::size_t with_sparse = 0;
  std::size_t dense_checked = 0;
  for (const auto& [algorithm, name] : grid::algorithm_names) {
    SCOPED_TRACE(name);
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    const grid::GridPlanner& source = planner;  // the planner is the search source
    EXPECT_FALSE(source.has_sparse_table({}));
    const bool has = source.has_sparse_table({.table = NodeTableKind::sparse});
    EXPECT_EQ(has, grid::has_sparse_table(algorithm));
    search::SearchHandle<CellId> sparse = planner.make_search({.table = NodeTableKind::sparse});
    ASSERT_TRUE(sparse.run(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y)).succeeded());
    if (has) {
      ++with_sparse;
      EXPECT_LT(sparse.memory_bytes() * 10, dense_bytes);
    } else if (sparse.memory_bytes() != 0) {  // bfs, dfs and ida do not report theirs
      ++dense_checked;
      EXPECT_GE(sparse.memory_bytes(), dense_bytes);
    }
  }
  EXPECT_EQ(with_sparse, 4u);
  EXPECT_EQ(dense_checked, 3u);  // jps, jps-plus, theta
}

// Memory per reached node, measured: short queries on a 512² map hold a few pages, where the
// dense table holds 32 bytes for each of the 262,144 cells.
TEST(SparseTable, MemoryGrowsWithTheNodesReached) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const io::Scenario scen = io::load_movingai_scenario(test::data_dir + "/maps/den520d.map.scen");
  const grid::GridPlanner planner(map, {.algorithm = Algorithm::astar});
  const search::SearchHandle<CellId> dense = planner.make_search({});
  const std::size_t dense_bytes = dense.memory_bytes();
  EXPECT_GE(dense_bytes, map.cell_count() * sizeof(search::NodeRecord));
  // Each query on a fresh handle: its memory is what that query needed.
  double total_bytes = 0;
  double total_reached = 0;
  for (std::size_t i = 0; i < scen.queries.size(); i += 29) {
    const io::ScenarioQuery& q = scen.queries[i];
    search::SearchHandle<CellId> sparse = planner.make_search({.table = NodeTableKind::sparse});
    sparse.run(map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y));
    ASSERT_TRUE(sparse.status().succeeded());
    // Reached nodes ≥ expanded; the open list holds the rest (lower bound: expanded + 1).
    const double reached = static_cast<double>(sparse.stats().expanded + 1);
    total_bytes += static_cast<double>(sparse.memory_bytes());
    total_reached += reached;
    EXPECT_LE(sparse.memory_bytes(), dense_bytes + 64 * 1024) << "line " << q.line;
  }
  const double per_node = total_bytes / total_reached;
  std::printf("sparse table on den520d: %.1f bytes per expanded node (dense: %zu bytes per search)\n", per_node,
              dense_bytes);
  EXPECT_LT(per_node, 400.0);  // measured ~ 110 (docs/request_queue.md)
  // The short queries (bucket 0-9) hold far less than the dense table.
  search::SearchHandle<CellId> sparse = planner.make_search({.table = NodeTableKind::sparse});
  const io::ScenarioQuery& shortest = scen.queries.front();
  sparse.run(map.cell(shortest.start.x, shortest.start.y), map.cell(shortest.goal.x, shortest.goal.y));
  EXPECT_LT(sparse.memory_bytes() * 50, dense_bytes);
}

TEST(SparseTable, PageBudgetFailsTheQueryWithOutOfNodes) {
  const grid::GridMap map(300, 300);  // open: A* across it reaches a band of cells
  const grid::GridPlanner planner(map, {.algorithm = Algorithm::dijkstra});
  const std::size_t budget_pages = 20;
  search::SearchHandle<CellId> bounded =
      planner.make_search({.table = NodeTableKind::sparse,
                           .max_table_bytes = budget_pages * Table::page_bytes});
  EXPECT_TRUE(bounded.run(map.cell(0, 0), map.cell(299, 299)).has(StatusDetail::out_of_nodes));
  // Pages held: the budget plus at most one expansion's (its successors lie in three rows, at
  // most two pages each), plus the directory (16 bytes per 64 cells) and the open list.
  const std::size_t directory = (300 * 300 + 63) / 64 * 16;
  EXPECT_LE(bounded.memory_bytes(), (budget_pages + 6) * Table::page_bytes + directory + 64 * 1024);
  // A query within the budget still succeeds, with the dense table's answer.
  const grid::GridPlanner astar(map, {.algorithm = Algorithm::astar});
  search::SearchHandle<CellId> small =
      astar.make_search({.table = NodeTableKind::sparse, .max_table_bytes = budget_pages * Table::page_bytes});
  search::SearchHandle<CellId> dense = astar.make_search({});
  ASSERT_TRUE(small.run(map.cell(10, 10), map.cell(40, 12)).succeeded());
  dense.run(map.cell(10, 10), map.cell(40, 12));
  EXPECT_EQ(small.path().nodes, dense.path().nodes);
}

// Random maps of odd sizes (tiles cut by the border), several sources, goal lists, partial
// results and a handle reused many times: the same answers as the dense table.
TEST(SparseTable, RandomMapsAndGoalKindsAgreeWithDense) {
  std::mt19937 rng(13);
  for (int round = 0; round < 30; ++round) {
    const int w = 1 + static_cast<int>(rng() % 70);
    const int h = 1 + static_cast<int>(rng() % 40);
    const grid::GridMap map = test::random_grid({.width = w, .height = h, .obstacle_density = 0.3, .terrain = round % 3 == 0}, rng);
    const grid::GridPlanner planner(map, {.algorithm = Algorithm::astar});
    search::SearchHandle<CellId> dense = planner.make_search({.partial_result = true});
    search::SearchHandle<CellId> sparse = planner.make_search({.partial_result = true, .table = NodeTableKind::sparse});
    for (int q = 0; q < 20; ++q) {
      const CellId s{static_cast<std::uint32_t>(rng() % map.cell_count())};  // blocked ones too
      const CellId g{static_cast<std::uint32_t>(rng() % map.cell_count())};
      dense.run(s, g);
      sparse.run(s, g);
      ASSERT_EQ(sparse.status(), dense.status());
      ASSERT_EQ(sparse.path().nodes, dense.path().nodes);
      // Two sources with costs, a goal list.
      const std::vector<search::Source<CellId>> sources{{s, 0}, {g, 3}};
      const std::vector<CellId> goals{CellId{static_cast<std::uint32_t>(rng() % map.cell_count())},
                                      CellId{static_cast<std::uint32_t>(rng() % map.cell_count())}};
      const auto goal = search::Goal<CellId>::any_of(goals);
      dense.begin(sources, goal);
      dense.step();
      sparse.begin(sources, goal);
      sparse.step();
      ASSERT_EQ(sparse.status(), dense.status());
      ASSERT_EQ(sparse.path().nodes, dense.path().nodes);
    }
  }
}

}  // namespace
}  // namespace waymark::grid_sparse_table_test
