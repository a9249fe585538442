// Clearance and size-class maps against a brute force written here: the distance from a point
// to every blocked square and to the map's outline, in world coordinates (any cell size and
// origin). Edits: after every sync the maps equal fresh ones. Planning: a small disc passes a
// one-cell gap a large one goes round, and every point of a path found on a size-class map
// keeps the disc clear. sync() allocates nothing after warm-up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/grid/clearance.hpp"
#include "waymark/grid/dstar_lite.hpp"
#include "waymark/grid/grid_planner.hpp"

namespace waymark::grid_clearance_test {
namespace {

using namespace grid;

// ---- the reference ------------------------------------------------------------------------

/// The distance from `p` to the nearest point of a blocked cell or of the outside of the map,
/// by trying every blocked cell's square.
double point_clearance(const GridMap& map, Vec2 p) {
  const double s = map.cell_size();
  const Vec2 lo = map.params().origin;
  const Vec2 hi = lo + Vec2{map.width() * s, map.height() * s};
  double best = std::min({p.x - lo.x, hi.x - p.x, p.y - lo.y, hi.y - p.y});
  if (best <= 0) return 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable(x, y)) continue;
      const Vec2 a = lo + Vec2{x * s, y * s};
      const Vec2 b = a + Vec2{s, s};
      const double dx = std::max({a.x - p.x, 0.0, p.x - b.x});
      const double dy = std::max({a.y - p.y, 0.0, p.y - b.y});
      best = std::min(best, std::hypot(dx, dy));
    }
  }
  return best;
}

double brute_clearance(const GridMap& map, int x, int y, double cap) {
  return std::min(cap, point_clearance(map, map.cell_center(CellCoord{x, y})));
}

GridMap random_map(int width, int height, double density, GridMapParams params, std::mt19937& rng) {
  std::bernoulli_distribution blocked(density);
  std::vector<std::uint8_t> passable(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  for (std::uint8_t& p : passable) p = blocked(rng) ? 0 : 1;
  return GridMap(width, height, std::move(passable), {}, params);
}

/// Every cell's clearance against the brute force.
void expect_brute_force(const GridMap& map, const ClearanceMap& clearance) {
  const double tolerance = 1e-9 * map.cell_size();
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const double want = brute_clearance(map, x, y, clearance.max_clearance());
      ASSERT_NEAR(clearance.clearance(x, y), want, tolerance) << "cell (" << x << ", " << y << ")";
    }
  }
}

void expect_same(const ClearanceMap& a, const ClearanceMap& b) {
  for (std::uint32_t i = 0; i < a.map().cell_count(); ++i) ASSERT_EQ(a.clearance(CellId{i}), b.clearance(CellId{i})) << i;
}

void expect_same(const GridMap& a, const GridMap& b) {
  ASSERT_EQ(a.cell_count(), b.cell_count());
  for (std::uint32_t i = 0; i < a.cell_count(); ++i) {
    const CellId c{i};
    ASSERT_EQ(a.passable(c), b.passable(c)) << i;
    ASSERT_EQ(a.cost_multiplier(c), b.cost_multiplier(c)) << i;
  }
}

// ---- building -----------------------------------------------------------------------------

TEST(Clearance, EqualsBruteForceOnRandomMaps) {
  std::mt19937 rng(11);
  struct Case {
    GridMapParams params;
    double cap_cells;
  };
  const Case cases[] = {
      {{.cell_size = 1.0}, 0.4},  {{.cell_size = 1.0}, 0.5},  {{.cell_size = 1.0}, 1.0},
      {{.cell_size = 1.0}, 1.7},  {{.cell_size = 1.0}, 4.0},  {{.cell_size = 1.0}, 30.0},
      {{.cell_size = 0.3, .origin = {-2.5, 7.25}}, 2.2},      {{.cell_size = 2.5, .origin = {100, -40}}, 3.0},
  };
  for (const Case& c : cases) {
    for (const double density : {0.02, 0.15, 0.4}) {
      std::uniform_int_distribution<int> size(1, 33);
      const GridMap map = random_map(size(rng), size(rng), density, c.params, rng);
      SCOPED_TRACE(testing::Message() << map.width() << "x" << map.height() << " cell " << c.params.cell_size
                                      << " cap " << c.cap_cells << " cells, density " << density);
      const ClearanceMap clearance(map, {.max_clearance = c.cap_cells * c.params.cell_size});
      expect_brute_force(map, clearance);
    }
  }
}

