// Worlds that change: edit a GridMap (walls, doors, terrain, zones), and every planner and
// search made from it refuses the stale map until synced, then answers exactly as a planner
// made afresh on the edited map — for every algorithm.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::grid_edit_test {
using namespace grid;
namespace {

const std::vector<Algorithm> every_algorithm{Algorithm::astar, Algorithm::wastar, Algorithm::dijkstra,
                                             Algorithm::greedy, Algorithm::bfs, Algorithm::dfs,
                                             Algorithm::ida, Algorithm::jps, Algorithm::jps_plus};

bool is_jump(Algorithm a) { return a == Algorithm::jps || a == Algorithm::jps_plus; }

/// One random edit: walls or doors (single cells and areas), terrain, a zone added or removed.
/// Jump searches need uniform costs, so for them only passability changes.
void random_edit(GridMap& map, std::mt19937& rng, bool passability_only, std::vector<ZoneId>& zones) {
  std::uniform_int_distribution<int> x(0, map.width() - 1), y(0, map.height() - 1), kind(0, 5);
  switch (passability_only ? kind(rng) % 2 : kind(rng)) {
    case 0: map.set_passable(x(rng), y(rng), rng() % 3 == 0); break;
    case 1: {
      const int x0 = x(rng), y0 = y(rng);
      map.set_passable(CellRect{x0, y0, x0 + 1 + static_cast<int>(rng() % 4), y0 + 1 + static_cast<int>(rng() % 4)},
                       rng() % 2 == 0);
      break;
    }
    case 2: map.set_cost_multiplier(x(rng), y(rng), 0.5 + static_cast<double>(rng() % 8)); break;
    case 3:
    case 4: {
      const Vec2 c = map.cell_center(CellCoord{x(rng), y(rng)});
      zones.push_back(map.add_zone(CostZone::circle(c, 1.0 + static_cast<double>(rng() % 4),
                                                    static_cast<double>(rng() % 7) - 2.0)));
      break;
    }
    default:
      if (!zones.empty()) {
        EXPECT_TRUE(map.remove_zone(zones.back()));
        EXPECT_FALSE(map.remove_zone(zones.back()));
        zones.pop_back();
      }
  }
}

/// Every query the same on the synced planner's old handle and on a fresh planner over a copy
/// of the edited map: status, path (same tie-breaking), cost and expansions.
void expect_same_as_fresh(GridPlanner& synced, search::SearchHandle<CellId>& old_handle, const GridMap& map,
                          std::mt19937& rng, int queries) {
  const GridMap copy = map;
  GridPlanner fresh(copy, synced.options());
  search::SearchHandle<CellId> fresh_search = fresh.make_search();
  for (int q = 0; q < queries; ++q) {
    const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
    const Status a = old_handle.run(s, g);
    const Status b = fresh_search.run(s, g);
    const search::SearchResult<CellId> one_shot = synced.plan(s, g);
    const Status c = one_shot.status;
    ASSERT_EQ(a, b);
    ASSERT_EQ(c, b);
    EXPECT_EQ(old_handle.path().nodes, fresh_search.path().nodes);
    EXPECT_EQ(one_shot.path.nodes, fresh_search.path().nodes);
    EXPECT_DOUBLE_EQ(old_handle.path().cost, fresh_search.path().cost);
    EXPECT_EQ(old_handle.stats().expanded, fresh_search.stats().expanded);
  }
}

TEST(GridEdits, EveryAlgorithmRefusesTheStaleMapThenMatchesAFreshPlanner) {
  for (const Algorithm a : every_algorithm) {
    SCOPED_TRACE(to_string(a));
    std::mt19937 rng(101 + static_cast<unsigned>(a));
    const bool small = a == Algorithm::ida || a == Algorithm::dfs;
    GridMap map = test::random_grid({small ? 14 : 40, small ? 12 : 30, 0.2, false}, rng);
    GridPlanner planner(map, {.algorithm = a});
    search::SearchHandle<CellId> planner_search = planner.make_search();
    search::SearchHandle<CellId> handle = planner.make_search();
    std::vector<ZoneId> zones;
    for (int round = 0; round < 6; ++round) {
      const std::uint64_t version = map.version();
      // IDA* runs one iteration per distinct f: real-valued costs would make it crawl.
      for (int e = 0; e < 4; ++e) random_edit(map, rng, is_jump(a) || a == Algorithm::ida, zones);
      if (map.version() == version) continue;  // the edits happened to change nothing
      EXPECT_TRUE(planner.stale());
      const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
      EXPECT_EQ(handle.begin(s, g), Status::failure(StatusDetail::stale_world));
      EXPECT_TRUE(handle.path().empty());
      EXPECT_EQ(planner_search.run(s, g), Status::failure(StatusDetail::stale_world));
      planner.sync();
      EXPECT_FALSE(planner.stale());
      expect_same_as_fresh(planner, handle, map, rng, 15);
    }
  }
}

TEST(GridEdits, SyncRecomputesOnlyAroundTheEdits) {
  GridMap map(200, 200);
  GridSpace space(map, DiagonalRule::no_corner_cutting);
  map.set_passable(50, 50, false);
  map.set_passable(CellRect{10, 10, 13, 12}, false);  // 3 x 2 cells
  EXPECT_TRUE(space.stale());
  EXPECT_EQ(space.sync(), 9u + 5u * 4u);  // each area grown by one cell on every side
  EXPECT_FALSE(space.stale());
  EXPECT_EQ(space.sync(), 0u);
  // A cost edit changes no mask, but the space still catches up with the version.
  map.set_cost_multiplier(3, 3, 2.0);
  EXPECT_TRUE(space.stale());
  EXPECT_EQ(space.sync(), 0u);
  EXPECT_FALSE(space.stale());
}

TEST(GridEdits, AnOverflowingChangeLogMeansAFullRebuildThatStillMatches) {
  std::mt19937 rng(7);
  GridMap map = test::random_grid({60, 50, 0.25, false}, rng);
  GridPlanner planner(map, {.algorithm = Algorithm::jps});
  search::SearchHandle<CellId> handle = planner.make_search();
  const std::uint64_t before = map.version();
  std::uniform_int_distribution<int> x(0, 59), y(0, 49);
  while (map.version() < before + 3 * ChangeLog<GridChange>::capacity) map.set_passable(x(rng), y(rng), rng() % 2 == 0);
  EXPECT_FALSE(map.changes_since(before).has_value());
  EXPECT_EQ(planner.sync().recomputed, 2 * map.cell_count());  // masks and the jump grid, each in full
  expect_same_as_fresh(planner, handle, map, rng, 30);
}

TEST(GridEdits, JumpSearchesRefuseCostsAndComeBackWhenTheyAreGone) {
  std::mt19937 rng(3);
  GridMap map = test::random_grid({30, 30, 0.15, false}, rng);
  for (const Algorithm a : {Algorithm::jps, Algorithm::jps_plus}) {
    SCOPED_TRACE(to_string(a));
    GridPlanner planner(map, {.algorithm = a});
    search::SearchHandle<CellId> planner_search = planner.make_search();
    const ZoneId zone = map.add_zone(CostZone::rect({0, 0}, {10, 10}, 2.0));
    EXPECT_TRUE(map.has_costs());
    planner.sync();
    EXPECT_TRUE(planner.unsupported().has_value());
    EXPECT_FALSE(planner.stale());  // nothing a sync() could clear
    const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
    EXPECT_EQ(planner_search.run(s, g), Status::failure(StatusDetail::invalid_query | StatusDetail::unsupported));
    EXPECT_TRUE(map.remove_zone(zone));
    EXPECT_FALSE(map.has_costs());  // every multiplier back at exactly 1
    planner.sync();
    EXPECT_FALSE(planner.unsupported().has_value());
    GridPlanner reference(map, {.algorithm = Algorithm::astar});
    search::SearchHandle<CellId> reference_search = reference.make_search();
    ASSERT_EQ(planner_search.run(s, g), reference_search.run(s, g));
    EXPECT_NEAR(planner_search.path().cost, reference_search.path().cost, 1e-9);
  }
}

TEST(GridEdits, ASharedJumpTableIsRefusedUntilItsOwnerRebuildsIt) {
  std::mt19937 rng(5);
  GridMap map = test::random_grid({40, 40, 0.2, false}, rng);
  JumpTable table(map);
  GridPlannerOptions options{.algorithm = Algorithm::jps_plus};
  options.jump_table = &table;
  GridPlanner planner(map, options);
  search::SearchHandle<CellId> planner_search = planner.make_search();
  map.set_passable(CellRect{5, 0, 6, 40}, false);  // a wall across the map
  planner.sync();                                  // the table is not the planner's to rebuild
  const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
  EXPECT_TRUE(table.stale());
  EXPECT_EQ(planner_search.run(s, g), Status::failure(StatusDetail::stale_world));
  table.rebuild();
  EXPECT_FALSE(table.stale());
  GridPlanner reference(map, {.algorithm = Algorithm::astar});
  search::SearchHandle<CellId> reference_search = reference.make_search();
  ASSERT_EQ(planner_search.run(s, g), reference_search.run(s, g));
  if (reference_search.path().nodes.size() > 1) {
    EXPECT_NEAR(planner_search.path().cost, reference_search.path().cost, 1e-9);
  }
}

TEST(GridEdits, ZonesComeOffExactlyAndTheLogNamesEveryEdit) {
  GridMap map(20, 10, GridMapParams{.min_cost_multiplier = 0.25});
  map.set_cost_multiplier(3, 3, 4.0);
  const std::vector<double> before = [&] {
    std::vector<double> m;
    for (std::size_t c = 0; c < map.cell_count(); ++c) m.push_back(map.cost_multiplier(CellId{static_cast<std::uint32_t>(c)}));
    return m;
  }();
  const std::uint64_t v0 = map.version();
  const ZoneId a = map.add_zone(CostZone::circle({3.5, 3.5}, 2.0, 0.3));
  const ZoneId b = map.add_zone(CostZone::rect({0, 0}, {8, 8}, -10.0));  // clamped at 0.25
  const ZoneId c = map.add_zone(CostZone::circle({4.5, 2.5}, 3.0, 0.7));
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(0, 0)), 0.25);
  EXPECT_DOUBLE_EQ(map.min_cost_multiplier(), 0.25);
  EXPECT_NE(map.zone(b), nullptr);
  EXPECT_TRUE(map.remove_zone(b));
  EXPECT_EQ(map.zone(b), nullptr);
  EXPECT_TRUE(map.remove_zone(c));
  EXPECT_TRUE(map.remove_zone(a));
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(map.cost_multiplier(CellId{static_cast<std::uint32_t>(i)}), before[i]);
  EXPECT_TRUE(map.has_costs());  // the terrain multiplier of (3,3) is still 4
  const auto changes = map.changes_since(v0);
  ASSERT_TRUE(changes.has_value());
  ASSERT_EQ(changes->size(), 6u);
  EXPECT_EQ(map.version(), v0 + 6);
  for (const GridChange& ch : *changes) EXPECT_FALSE(ch.passability);
  EXPECT_TRUE(map.changes_since(map.version())->empty());
  // Edits that change nothing are not edits.
  map.set_passable(1, 1, true);
  map.set_cost_multiplier(3, 3, 4.0);
  EXPECT_EQ(map.version(), v0 + 6);
  EXPECT_FALSE(map.remove_zone(ZoneId{99}));
}

TEST(GridEdits, HeuristicsFollowALoweredMultiplierAndStayAdmissible) {
  GridMap map(30, 30);
  GridPlanner planner(map, {.algorithm = Algorithm::astar});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  const CellId s = map.cell(0, 0), g = map.cell(29, 29);
  ASSERT_TRUE(planner_search.run(s, g).succeeded());
  map.add_zone(CostZone::rect({0, 0}, {30, 30}, -0.8));  // every cell costs 0.2
  planner.sync();
  GridPlanner dijkstra(map, {.algorithm = Algorithm::dijkstra});
  search::SearchHandle<CellId> dijkstra_search = dijkstra.make_search();
  ASSERT_TRUE(planner_search.run(s, g).succeeded());
  ASSERT_TRUE(dijkstra_search.run(s, g).succeeded());
  EXPECT_NEAR(planner_search.path().cost, dijkstra_search.path().cost, 1e-9);
  EXPECT_NEAR(planner_search.path().cost, 0.2 * 29 * diagonal_step, 1e-9);
}

}  // namespace
}  // namespace waymark::grid_edit_test
