// Shared geometry and world positions: vectors, segments, boxes, and paths as polylines in
// world units from grids (cell size and origin) and graphs (vertex coordinates).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/core/change_log.hpp"
#include "waymark/core/geometry.hpp"
#include "waymark/core/polyline.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::core_geometry_test {
namespace {

TEST(Geometry, VectorsSegmentsAndBoxes) {
  const Vec2 a{1, 2}, b{4, 6};
  EXPECT_EQ(a + b, (Vec2{5, 8}));
  EXPECT_EQ(b - a, (Vec2{3, 4}));
  EXPECT_EQ(2.0 * a, (Vec2{2, 4}));
  EXPECT_DOUBLE_EQ(distance(a, b), 5);
  EXPECT_DOUBLE_EQ(dot(a, b), 16);
  EXPECT_DOUBLE_EQ(cross(Vec2{1, 0}, Vec2{0, 1}), 1);  // anticlockwise is positive
  EXPECT_EQ(lerp(a, b, 0.5), (Vec2{2.5, 4}));
  EXPECT_NEAR(length(normalized(b - a)), 1, 1e-15);
  EXPECT_EQ(normalized(Vec2{}), (Vec2{}));
  EXPECT_EQ(cross(Vec3{1, 0, 0}, Vec3{0, 1, 0}), (Vec3{0, 0, 1}));
  EXPECT_EQ(drop_z(lift(a, 7)), a);

  const Segment2 s{{0, 0}, {10, 0}};
  EXPECT_DOUBLE_EQ(s.length(), 10);
  EXPECT_EQ(s.closest_point({3, 5}), (Vec2{3, 0}));
  EXPECT_EQ(s.closest_point({-4, 1}), (Vec2{0, 0}));  // clamped to the ends
  EXPECT_EQ(s.closest_point({14, -1}), (Vec2{10, 0}));
  EXPECT_DOUBLE_EQ(s.distance_to({3, 5}), 5);
  const Segment2 point{{2, 2}, {2, 2}};
  EXPECT_EQ(point.closest_point({9, 9}), (Vec2{2, 2}));

  Aabb3 box;
  EXPECT_TRUE(box.empty());
  box.expand(Vec3{1, 2, 3});
  box.expand(Vec3{-1, 5, 0});
  EXPECT_FALSE(box.empty());
  EXPECT_EQ(box.min, (Vec3{-1, 2, 0}));
  EXPECT_EQ(box.max, (Vec3{1, 5, 3}));
  EXPECT_TRUE(box.contains({0, 3, 1}));
  EXPECT_FALSE(box.contains({0, 3, 4}));
  EXPECT_TRUE(box.overlaps(Aabb3::around({1, 5, 3}, {2, 6, 4})));  // touching counts
  EXPECT_FALSE(box.overlaps(Aabb3::around({1.5, 5, 3}, {2, 6, 4})));
  EXPECT_EQ(Aabb2::around({0, 0}, {4, 2}).center(), (Vec2{2, 1}));
}

TEST(Geometry, ConvexMeansLeftTurnsMakingOneFullTurn) {
  const std::vector<Vec2> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  EXPECT_TRUE(polygon_convex_ccw(square));
  const std::vector<Vec2> dent{{0, 0}, {2, 0}, {1, 0.5}, {2, 2}, {0, 2}};
  EXPECT_FALSE(polygon_convex_ccw(dent));
  // A pentagram: every corner turns left, but the turns go twice round.
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k) {
    const double a = 2 * std::numbers::pi * (2 * k) / 5;
    star.push_back({std::cos(a), std::sin(a)});
  }
  EXPECT_GT(polygon_signed_area(star), 0);
  EXPECT_FALSE(polygon_convex_ccw(star));
}

