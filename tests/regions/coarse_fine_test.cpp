// Coarse-then-fine planning: valid paths, never cheaper than the optimum, found whenever a
// path exists, on random grids with geodesic and euclidean regions.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <sstream>
#include <set>
#include <vector>

#include "support/error_text.hpp"
#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/regions/coarse_fine.hpp"
#include "waymark/regions/labeling.hpp"

namespace waymark::regions::coarse_fine_test {
namespace {

using grid::CellCoord;
using grid::DiagonalRule;
using grid::GridMap;
using grid::GridSpace;

TEST(CoarseFine, ValidPathsNeverBelowOptimalAndFoundWheneverOneExists) {
  // Every grid in release; every third under ASan (7 of 20 per metric and rule: a third of the
  // 7 s it took there, support/sanitized.hpp).
  constexpr int grid_step = test::full_or_sanitized(1, 3);
  std::mt19937 rng(44);
  std::size_t queries = 0, reachable = 0, fallbacks = 0, optimal = 0;
  double worst_ratio = 1;
  for (const Metric metric : {Metric::geodesic, Metric::euclidean}) {
    for (const DiagonalRule rule : {DiagonalRule::never, DiagonalRule::no_corner_cutting, DiagonalRule::always}) {
      for (int i = 0; i < 20; i += grid_step) {
        const GridMap map = test::random_grid({40, 30, 0.15 + 0.02 * (i % 8), i % 4 == 0}, rng);
        if (map.passable_count() < 2) continue;
        const auto seeds = test::random_seeds(map, 2 + i % 10, rng);
        const Regions r = label_grid(map, seeds, {.diagonal = rule, .metric = metric});
        const GridSpace space(map, rule);
        for (const unsigned margin : {0u, 1u}) {
          CoarseFinePlanner planner(map, r, {.diagonal = rule, .corridor_margin = margin});
          for (int q = 0; q < 15; ++q) {
            const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
            const Cost best = test::reference_distances(space, s)[g.value];
            const Status st = planner.plan(s, g);
            ++queries;
            if (best == infinite_cost) {
              EXPECT_TRUE(st.failed());
              EXPECT_TRUE(planner.path().empty());
              continue;
            }
            ++reachable;
            ASSERT_TRUE(st.succeeded()) << "a path exists";
            EXPECT_TRUE(test::is_valid_path(space, planner.path(), s, g));
            EXPECT_GE(planner.path().cost, best - 1e-9 * std::max(1.0, best));
            if (planner.path().cost <= best + 1e-9 * std::max(1.0, best)) ++optimal;
            if (best > 0) worst_ratio = std::max(worst_ratio, planner.path().cost / best);
            fallbacks += planner.stats().fallback ? 1 : 0;
            if (!planner.stats().fallback) {
              // The fine path stays inside the corridor's regions (margin 0).
              if (margin == 0) {
                const std::set<RegionId> corridor(planner.corridor().begin(), planner.corridor().end());
                for (const CellId c : planner.path().nodes) {
                  EXPECT_EQ(corridor.count(r.label(c.value)), 1u);
                }
              }
              EXPECT_EQ(planner.corridor().front(), r.label(s.value));
              EXPECT_EQ(planner.corridor().back(), r.label(g.value));
            }
            if (metric == Metric::geodesic) {
              EXPECT_FALSE(planner.stats().fallback) << "geodesic regions are connected";
            }
          }
        }
      }
    }
  }
  EXPECT_GT(reachable, 1000u / grid_step);
  EXPECT_GT(fallbacks, 0u) << "euclidean regions cut by walls should need the fallback sometimes";
  EXPECT_GT(optimal, reachable / 2);
  std::cout << "[ coarse-fine ] " << queries << " queries, " << reachable << " reachable, " << optimal
            << " optimal, " << fallbacks << " fallbacks, worst cost ratio " << worst_ratio << "\n";
}

TEST(CoarseFine, StaysInItsCorridorAndRefusesBadOrStaleQueries) {
  // Two euclidean regions split by a wall; both ends in region 0, a straight walk.
  //   x: 0123456
  //   y0 .......
  //   y1 .@@@@@.
  //   y2 .......
  const std::string text = "type octile\nheight 3\nwidth 7\nmap\n.......\n.@@@@@.\n.......\n";
  std::istringstream in(text);
  const GridMap map = io::parse_movingai_map(in, "cut.map");
  const std::vector<CellCoord> seeds{{3, 0}, {3, 2}};
  const Regions r = label_grid(map, seeds, {.metric = Metric::euclidean});
  CoarseFinePlanner strict(map, r, {.fallback = false});
  CoarseFinePlanner lenient(map, r);
  const CellId s = map.cell(2, 0), g = map.cell(5, 0);  // both in region 0: a straight corridor walk
  EXPECT_TRUE(strict.plan(s, g).succeeded());
  EXPECT_FALSE(strict.stats().fallback);
  EXPECT_EQ(strict.stats().corridor_regions, 1u);
  EXPECT_DOUBLE_EQ(strict.path().cost, 3.0);
  // Blocked and off-map ends are invalid queries; an edit after labelling makes the planner refuse.
  EXPECT_TRUE(strict.plan(map.cell(1, 1), g).has(StatusDetail::invalid_query));
  EXPECT_TRUE(strict.plan(CellId{9999}, g).has(StatusDetail::invalid_query));
  GridMap edited = map;
  const Regions before = label_grid(edited, seeds);
  CoarseFinePlanner stale(edited, before);
  edited.set_passable(0, 0, false);
  EXPECT_TRUE(stale.plan(s, g).has(StatusDetail::stale_world));
  EXPECT_TRUE(lenient.plan(s, g).succeeded());
}

TEST(CoarseFine, FallbackFindsWhatTheCorridorCannot) {
  // Region 0's seed (0,0); region 1's seed (6,0). The cell (0,2) is nearer seed 0 in a
  // straight line, but a wall keeps it from region 0's other cells: reaching it from (0,0)
  // needs region 1's cells, so with a corridor of region 0 only the fine search fails.
  //   x: 0123456
  //   y0 .......
  //   y1 @@@@@@.
  //   y2 .......
  const std::string text = "type octile\nheight 3\nwidth 7\nmap\n.......\n@@@@@@.\n.......\n";
  std::istringstream in(text);
  const GridMap map = io::parse_movingai_map(in, "detour.map");
  const Regions r = label_grid(map, std::vector<CellCoord>{{0, 0}, {6, 0}}, {.metric = Metric::euclidean});
  ASSERT_EQ(r.label(map.cell(0, 2).value), 0u);
  ASSERT_EQ(r.label(map.cell(1, 0).value), 0u);
  CoarseFinePlanner lenient(map, r);
  ASSERT_TRUE(lenient.plan(map.cell(1, 0), map.cell(0, 2)).succeeded());
  EXPECT_TRUE(lenient.stats().fallback);
  CoarseFinePlanner strict(map, r, {.fallback = false});
  EXPECT_TRUE(strict.plan(map.cell(1, 0), map.cell(0, 2)).failed());
  EXPECT_FALSE(strict.stats().fallback);
  EXPECT_TRUE(strict.path().empty());
}

TEST(CoarseFine, RefusesRegionsOfAnotherMapAndTooWideMargins) {
  const GridMap small(4, 4), large(8, 8);
  const Regions r = label_grid(small, std::vector<CellCoord>{{0, 0}});
  EXPECT_EQ(test::error_text<BuildError>([&] { CoarseFinePlanner p(large, r); }),
            "the regions label 16 elements, the map has 64 cells");
  EXPECT_NE(test::error_text<BuildError>([&] { CoarseFinePlanner p(small, r, {.corridor_margin = 99}); }), "");
}

}  // namespace
}  // namespace waymark::regions::coarse_fine_test
