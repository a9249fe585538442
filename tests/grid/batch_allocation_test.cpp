// A batch allocates per thread (its handle), never per query: three times the queries cost
// exactly the allocations of one time, with and without kept paths.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_batch_allocation_test {
namespace {

TEST(BatchAllocation, NothingPerQueryAfterWarmUp) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  std::mt19937 rng(21);
  std::vector<grid::BatchQuery> once;
  for (int i = 0; i < 40; ++i) once.push_back({test::random_passable(map, rng), test::random_passable(map, rng)});
  std::vector<grid::BatchQuery> thrice;
  for (int k = 0; k < 3; ++k) thrice.insert(thrice.end(), once.begin(), once.end());
  for (const grid::Algorithm a : {grid::Algorithm::astar, grid::Algorithm::jps, grid::Algorithm::bfs}) {
    SCOPED_TRACE(to_string(a));
    const grid::GridPlanner planner(map, {.algorithm = a});
    for (const bool keep_paths : {false, true}) {
      SCOPED_TRACE(keep_paths ? "paths kept" : "no paths");
      // One thread: which thread takes which query is then fixed, so is every handle's growth.
      const grid::BatchOptions options{.threads = 1, .chunk = 5, .keep_paths = keep_paths};
      std::vector<grid::BatchResult> results_once(once.size()), results_thrice(thrice.size());
      run_batch(planner, once, results_once, options);  // warm-up: the results' paths
      run_batch(planner, thrice, results_thrice, options);
      const auto allocations = [&](const std::vector<grid::BatchQuery>& q, std::vector<grid::BatchResult>& r) {
        const std::size_t before = test::allocation_count();
        run_batch(planner, q, r, options);
        return test::allocation_count() - before;
      };
      const std::size_t for_once = allocations(once, results_once);
      const std::size_t for_thrice = allocations(thrice, results_thrice);
      EXPECT_GT(for_once, 0u);  // the thread's handle
      EXPECT_EQ(for_thrice, for_once);
      std::size_t solved = 0;
      for (const grid::BatchResult& r : results_thrice) solved += r.status.succeeded() ? 1 : 0;
      EXPECT_GT(solved, 100u);
    }
  }
}

}  // namespace
}  // namespace waymark::grid_batch_allocation_test
