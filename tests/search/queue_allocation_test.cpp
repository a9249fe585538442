// PathRequestQueue::update allocates nothing after warm-up: submitting, updating with small
// budgets, copying results out and releasing, on dense and sparse tables, and an update with
// nothing in flight.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::search_queue_allocation_test {
namespace {

using test::expect_no_allocation_after_warm_up;

TEST(QueueAllocation, UpdateAllocatesNothingAfterWarmUp) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  std::mt19937 rng(6);
  std::vector<std::pair<CellId, CellId>> queries;
  for (int i = 0; i < 40; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
  for (const search::NodeTableKind table : {search::NodeTableKind::dense, search::NodeTableKind::sparse}) {
    SCOPED_TRACE(table == search::NodeTableKind::dense ? "dense" : "sparse");
    search::PathRequestQueue<CellId> queue({.max_requests = 64, .max_searches = 6, .turn = search::Budget::of_expansions(30)});
    std::vector<search::RequestId> ids;
    ids.reserve(queries.size());
    search::SearchResult<CellId> kept;
    expect_no_allocation_after_warm_up([&] {
      ids.clear();
      for (const auto& [s, g] : queries) ids.push_back(queue.submit(world, s, g, {.table = table}, static_cast<int>(s.value % 3)));
      while (queue.in_flight() > 0) queue.update(search::Budget::of_expansions(200));
      queue.update(search::Budget::of_expansions(200));  // nothing in flight
      std::size_t solved = 0;
      for (const search::RequestId id : ids) {
        queue.copy_result(id, kept);
        solved += kept.status.succeeded() ? 1 : 0;
        queue.release(id);
      }
      return solved;
    });
  }
}

TEST(QueueAllocation, FirstUpdateAfterReserveAllocatesNothing) {
  // A 512² map: the largest the default options give dense tables (the warm-up reserve()
  // takes out of the first frame: 8 MiB per search).
  std::mt19937 rng(30);
  const grid::GridMap map = test::random_grid({.width = 512, .height = 512, .obstacle_density = 0.2, .terrain = false}, rng);
  for (const grid::Algorithm algorithm : {grid::Algorithm::astar, grid::Algorithm::jps}) {
    SCOPED_TRACE(to_string(algorithm));
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    std::vector<std::pair<CellId, CellId>> queries;
    const CellId here = test::random_passable(map, rng);
    queries.emplace_back(here, here);  // first in turn, finishes in the first frame: its path is copied out
    for (int i = 0; i < 7; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
    const search::RequestQueueOptions options{.reserve_path_nodes = 2048};
    for (const bool reserved : {false, true}) {
      SCOPED_TRACE(reserved ? "reserved" : "not reserved");
      search::PathRequestQueue<CellId> queue(options);
      if (reserved) {
        EXPECT_EQ(queue.reserve(planner), options.max_searches);
      }
      for (const auto& [s, g] : queries) queue.submit(planner, s, g);
      const std::size_t before = test::allocation_count();
      const std::size_t finished = queue.update(search::Budget::of_expansions(1024));
      const std::size_t allocated = test::allocation_count() - before;
      EXPECT_GE(finished, 1u);
      EXPECT_GT(queue.last_frame().expanded, 100u);
      if (reserved) {
        EXPECT_EQ(allocated, 0u);
      } else {
        EXPECT_GT(allocated, 0u);  // the warm-up reserve() saves: searches made in the frame
      }
    }
  }
}

}  // namespace
}  // namespace waymark::search_queue_allocation_test