TEST(Clearance, KnownValues) {
  // A 5-wide empty map: the middle column is 2.5 cells from the outside, the edge cells 0.5.
  GridMap map(5, 9);
  map.set_passable(2, 2, false);
  const ClearanceMap clearance(map, {.max_clearance = 10});
  EXPECT_EQ(clearance.clearance(2, 2), 0.0);
  EXPECT_EQ(clearance.clearance(0, 6), 0.5);
  EXPECT_EQ(clearance.clearance(2, 6), 2.5);
  EXPECT_EQ(clearance.clearance(3, 3), std::sqrt(0.5));  // diagonal to the blocked cell's corner
  EXPECT_EQ(clearance.clearance(2, 4), 1.5);             // two rows below it
  EXPECT_EQ(clearance.clearance(-1, 0), 0.0);            // outside the map
  EXPECT_TRUE(clearance.fits(map.cell(2, 6), 2.5));      // touching is allowed
  EXPECT_FALSE(clearance.fits(map.cell(2, 6), 2.5000001));
  EXPECT_FALSE(clearance.fits(map.cell(2, 2), 0.0));     // a blocked cell fits nothing
  EXPECT_EQ(clearance.reach(), 11);                      // (11 − ½) ≥ 10
  const ClearanceMap capped(map, {.max_clearance = 1.2});
  EXPECT_EQ(capped.clearance(2, 6), 1.2);
  EXPECT_FALSE(capped.fits(map.cell(2, 6), 1.3));  // above the cap: cannot tell, so no
}

TEST(Clearance, BadParametersThrow) {
  const GridMap map(4, 4, {.cell_size = 0.5});
  EXPECT_THROW(ClearanceMap(map, {.max_clearance = 0}), BuildError);
  EXPECT_THROW(ClearanceMap(map, {.max_clearance = -1}), BuildError);
  EXPECT_THROW(ClearanceMap(map, {.max_clearance = std::numeric_limits<double>::infinity()}), BuildError);
  EXPECT_THROW(ClearanceMap(map, {.max_clearance = 4097 * 0.5}), BuildError);
  ClearanceMap clearance(map, {.max_clearance = 1.0});
  EXPECT_THROW(SizeClassMap(clearance, 1.5), BuildError);
  EXPECT_THROW(SizeClassMap(clearance, -0.1), BuildError);
  EXPECT_THROW(SizeClassMap(clearance, std::nan("")), BuildError);
}

// ---- edits --------------------------------------------------------------------------------

/// One random edit: a cell or a rectangle blocked or freed, a terrain multiplier, a zone.
void random_edit(GridMap& map, std::vector<ZoneId>& zones, std::mt19937& rng) {
  std::uniform_int_distribution<int> kind(0, 9), x(0, map.width() - 1), y(0, map.height() - 1), side(1, 4);
  std::bernoulli_distribution coin(0.5);
  const int k = kind(rng);
  if (k < 4) {
    map.set_passable(x(rng), y(rng), coin(rng));
  } else if (k < 7) {
    const int x0 = x(rng), y0 = y(rng);
    map.set_passable(CellRect{x0, y0, x0 + side(rng), y0 + side(rng)}, coin(rng));
  } else if (k < 8) {
    map.set_cost_multiplier(x(rng), y(rng), std::uniform_real_distribution<double>(0.5, 4.0)(rng));
  } else if (k < 9 || zones.empty()) {
    const Vec2 c = map.cell_center(CellCoord{x(rng), y(rng)});
    zones.push_back(map.add_zone(CostZone::circle(c, 3.0 * map.cell_size(), coin(rng) ? 2.0 : -0.5)));
  } else {
    map.remove_zone(zones.back());
    zones.pop_back();
  }
}

