#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/heuristics.hpp"

namespace waymark::grid_map_test {
using namespace grid;
namespace {

std::vector<CellCoord> neighbours(const GridSpace& space, int x, int y) {
  std::vector<CellCoord> out;
  space.for_each_successor(space.map().cell(x, y), [&](CellId c, Cost) { out.push_back(space.map().coord(c)); });
  std::sort(out.begin(), out.end(), [](CellCoord a, CellCoord b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  return out;
}

TEST(GridMap, WorldAndCellConversions) {
  GridMap map(10, 5, GridMapParams{.cell_size = 2.0, .origin = {100, -10}});
  EXPECT_EQ(map.cell_center({0, 0}), (Vec2{101, -9}));
  EXPECT_EQ(map.cell_center({9, 4}), (Vec2{119, -1}));
  EXPECT_EQ(map.world_to_cell({101.9, -8.1}), (CellCoord{0, 0}));
  EXPECT_EQ(map.world_to_cell({119.99, -0.01}), (CellCoord{9, 4}));
  EXPECT_FALSE(map.world_to_cell({99.9, -9}).has_value());
  EXPECT_FALSE(map.world_to_cell({120, -9}).has_value());   // x past the last column
  EXPECT_FALSE(map.world_to_cell({110, 0}).has_value());    // y past the last row
  EXPECT_FALSE(map.world_to_cell({NAN, 0}).has_value());
  // The width/height confusion the tutorials had: a 10x5 map accepts x=9 but not y=9.
  EXPECT_TRUE(map.in_bounds(9, 4));
  EXPECT_FALSE(map.in_bounds(4, 9));
  EXPECT_EQ(map.coord(map.cell(7, 3)), (CellCoord{7, 3}));
}

TEST(GridMap, MoveCostsUseCellSizeAndMeanMultiplier) {
  GridMap map(3, 3, GridMapParams{.cell_size = 2.0});
  EXPECT_DOUBLE_EQ(map.move_cost(map.cell(0, 0), map.cell(1, 0), false), 2.0);
  EXPECT_DOUBLE_EQ(map.move_cost(map.cell(0, 0), map.cell(1, 1), true), 2.0 * std::sqrt(2.0));
  map.set_cost_multiplier(1, 0, 3.0);
  EXPECT_DOUBLE_EQ(map.move_cost(map.cell(0, 0), map.cell(1, 0), false), 2.0 * 2.0);
  EXPECT_DOUBLE_EQ(map.move_cost(map.cell(1, 0), map.cell(0, 0), false), 2.0 * 2.0);
}

TEST(GridMap, ZonesAddAndClampCosts) {
  GridMap map(10, 10, GridMapParams{.min_cost_multiplier = 0.25});
  map.add_zone(CostZone::circle({5, 5}, 1.0, 4.0));      // danger: centres within 1 of (5,5)
  map.add_zone(CostZone::rect({0, 0}, {2, 2}, -10.0));   // reward, clamped
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(5, 5)), 5.0);  // centre (5.5,5.5) is 0.71 away
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(4, 4)), 5.0);
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(6, 5)), 1.0);  // centre (6.5,5.5) is 1.58 away
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(7, 7)), 1.0);
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(1, 1)), 0.25);
  EXPECT_DOUBLE_EQ(map.cost_multiplier(map.cell(2, 2)), 1.0);  // centre (2.5,2.5) outside
  EXPECT_DOUBLE_EQ(map.min_cost_multiplier(), 0.25);
  EXPECT_TRUE(map.has_costs());
}

// 3x3 map, centre (1,1); blocked: (1,0) north of centre.
class DiagonalRules : public ::testing::Test {
 protected:
  void SetUp() override { map.set_passable(1, 0, false); }
  GridMap map{3, 3};
};

TEST_F(DiagonalRules, NeverIsFourConnected) {
  const GridSpace s(map, DiagonalRule::never);
  EXPECT_EQ(neighbours(s, 1, 1), (std::vector<CellCoord>{{0, 1}, {2, 1}, {1, 2}}));
}

TEST_F(DiagonalRules, AlwaysAllowsEveryPassableDiagonal) {
  const GridSpace s(map, DiagonalRule::always);
  EXPECT_EQ(neighbours(s, 1, 1).size(), 7u);
}

