// Frame budgets that hold (issue 30): a request queue's frame counted in expansions also bounds
// jump searches, by its default limit on scanned cells; A*'s frames stay what they were.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::search_frame_budget_test {
namespace {

using search::Budget;
using search::PathRequestQueue;
using search::RequestId;
using search::RequestQueueOptions;

/// Every request succeeded with the cost of A* run straight between its path's ends.
void expect_optimal(const PathRequestQueue<CellId>& queue, const std::vector<RequestId>& ids,
                    const grid::GridPlanner& astar) {
  search::SearchResult<CellId> got;
  for (const RequestId id : ids) {
    ASSERT_TRUE(queue.copy_result(id, got));
    ASSERT_TRUE(got.status.succeeded());
    const search::SearchResult<CellId> once = astar.plan(got.path.nodes.front(), got.path.nodes.back());
    EXPECT_NEAR(got.path.cost, once.path.cost, 1e-9 * once.path.cost);
  }
}

TEST(FrameBudget, AJumpSearchFrameOnABigOpenMapScansAboutTheTurnBudget) {
  // 512² (the largest map the default options give dense tables, which jps needs), open but
  // for a few walls, so that jumps run long and meet forced neighbours.
  grid::GridMap map(512, 512);
  for (int x = 60; x < 500; x += 110) map.set_passable(grid::CellRect{x, 40, x + 1, 300}, false);
  const grid::GridPlanner jps(map, {.algorithm = grid::Algorithm::jps});
  const grid::GridPlanner astar(map, {.algorithm = grid::Algorithm::astar});
  const RequestQueueOptions defaults;
  PathRequestQueue<CellId> queue;  // the default options
  std::mt19937 rng(30);
  std::vector<RequestId> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(queue.submit(jps, test::random_passable(map, rng), test::random_passable(map, rng)));
  ids.push_back(queue.submit(jps, map.cell(0, 0), map.cell(511, 511)));  // corner to corner: the longest jumps
  const Budget frame = Budget::of_expansions(256);  // counted in expansions only, as a game would write it
  // Every frame ends within the frame's derived scan limit (256 × 8) plus one expansion.
  const std::uint64_t limit = 256 * defaults.scanned_per_expansion;
  const std::uint64_t bound = grid::jump_expansion_scan_bound(grid::JumpParams{}, map.width(), map.height());
  std::uint64_t most = 0;
  int frames = 0;
  while (queue.in_flight() > 0 && frames < 100000) {
    queue.update(frame);
    ++frames;
    most = std::max(most, queue.last_frame().scanned);
    ASSERT_LE(queue.last_frame().scanned, limit + bound) << "frame " << frames;
  }
  ASSERT_EQ(queue.in_flight(), 0u);
  EXPECT_GT(most, limit);  // the searches did run into the limit
  std::printf("jps on an open 512² map: worst frame %llu scanned cells (limit %llu + one expansion <= %llu)\n",
              static_cast<unsigned long long>(most), static_cast<unsigned long long>(limit),
              static_cast<unsigned long long>(bound));
  // The answers are still optimal.
  expect_optimal(queue, ids, astar);
}

TEST(FrameBudget, AStarFramesStillSpendTheirExpansions) {
  // A* scans at most 8 successors per expansion: the derived scan limit never ends its frames
  // before their expansions.
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner astar(map, {.algorithm = grid::Algorithm::astar});
  PathRequestQueue<CellId> queue;
  const RequestId id = queue.submit(astar, map.cell(49, 42), map.cell(224, 222));
  int full = 0;
  while (queue.in_flight() > 0) {
    queue.update(Budget::of_expansions(256));
    if (queue.in_flight() == 0) break;  // the last frame ends with the search
    EXPECT_EQ(queue.last_frame().expanded, 256u);
    EXPECT_LE(queue.last_frame().scanned, 256u * 8);
    ++full;
  }
  EXPECT_GT(full, 3);
  EXPECT_EQ(queue.state(id), search::RequestState::succeeded);
}

TEST(QueueReserve, MakesThePoolsSearchesAheadAndRequestsRunOnThem) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner astar(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner jps(map, {.algorithm = grid::Algorithm::jps});
  PathRequestQueue<CellId> queue({.max_searches = 4});
  EXPECT_EQ(queue.reserve(astar, {}, 2), 2u);
  EXPECT_EQ(queue.searches(), 2u);
  EXPECT_EQ(queue.reserve(astar), 4u);  // free places first
  EXPECT_EQ(queue.reserve(astar), 4u);  // nothing made again
  EXPECT_EQ(queue.searches(), 4u);
  EXPECT_EQ(queue.reserve(jps, {}, 1), 1u);  // the pool is full: an idle astar search is made again
  EXPECT_EQ(queue.reserve(astar, {}, 3), 3u);
  EXPECT_EQ(queue.reserve(jps), 4u);         // every idle search, made again for jps
  EXPECT_EQ(queue.reserve(astar, {}, 2), 2u);  // and two back: the pool serves both
  std::mt19937 rng(4);
  std::vector<RequestId> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(queue.submit(i % 2 == 0 ? astar : jps, test::random_passable(map, rng), test::random_passable(map, rng)));
  while (queue.in_flight() > 0) queue.update(Budget::of_expansions(500));
  EXPECT_EQ(queue.searches(), 4u);
  expect_optimal(queue, ids, astar);
}

TEST(FrameBudget, BudgetsThatSayNothingOfScannedCellsGetALimitPerExpansion) {
  EXPECT_EQ(Budget::of_expansions(10).scanning_at_most(8).scanned, 80u);
  EXPECT_EQ(Budget::of_expansions(10).scanning_at_most(0).scanned, Budget::unlimited);
  EXPECT_EQ((Budget{.expansions = 10, .scanned = 5}).scanning_at_most(8).scanned, 5u);  // its own is kept
  EXPECT_TRUE(Budget{}.scanning_at_most(8).is_unlimited());                             // unlimited stays so
  EXPECT_LT(Budget::of_expansions(Budget::unlimited - 1).scanning_at_most(8).scanned, Budget::unlimited);  // saturates
}

}  // namespace
}  // namespace waymark::search_frame_budget_test