TEST(Clearance, SyncAfterRandomEditsEqualsAFreshBuild) {
  std::mt19937 rng(5);
  for (const double cell : {1.0, 0.7}) {
    for (const double cap_cells : {0.5, 1.3, 3.0}) {
      SCOPED_TRACE(testing::Message() << "cell " << cell << " cap " << cap_cells);
      GridMap map = random_map(37, 29, 0.12, {.cell_size = cell}, rng);
      ClearanceMap clearance(map, {.max_clearance = cap_cells * cell});
      SizeClassMap small(clearance, 0.4 * cell);
      SizeClassMap large(clearance, std::min(cap_cells, 1.2) * cell);
      std::vector<ZoneId> zones;
      for (int round = 0; round < 60; ++round) {
        const int edits = round % 3 + 1;  // sometimes several edits between syncs
        for (int e = 0; e < edits; ++e) random_edit(map, zones, rng);
        EXPECT_TRUE(clearance.stale() || map.version() == clearance.synced_version());
        const ClearanceSync s = clearance.sync();
        EXPECT_FALSE(clearance.stale());
        EXPECT_FALSE(s.rebuilt);
        const ClearanceMap fresh(map, {.max_clearance = cap_cells * cell});
        ASSERT_NO_FATAL_FAILURE(expect_same(clearance, fresh));
        if (round % 20 == 0) {
          ASSERT_NO_FATAL_FAILURE(expect_brute_force(map, clearance));
        }
        for (SizeClassMap* sized : {&small, &large}) {
          sized->sync();
          EXPECT_FALSE(sized->stale());
          ClearanceMap again(map, {.max_clearance = cap_cells * cell});
          const SizeClassMap rebuilt(again, sized->radius());
          ASSERT_NO_FATAL_FAILURE(expect_same(sized->map(), rebuilt.map()));
        }
      }
    }
  }
}

TEST(Clearance, SyncReportsTheChangedCells) {
  GridMap map(40, 40);
  ClearanceMap clearance(map, {.max_clearance = 2.0});  // reach 3
  map.set_passable(CellRect{20, 10, 21, 13}, false);    // a 1×3 door
  const ClearanceSync s = clearance.sync();
  EXPECT_FALSE(s.rebuilt);
  // Cells within 2 of the door got nearer than the cap; nothing further changed.
  EXPECT_EQ(s.changed, (CellRect{18, 8, 23, 15}));
  EXPECT_LE(s.recomputed_cells, 5u * 7u);
  map.set_cost_multiplier(3, 3, 2.0);  // costs do not change clearance
  EXPECT_EQ(clearance.sync().recomputed_cells, 0u);
  EXPECT_EQ(clearance.sync().changed_cells, 0u);  // nothing to do
}

TEST(Clearance, RebuildsWhenTheLogNoLongerReachesBack) {
  std::mt19937 rng(2);
  GridMap map = random_map(30, 30, 0.1, {}, rng);
  ClearanceMap clearance(map, {.max_clearance = 1.5});
  SizeClassMap sized(clearance, 1.0);
  std::vector<ZoneId> zones;
  while (map.changes_since(clearance.synced_version())) random_edit(map, zones, rng);
  EXPECT_TRUE(clearance.sync().rebuilt);
  expect_same(clearance, ClearanceMap(map, {.max_clearance = 1.5}));
  EXPECT_TRUE(sized.sync().rebuilt);
  ClearanceMap again(map, {.max_clearance = 1.5});
  const SizeClassMap fresh(again, 1.0);
  expect_same(sized.map(), fresh.map());
}

TEST(Clearance, RaisingTheCapKeepsSizeClassesValid) {
  std::mt19937 rng(4);
  GridMap map = random_map(35, 30, 0.06, {.cell_size = 0.5}, rng);
  ClearanceMap clearance(map, {.max_clearance = 0.5});
  SizeClassMap small(clearance, 0.4);
  map.set_passable(CellRect{3, 3, 6, 4}, false);  // an edit not yet synced: the raise takes it in
  EXPECT_THROW(clearance.raise_max_clearance(std::nan("")), BuildError);
  EXPECT_EQ(clearance.max_clearance(), 0.5);
  clearance.raise_max_clearance(0.3);  // not above the cap: nothing happens
  EXPECT_EQ(clearance.max_clearance(), 0.5);
  clearance.raise_max_clearance(1.6);
  EXPECT_FALSE(clearance.stale());
  EXPECT_EQ(clearance.reach(), 4);
  expect_brute_force(map, clearance);
  SizeClassMap large(clearance, 1.6);
  small.sync();
  ClearanceMap fresh(map, {.max_clearance = 1.6});
  const SizeClassMap fresh_small(fresh, 0.4), fresh_large(fresh, 1.6);
  expect_same(small.map(), fresh_small.map());
  expect_same(large.map(), fresh_large.map());
}

