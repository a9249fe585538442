// D* Lite's replan() and the Replanner's update() allocate nothing after warm-up: the map is
// edited and the agent moves between the counted calls (edits themselves may grow the map's
// change log, so they are not counted).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/replanner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_replan_allocation_test {
namespace {

using namespace grid;

/// The same edits every round: cells toggled near the agent's path and far from it.
struct Edits {
  std::vector<CellCoord> cells;
  void apply(GridMap& map) const {
    for (const CellCoord c : cells) map.set_passable(c.x, c.y, !map.passable(c.x, c.y));
  }
};

TEST(ReplanAllocation, DStarLiteReplansAllocateNothingAfterWarmUp) {
  GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  std::mt19937 rng(3);
  const CellId start = test::random_passable(map, rng);
  const CellId goal = test::random_passable(map, rng);
  Edits edits;
  for (int i = 0; i < 40; ++i) edits.cells.push_back(map.coord(test::random_passable(map, rng)));
  DStarLite d(map);
  std::size_t counted = 0, solved = 0;
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(d.plan(start, goal).succeeded());
    // Walk the path, toggling the edit cells (and back) every few steps.
    for (int step = 0; step < 30; ++step) {
      if (step % 3 == 0) edits.apply(map);
      if (d.status().succeeded() && d.path().nodes.size() > 1 && map.passable(d.path().nodes[1]))
        d.move_start(d.path().nodes[1]);
      const std::size_t before = test::allocation_count();
      const Status s = d.replan();
      if (round == 2) {
        counted += test::allocation_count() - before;
        solved += s.succeeded() ? 1 : 0;
      }
    }
    if (map.version() % 2 == 1) edits.apply(map);  // back to the start map, so rounds match
  }
  EXPECT_EQ(counted, 0u);
  EXPECT_GT(solved, 0u);
}

TEST(ReplanAllocation, ReplannerUpdatesAllocateNothingAfterWarmUp) {
  for (const ReplanStrategy strategy : {ReplanStrategy::incremental, ReplanStrategy::from_scratch}) {
    SCOPED_TRACE(to_string(strategy));
    GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
    std::mt19937 rng(9);
    const CellId start = test::random_passable(map, rng);
    const CellId goal = test::random_passable(map, rng);
    Edits edits;
    for (int i = 0; i < 20; ++i) edits.cells.push_back(map.coord(test::random_passable(map, rng)));
    Replanner r(map, {.strategy = strategy, .replan_interval_s = 5});
    std::size_t counted = 0, replanned = 0;
    for (int round = 0; round < 3; ++round) {
      const std::uint64_t version = map.version();
      ASSERT_TRUE(r.start(start, goal).succeeded());
      for (int tick = 0; tick < 40; ++tick) {
        if (tick % 4 == 0) edits.apply(map);
        if (tick % 9 == 0) r.set_goal(test::random_passable(map, rng));
        const std::size_t before = test::allocation_count();
        const ReplanUpdate u = r.update(1.0);
        if (u.status.succeeded() && r.path().size() > 1) r.advance_to(r.path()[1]);
        if (round == 2) {
          counted += test::allocation_count() - before;
          replanned += u.replanned ? 1 : 0;
        }
      }
      if ((map.version() - version) / edits.cells.size() % 2 == 1) edits.apply(map);
      rng.seed(9);  // the same goals next round
      for (int i = 0; i < 2 + 20; ++i) (void)test::random_passable(map, rng);
    }
    EXPECT_EQ(counted, 0u);
    EXPECT_GT(replanned, 5u);
  }
}

}  // namespace
}  // namespace waymark::grid_replan_allocation_test