// Far from the origin a small polygon keeps its area: products of whole coordinates near 1e8
// (1e16) lost it to rounding, and a 1-by-1 obstacle there was "on one line" (issue 41 review).
TEST(Geometry, SmallPolygonsFarFromTheOriginKeepTheirArea) {
  for (const double far : {0.0, 1e8, -3e9, 1e12}) {
    const std::vector<Vec2> square{{far, far}, {far + 1, far}, {far + 1, far + 1}, {far, far + 1}};
    EXPECT_EQ(polygon_signed_area(square), 1) << far;
    const std::vector<Vec2> half{{far + 0.5, far}, {far + 1, far}, {far + 1, far + 0.5}, {far + 0.5, far + 0.5}};
    EXPECT_EQ(polygon_signed_area(half), 0.25) << far;
    const std::vector<Vec2> cw(square.rbegin(), square.rend());
    EXPECT_EQ(polygon_signed_area(cw), -1) << far;
  }
}

TEST(WorldPositions, GridPathsBecomePolylinesThroughCellCentres) {
  grid::GridMap map(20, 10, grid::GridMapParams{.cell_size = 2.5, .origin = {100, -50}});
  EXPECT_EQ(map.position(map.cell(0, 0)), (Vec3{101.25, -48.75, 0}));
  EXPECT_EQ(map.cell_center(map.cell(3, 2)), (Vec2{108.75, -43.75}));
  grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  ASSERT_TRUE(planner_search.run(map.cell(1, 1), map.cell(18, 7)).succeeded());
  const std::vector<Vec3> line = to_polyline(map, planner_search.path().nodes);
  ASSERT_EQ(line.size(), planner_search.path().nodes.size());
  EXPECT_EQ(line.front(), map.position(map.cell(1, 1)));
  EXPECT_EQ(line.back(), map.position(map.cell(18, 7)));
  // Uniform costs are step lengths in world units: the polyline is exactly as long.
  EXPECT_NEAR(polyline_length(line), planner_search.path().cost, 1e-9);
  std::vector<Vec3> reused;
  reused.reserve(64);
  to_polyline(map, planner_search.path().nodes, reused);
  EXPECT_EQ(reused, line);
  EXPECT_EQ(polyline_length(std::vector<Vec3>{}), 0);
}

TEST(WorldPositions, GraphPathsBecomePolylinesThroughVertexCoordinates) {
  const graph::Graph g =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  graph::GraphPlanner planner(g, {.algorithm = graph::Algorithm::astar});
  search::SearchHandle<VertexId> planner_search = planner.make_search();
  ASSERT_TRUE(planner_search.run(VertexId{0}, VertexId{5000}).succeeded());
  const std::vector<Vec3> line = to_polyline(g, planner_search.path().nodes);
  ASSERT_EQ(line.size(), planner_search.path().nodes.size());
  for (std::size_t i = 0; i < line.size(); ++i) EXPECT_EQ(line[i], g.position(planner_search.path().nodes[i]));
  // Oldenburg's lengths are the distances between its coordinates (to rounding).
  EXPECT_NEAR(polyline_length(line), planner_search.path().cost, 1e-3 * planner_search.path().cost);
}

struct Edit {
  std::uint64_t version = 0;
  int what = 0;
};

TEST(ChangeLog, KeepsTheRecentEditsAndKnowsWhenItNoLongerReachesBack) {
  ChangeLog<Edit> log;
  EXPECT_EQ(log.version(), 0u);
  ASSERT_TRUE(log.since(0).has_value());
  EXPECT_TRUE(log.since(0)->empty());
  for (int i = 1; i <= 5; ++i) log.record(Edit{0, i});
  EXPECT_EQ(log.version(), 5u);
  const auto recent = log.since(3);
  ASSERT_TRUE(recent.has_value());
  ASSERT_EQ(recent->size(), 2u);
  EXPECT_EQ((*recent)[0].what, 4);
  EXPECT_EQ((*recent)[0].version, 4u);
  for (std::size_t i = 0; i < 3 * ChangeLog<Edit>::capacity; ++i) log.record(Edit{0, 0});
  EXPECT_FALSE(log.since(3).has_value());
  const std::uint64_t v = log.version();
  ASSERT_TRUE(log.since(v - 10).has_value());
  EXPECT_EQ(log.since(v - 10)->size(), 10u);
}

}  // namespace
}  // namespace waymark::core_geometry_test