// ---- planning -----------------------------------------------------------------------------

/// 31×21 cells, a wall down column 15 with a one-cell gap at row 5 and a three-cell gap at
/// rows 14–16.
GridMap gap_map() {
  GridMap map(31, 21);
  map.set_passable(CellRect{15, 0, 16, 21}, false);
  map.set_passable(15, 5, true);
  map.set_passable(CellRect{15, 14, 16, 17}, true);
  return map;
}

bool passes_column_15(const GridMap& map, const Path<CellId>& path, int y0, int y1) {
  return std::any_of(path.nodes.begin(), path.nodes.end(), [&](CellId c) {
    const CellCoord p = map.coord(c);
    return p.x == 15 && p.y >= y0 && p.y < y1;
  });
}

TEST(Clearance, SmallDiscTakesTheNarrowGapLargeOneGoesRound) {
  GridMap map = gap_map();
  ClearanceMap clearance(map, {.max_clearance = 1.0});
  SizeClassMap small(clearance, 0.4), large(clearance, 0.8);
  GridPlanner small_planner(small.map()), large_planner(large.map());
  const CellId start = map.cell(5, 5), goal = map.cell(25, 5);

  const auto a = small_planner.plan(start, goal);
  ASSERT_TRUE(a.status.succeeded());
  EXPECT_DOUBLE_EQ(a.path.cost, 20.0);  // straight through the one-cell gap
  EXPECT_TRUE(passes_column_15(map, a.path, 5, 6));

  EXPECT_FALSE(large.map().passable(15, 5));  // 0.5 from the wall on either side
  const auto b = large_planner.plan(start, goal);
  ASSERT_TRUE(b.status.succeeded());
  EXPECT_TRUE(passes_column_15(map, b.path, 14, 17));
  EXPECT_GT(b.path.cost, 30.0);  // down to row 15 and back

  // Close the wide gap: the small disc is unaffected, the large one cannot get through.
  const std::uint64_t before = large.map().version();
  map.set_passable(CellRect{15, 14, 16, 17}, false);
  EXPECT_EQ(small.sync().fit_changes, 3u);  // the gap's own cells
  EXPECT_GT(large.sync().fit_changes, 0u);
  const auto logged = large.map().changes_since(before);
  ASSERT_TRUE(logged.has_value());
  EXPECT_LE(logged->size(), 7u);  // one edit per row of changed cells: a small log to replay
  EXPECT_TRUE(large_planner.stale());
  EXPECT_LE(large_planner.sync().recomputed, 100u);  // incremental, not the map's 651 cells
  small_planner.sync();
  EXPECT_DOUBLE_EQ(small_planner.plan(start, goal).path.cost, 20.0);
  const auto c = large_planner.plan(start, goal);
  EXPECT_EQ(c.status.reason(), FailureReason::unreachable);
}

