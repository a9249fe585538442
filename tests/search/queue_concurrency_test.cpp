// Request queues on several threads sharing one world and planner: each thread's queue gives
// exactly the answers of one thread's one-shot searches (checked under ThreadSanitizer by make
// test-tsan).
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::search_queue_concurrency_test {
namespace {

TEST(Concurrency, RequestQueuesOnTwoThreadsShareOnePlanner) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source  // shared too: it only reads the planner
  std::mt19937 rng(11);
  std::vector<std::pair<CellId, CellId>> queries;
  for (int i = 0; i < 40; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
  // One thread, one-shot searches.
  std::vector<Path<CellId>> expected;
  search::SearchHandle<CellId> single = planner.make_search();
  for (const auto& [s, g] : queries) {
    single.run(s, g);
    expected.push_back(single.path());
  }
  constexpr int threads = 2;
  std::vector<std::vector<Path<CellId>>> found(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      search::PathRequestQueue<CellId> queue({.max_searches = 3, .turn = search::Budget::of_expansions(40)});
      const auto table = t == 0 ? search::NodeTableKind::dense : search::NodeTableKind::sparse;
      std::vector<search::RequestId> ids;
      for (const auto& [s, g] : queries) ids.push_back(queue.submit(world, s, g, {.table = table}));
      while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(150));
      search::SearchResult<CellId> r;
      for (const search::RequestId id : ids) {
        queue.copy_result(id, r);
        found[t].push_back(r.path);
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    ASSERT_EQ(found[t].size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(found[t][i].nodes, expected[i].nodes) << "thread " << t << " query " << i;
      EXPECT_EQ(found[t][i].cost, expected[i].cost);
    }
  }
}

}  // namespace
}  // namespace waymark::search_queue_concurrency_test