TEST_F(DiagonalRules, NoCornerCuttingNeedsBothSides) {
  const GridSpace s(map, DiagonalRule::no_corner_cutting);
  // (0,0) and (2,0) would pass the blocked (1,0).
  EXPECT_EQ(neighbours(s, 1, 1), (std::vector<CellCoord>{{0, 1}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}));
}

TEST_F(DiagonalRules, AtMostOneObstacle) {
  map.set_passable(0, 1, false);  // now (0,0) is squeezed between two walls
  const GridSpace s(map, DiagonalRule::at_most_one_obstacle);
  EXPECT_EQ(neighbours(s, 1, 1), (std::vector<CellCoord>{{2, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}));
  const GridSpace always(map, DiagonalRule::always);
  EXPECT_EQ(neighbours(always, 1, 1).size(), 6u);
}

TEST(GridMap, OneByOneAndOneByN) {
  GridMap one(1, 1);
  const GridSpace s(one, DiagonalRule::always);
  EXPECT_TRUE(neighbours(s, 0, 0).empty());
  GridMap row(5, 1);
  const GridSpace r(row, DiagonalRule::no_corner_cutting);
  EXPECT_EQ(neighbours(r, 0, 0), (std::vector<CellCoord>{{1, 0}}));
  EXPECT_EQ(neighbours(r, 2, 0), (std::vector<CellCoord>{{1, 0}, {3, 0}}));
}

TEST(Heuristics, ValuesAndAdmissibilityTable) {
  GridMap map(10, 10);
  const CellId a = map.cell(1, 2), b = map.cell(4, 8);  // dx 3, dy 6
  EXPECT_DOUBLE_EQ(ManhattanHeuristic(map)(a, b), 9);
  EXPECT_DOUBLE_EQ(OctileHeuristic(map)(a, b), 6 + 3 * (std::sqrt(2.0) - 1));
  EXPECT_DOUBLE_EQ(EuclideanHeuristic(map)(a, b), std::sqrt(45.0));
  EXPECT_DOUBLE_EQ(ChebyshevHeuristic(map)(a, b), 6);
  EXPECT_DOUBLE_EQ(AnyGridHeuristic(map, HeuristicKind::zero)(a, b), 0);
  for (auto k : {HeuristicKind::manhattan, HeuristicKind::octile, HeuristicKind::euclidean, HeuristicKind::chebyshev})
    EXPECT_DOUBLE_EQ(AnyGridHeuristic(map, k)(a, b), AnyGridHeuristic(map, k)(b, a));
  EXPECT_FALSE(is_admissible(HeuristicKind::manhattan, DiagonalRule::no_corner_cutting));
  EXPECT_TRUE(is_admissible(HeuristicKind::manhattan, DiagonalRule::never));
  EXPECT_TRUE(is_admissible(HeuristicKind::octile, DiagonalRule::always));
  EXPECT_EQ(default_heuristic(DiagonalRule::never), HeuristicKind::manhattan);
  EXPECT_EQ(default_heuristic(DiagonalRule::at_most_one_obstacle), HeuristicKind::octile);
  // Terrain cheaper than 1 scales the estimate down so it stays admissible.
  map.set_cost_multiplier(0, 0, 0.5);
  EXPECT_DOUBLE_EQ(ChebyshevHeuristic(map)(a, b), 3);
}

TEST(Names, RoundTrip) {
  for (auto r : {DiagonalRule::never, DiagonalRule::always, DiagonalRule::at_most_one_obstacle,
                 DiagonalRule::no_corner_cutting})
    EXPECT_EQ(parse_diagonal_rule(to_string(r)), r);
  for (auto k : {HeuristicKind::manhattan, HeuristicKind::octile, HeuristicKind::euclidean,
                 HeuristicKind::chebyshev, HeuristicKind::zero})
    EXPECT_EQ(parse_heuristic(to_string(k)), k);
  EXPECT_FALSE(parse_diagonal_rule("sometimes").has_value());
  EXPECT_FALSE(parse_heuristic("octagonal").has_value());
}

}  // namespace
}  // namespace waymark::grid_map_test