// Principle 15: a planner on a size class whose base map was edited reports stale, and its
// searches refuse (stale_world), until SizeClassMap::sync() (then the planner's own sync());
// before, it planned through the closed door: success, nothing stale.
TEST(Clearance, PlannersOnAnUnsyncedSizeClassAreStale) {
  GridMap map = gap_map();
  ClearanceMap clearance(map, {.max_clearance = 1.0});
  SizeClassMap large(clearance, 0.8);
  const CellId start = map.cell(5, 5), goal = map.cell(25, 5);
  for (const Algorithm a : {Algorithm::astar, Algorithm::dijkstra, Algorithm::bfs, Algorithm::jps,
                            Algorithm::jps_plus, Algorithm::theta}) {  // not ida: "unreachable" takes it minutes
    SCOPED_TRACE(to_string(a));
    GridPlanner planner(large.map(), {.algorithm = a});
    search::SearchHandle<CellId> kept = planner.make_search();
    ASSERT_TRUE(planner.plan(start, goal).status.succeeded());  // through the wide gap
    map.set_passable(CellRect{15, 14, 16, 17}, false);          // the door closes
    EXPECT_TRUE(large.stale());
    EXPECT_TRUE(large.map().behind());
    EXPECT_TRUE(planner.stale());
    EXPECT_TRUE(planner.plan(start, goal).status.has(StatusDetail::stale_world));
    EXPECT_TRUE(kept.run(start, goal).has(StatusDetail::stale_world));
    planner.sync();  // the planner alone cannot catch up: its map is behind
    EXPECT_TRUE(planner.stale());
    EXPECT_TRUE(planner.plan(start, goal).status.has(StatusDetail::stale_world));
    large.sync();
    EXPECT_FALSE(large.map().behind());
    EXPECT_TRUE(planner.stale());  // map() changed: the planner syncs next
    planner.sync();
    EXPECT_FALSE(planner.stale());
    EXPECT_EQ(planner.plan(start, goal).status.reason(), FailureReason::unreachable);
    EXPECT_EQ(kept.run(start, goal).reason(), FailureReason::unreachable);
    map.set_passable(CellRect{15, 14, 16, 17}, true);  // open again for the next algorithm
    large.sync();
    planner.sync();
  }
  // An edit that changes no fit still makes planners stale until the size class has looked;
  // then they need no sync of their own.
  GridPlanner planner(large.map());
  map.set_cost_multiplier(0, 0, 1.0);  // no change: nothing logged
  EXPECT_FALSE(planner.stale());
  map.set_passable(15, 10, true);  // a hole in the wall no disc of 0.8 fits, nor fits beside
  EXPECT_TRUE(planner.stale());
  const std::uint64_t version = large.map().version();
  EXPECT_EQ(large.sync().fit_changes, 0u);
  EXPECT_EQ(large.map().version(), version);
  EXPECT_FALSE(planner.stale());
  EXPECT_TRUE(planner.plan(start, goal).status.succeeded());
  // D* Lite refuses the same way, and a copy of map() follows nothing.
  DStarLite dstar(large.map());
  map.set_passable(15, 10, false);
  EXPECT_TRUE(dstar.plan(start, goal).has(StatusDetail::stale_world));
  const GridMap copy = large.map();
  EXPECT_FALSE(copy.behind());
  large.sync();
  EXPECT_TRUE(dstar.plan(start, goal).succeeded());
}

TEST(Clearance, SizeClassMapCopiesCosts) {
  GridMap map(12, 12);
  map.set_cost_multiplier(6, 6, 3.0);
  ClearanceMap clearance(map, {.max_clearance = 1.0});
  SizeClassMap sized(clearance, 1.0);
  EXPECT_EQ(sized.map().cost_multiplier(sized.map().cell(6, 6)), 3.0);
  const ZoneId zone = map.add_zone(CostZone::rect({2, 2}, {5, 5}, 1.5));
  map.set_cost_multiplier(8, 8, 0.5);
  const SizeClassSync s = sized.sync();
  EXPECT_EQ(s.fit_changes, 0u);
  EXPECT_EQ(s.cost_changes, 1u + 9u);  // the terrain cell and the zone's 3×3 centres
  for (std::uint32_t i = 0; i < map.cell_count(); ++i)
    EXPECT_EQ(sized.map().cost_multiplier(CellId{i}), map.cost_multiplier(CellId{i}));
  map.remove_zone(zone);
  sized.sync();
  EXPECT_EQ(sized.map().cost_multiplier(sized.map().cell(3, 3)), 1.0);
  EXPECT_LE(sized.map().min_cost_multiplier(), map.min_cost_multiplier());  // heuristics stay admissible
}

