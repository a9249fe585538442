// Batch queries on one planner: answers against the Moving AI optima, results in input order,
// queries that cannot run, progress reports, and the options' limits. (That 2 threads answer
// as 1 thread is Concurrency.BatchOnThreadsAnswersAsOneThread, run under ThreadSanitizer.)
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_batch_test {
namespace {

using grid::BatchOptions;
using grid::BatchQuery;
using grid::BatchResult;
using grid::batch_bytes_per_cell;
using grid::batch_threads;
using grid::default_batch_scratch_bytes;
using grid::max_batch_threads;

TEST(Batch, EveryAnswerIsTheScenarioOptimumInInputOrder) {
  const std::string scen_path = test::data_dir + "/maps/arena.map.scen";
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const io::Scenario scen = io::load_movingai_scenario(scen_path);
  const std::vector<BatchQuery> queries = io::load_batch_queries(scen_path, map).cells(map);
  for (const grid::Algorithm a : {grid::Algorithm::astar, grid::Algorithm::jps}) {
    SCOPED_TRACE(to_string(a));
    const grid::GridPlanner planner(map, {.algorithm = a});
    const std::vector<BatchResult> results = run_batch(planner, queries, {.threads = 2, .chunk = 3, .keep_paths = true});
    ASSERT_EQ(results.size(), scen.queries.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
      const io::ScenarioQuery& q = scen.queries[i];
      SCOPED_TRACE("line " + std::to_string(q.line));
      ASSERT_TRUE(results[i].status.succeeded());
      EXPECT_TRUE(q.matches_optimal(results[i].cost)) << results[i].cost << " vs " << q.optimal;
      const Path<CellId> path{results[i].path, results[i].cost};
      EXPECT_TRUE(test::is_valid_path(planner.space(), path, map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y)));
      EXPECT_GT(results[i].stats.expanded, 0u);
    }
  }
}

TEST(Batch, QueriesThatCannotRunFailWithoutStoppingTheOthers) {
  grid::GridMap map(8, 4);
  map.set_passable(grid::CellRect{4, 0, 5, 4}, false);  // a wall from top to bottom at x = 4
  const grid::GridPlanner planner(map);
  const CellId outside{static_cast<std::uint32_t>(map.cell_count())};
  const std::vector<BatchQuery> queries = {
      {map.cell(0, 0), map.cell(3, 3)},  // found
      {map.cell(0, 0), map.cell(7, 0)},  // beyond the wall
      {map.cell(4, 1), map.cell(0, 0)},  // blocked start
      {map.cell(0, 0), outside},         // not a cell of the map
      {outside, map.cell(0, 0)},
      {map.cell(2, 2), map.cell(2, 2)},  // start == goal
  };
  const std::vector<BatchResult> r = run_batch(planner, queries, {.keep_paths = true});
  ASSERT_EQ(r.size(), queries.size());
  EXPECT_TRUE(r[0].status.succeeded());
  EXPECT_NEAR(r[0].cost, 3 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(r[0].path.size(), 4u);
  EXPECT_TRUE(r[1].status.failed());
  EXPECT_TRUE(r[1].path.empty());
  EXPECT_EQ(r[1].cost, infinite_cost);  // no path: no finite cost
  EXPECT_TRUE(r[2].status.failed());
  EXPECT_EQ(r[2].stats.expanded, 0u);
  EXPECT_EQ(r[2].status.reason(), FailureReason::start_blocked);
  EXPECT_EQ(r[1].status.reason(), FailureReason::unreachable);
  EXPECT_EQ(r[3].status.reason(), FailureReason::out_of_bounds);
  EXPECT_EQ(r[4].status.reason(), FailureReason::out_of_bounds);
  EXPECT_EQ(r[3].stats.expanded, 0u);
  EXPECT_TRUE(r[5].status.succeeded());
  EXPECT_EQ(r[5].cost, 0);
  EXPECT_EQ(r[5].path, std::vector<CellId>{map.cell(2, 2)});
}

TEST(Batch, PathsOnlyWhenAskedAndResultsReusedAcrossRuns) {
  const grid::GridMap map(20, 20);
  const grid::GridPlanner planner(map);
  const std::vector<BatchQuery> queries = {{map.cell(0, 0), map.cell(19, 0)}, {map.cell(0, 0), map.cell(0, 5)}};
  std::vector<BatchResult> results(queries.size());
  run_batch(planner, queries, results, {.keep_paths = true});
  EXPECT_EQ(results[0].path.size(), 20u);
  EXPECT_EQ(results[1].path.size(), 6u);
  run_batch(planner, queries, results);  // without paths: the old ones are cleared
  EXPECT_TRUE(results[0].path.empty());
  EXPECT_DOUBLE_EQ(results[0].cost, 19.0);
  EXPECT_DOUBLE_EQ(results[1].cost, 5.0);
}

TEST(Batch, ProgressReportsOneAtATimeNeverDecreasingAndEndAtTheTotal) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner planner(map);
  std::mt19937 rng(3);
  std::vector<BatchQuery> queries;
  for (int i = 0; i < 100; ++i) queries.push_back({test::random_passable(map, rng), test::random_passable(map, rng)});
  std::vector<std::size_t> reported;
  std::size_t expected_total = queries.size();
  std::atomic<int> inside{0};
  bool overlapped = false;
  const BatchOptions options{.threads = 3, .chunk = 4, .progress = [&](std::size_t done, std::size_t total) {
                               overlapped |= inside.fetch_add(1) != 0;
                               EXPECT_EQ(total, expected_total);
                               reported.push_back(done);
                               inside.fetch_sub(1);
                             }};
  (void)run_batch(planner, queries, options);
  EXPECT_FALSE(overlapped);
  ASSERT_GE(reported.size(), 2u);  // at least one chunk's report, and the end
  EXPECT_EQ(reported.back(), queries.size());
  for (std::size_t i = 1; i < reported.size(); ++i) EXPECT_LE(reported[i - 1], reported[i]);
  for (std::size_t i = 0; i + 1 < reported.size(); ++i) EXPECT_GE(reported[i], 4u);  // after whole chunks

  // No queries: no results, and the end is still reported.
  reported.clear();
  expected_total = 0;
  EXPECT_TRUE(run_batch(planner, {}, options).empty());
  EXPECT_EQ(reported, std::vector<std::size_t>{0});
}

TEST(Batch, ThreadAndChunkCountsOutsideTheirLimitsActAsTheNearestLimit) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner planner(map);
  std::mt19937 rng(5);
  std::vector<BatchQuery> queries;
  for (int i = 0; i < 30; ++i) queries.push_back({test::random_passable(map, rng), test::random_passable(map, rng)});
  const std::vector<BatchResult> reference = run_batch(planner, queries);
  for (const BatchOptions& o : {BatchOptions{.threads = 0, .chunk = 0}, BatchOptions{.threads = 1000, .chunk = 1},
                                BatchOptions{.threads = 2, .chunk = 1000},
                                BatchOptions{.threads = 2, .chunk = SIZE_MAX}}) {
    const std::vector<BatchResult> r = run_batch(planner, queries, o);
    ASSERT_EQ(r.size(), reference.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
      EXPECT_EQ(r[i].status, reference[i].status);
      EXPECT_EQ(r[i].cost, reference[i].cost);
    }
  }
  EXPECT_EQ(batch_threads(1000, map.cell_count(), {.threads = 1000, .chunk = 1}), max_batch_threads);
  EXPECT_EQ(batch_threads(30, map.cell_count(), {.threads = 1000, .chunk = 1}), 30u);  // 30 chunks
  EXPECT_EQ(batch_threads(30, map.cell_count(), {.threads = 4, .chunk = SIZE_MAX}), 1u);
  EXPECT_EQ(batch_threads(30, map.cell_count(), {.threads = 4, .chunk = 8}), 4u);  // 4 chunks
  EXPECT_EQ(batch_threads(0, map.cell_count(), {.threads = 4}), 1u);
}

TEST(Batch, ThreadsStayWithinTheScratchBudget) {
  constexpr std::size_t cells = std::size_t{1} << 25;  // the planners' default map limit
  const std::size_t per_thread = cells * batch_bytes_per_cell;
  EXPECT_EQ(batch_threads(1000, cells, {.threads = 64}), default_batch_scratch_bytes / per_thread);
  EXPECT_EQ(batch_threads(1000, cells, {.threads = 64, .max_scratch_bytes = 3 * per_thread - 1}), 2u);
  EXPECT_EQ(batch_threads(1000, cells, {.threads = 64, .max_scratch_bytes = 1}), 1u);  // never none
  EXPECT_EQ(batch_threads(1000, 100, {.threads = 64}), 64u);
}

}  // namespace
}  // namespace waymark::grid_batch_test