/// The path's segments between consecutive cell centres, sampled: every point keeps the disc
/// clear of blocked cells and of the outside (by the brute force).
void expect_clear_path(const GridMap& base, const Path<CellId>& path, double radius) {
  const double tolerance = 1e-9 * base.cell_size();
  for (std::size_t i = 0; i < path.nodes.size(); ++i) {
    const Vec2 a = base.cell_center(path.nodes[i]);
    ASSERT_GE(point_clearance(base, a), radius - tolerance) << "cell " << i;
    if (i + 1 == path.nodes.size()) break;
    const Vec2 b = base.cell_center(path.nodes[i + 1]);
    for (int k = 1; k < 8; ++k) ASSERT_GE(point_clearance(base, a + (b - a) * (k / 8.0)), radius - tolerance) << i;
  }
}

TEST(Clearance, PathsOnSizeClassMapsKeepTheDiscClear) {
  std::mt19937 rng(17);
  std::size_t found = 0;
  for (const double cell : {1.0, 0.6}) {
    GridMap map = random_map(40, 34, 0.08, {.cell_size = cell, .origin = {3, -1}}, rng);
    ClearanceMap clearance(map, {.max_clearance = 2.0 * cell});
    for (const double r_cells : {0.5, 0.8, 1.2, 1.5, 2.0}) {
      SizeClassMap sized(clearance, r_cells * cell);
      for (const DiagonalRule rule : {DiagonalRule::never, DiagonalRule::no_corner_cutting}) {
        SCOPED_TRACE(testing::Message() << "cell " << cell << " radius " << r_cells << " cells, rule " << to_string(rule));
        const GridPlanner planner(sized.map(), {.diagonal = rule});
        std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(map.cell_count() - 1));
        for (int q = 0; q < 6; ++q) {
          CellId s = CellId{pick(rng)}, g = CellId{pick(rng)};
          while (!sized.map().passable(s)) s = CellId{pick(rng)};
          while (!sized.map().passable(g)) g = CellId{pick(rng)};
          const auto result = planner.plan(s, g);
          if (!result.status.succeeded()) continue;
          ++found;
          ASSERT_NO_FATAL_FAILURE(expect_clear_path(map, result.path, r_cells * cell));
        }
      }
    }
  }
  EXPECT_GT(found, 60u);
}

// ---- allocation ---------------------------------------------------------------------------

TEST(ClearanceAllocation, SyncAllocatesNothingAfterWarmUp) {
  std::mt19937 rng(8);
  GridMap map = random_map(120, 90, 0.05, {}, rng);
  ClearanceMap clearance(map, {.max_clearance = 2.0});
  SizeClassMap small(clearance, 0.5), large(clearance, 1.5);
  GridPlanner small_planner(small.map()), large_planner(large.map());
  std::uniform_int_distribution<int> x(0, 116), y(0, 86);
  std::vector<CellRect> doors;
  for (int i = 0; i < 8; ++i) {
    const int x0 = x(rng), y0 = y(rng);
    doors.push_back(i % 2 == 0 ? CellRect{x0, y0, x0 + 1, y0 + 3} : CellRect{x0, y0, x0 + 3, y0 + 1});
  }
  std::size_t round = 0;
  const auto toggle_and_sync = [&] {
    const CellRect door = doors[round++ % doors.size()];
    map.set_passable(door, !map.passable(door.x0, door.y0));  // edits are not counted
    const std::size_t before = test::allocation_count();
    const std::size_t changed = clearance.sync().changed_cells;
    small.sync();
    large.sync();
    small_planner.sync();
    large_planner.sync();
    return std::pair{test::allocation_count() - before, changed};
  };
  // Warm-up: until the size-class maps' change logs have grown to their full size.
  const auto warm = [&] { return std::min(small.map().version(), large.map().version()) >= 3 * ChangeLog<GridChange>::capacity; };
  for (int i = 0; i < 20000 && !warm(); ++i) toggle_and_sync();
  ASSERT_TRUE(warm()) << "the doors did not change the size-class maps";
  std::size_t allocations = 0, changed = 0;
  for (int i = 0; i < 200; ++i) {
    const auto [a, c] = toggle_and_sync();
    allocations += a;
    changed += c;
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(changed, 0u);
}

}  // namespace
}  // namespace waymark::grid_clearance_test
