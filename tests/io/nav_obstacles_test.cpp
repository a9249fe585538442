#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <variant>

#include "support/error_text.hpp"
#include "waymark/io/nav_obstacles.hpp"

namespace waymark::io_nav_obstacles_test {
using namespace io;
using navmesh::BoxObstacle;
using navmesh::CylinderObstacle;
using navmesh::PrismObstacle;
namespace {

std::vector<NavObstacleLine> parse(const std::string& text, const NavObstacleOptions& o = {}) {
  std::istringstream in(text);
  return parse_nav_obstacles(in, "level.obstacles", o);
}

std::string error(const std::string& text, const NavObstacleOptions& o = {}) {
  return test::error_text<LoadError>([&] { (void)parse(text, o); });
}

TEST(NavObstaclesFile, ReadsEachShapeWithItsLine) {
  const auto read = parse(
      "# crates\r\ncylinder 1 0.5 2 0.75 1.5\n\n  box 4 2 6 3 0 5   # corners in any order\nprism 0 2  0 0  2 0  2 2\n");
  ASSERT_EQ(read.size(), 3u);
  const auto& c = std::get<CylinderObstacle>(read[0].obstacle);
  EXPECT_EQ(read[0].line, 2u);
  EXPECT_EQ(c.foot, (Vec3{1, 0.5, 2}));
  EXPECT_EQ(c.radius, 0.75);
  EXPECT_EQ(c.height, 1.5);
  const auto& b = std::get<BoxObstacle>(read[1].obstacle);
  EXPECT_EQ(read[1].line, 4u);
  EXPECT_EQ(b.min, (Vec3{3, 0, 5}));
  EXPECT_EQ(b.max, (Vec3{4, 2, 6}));
  const auto& p = std::get<PrismObstacle>(read[2].obstacle);
  EXPECT_EQ(read[2].line, 5u);
  EXPECT_EQ(p.min_y, 0);
  EXPECT_EQ(p.max_y, 2);
  ASSERT_EQ(p.corners.size(), 3u);
  EXPECT_EQ(p.corners[2], (Vec2{2, 2}));
  EXPECT_TRUE(parse("# nothing\n\n").empty());
}

TEST(NavObstaclesFile, RefusesBadLinesNamingFileLineAndReason) {
  EXPECT_EQ(error("cylinder 1 2 3 0.5 2\nsphere 1 2 3\n"),
            "level.obstacles:2: expected 'cylinder', 'box' or 'prism', got 'sphere'");
  EXPECT_EQ(error("cylinder 1 2 3 0.5\n"), "level.obstacles:1: expected 'cylinder X Y Z RADIUS HEIGHT', got 4 numbers");
  EXPECT_EQ(error("box 0 0 0 1 1 x\n"), "level.obstacles:1: expected a finite number, got 'x'");
  EXPECT_EQ(error("cylinder 0 nan 0 1 1\n"), "level.obstacles:1: expected a finite number, got 'nan'");
  EXPECT_EQ(error("cylinder 0 0 0 0 1\n"), "level.obstacles:1: the cylinder: its radius must be finite and > 0");
  // Finite but beyond any level: out of range, with the limit (1e200 was taken, and carved
  // nothing; a prism's corner there overflowed its convexity test: "not convex").
  const std::string range = " is out of range (past navmesh::max_obstacle_coordinate = 1e+15 either way)";
  EXPECT_EQ(error("cylinder 1e200 0 0 1 2\n"), "level.obstacles:1: the cylinder: its foot" + range);
  EXPECT_EQ(error("cylinder 0 0 0 1e200 2\n"), "level.obstacles:1: the cylinder: its radius" + range);
  EXPECT_EQ(error("cylinder 0 0 0 1 1e308\n"), "level.obstacles:1: the cylinder: its height" + range);
  EXPECT_EQ(error("box -1e308 0 0 1e308 1 1\n"), "level.obstacles:1: the box: a corner" + range);
  EXPECT_EQ(error("prism 0 1 0 0 1 0 1e200 1e200\n"), "level.obstacles:1: the prism: a corner" + range);
  EXPECT_EQ(error("prism -1e200 1 0 0 1 0 1 1\n"), "level.obstacles:1: the prism: a height" + range);
  EXPECT_EQ(parse("box -1e15 -1 -1e15 1e15 1 1e15\n").size(), 1u);
  EXPECT_EQ(error("box 0 0 0 1 0 1\n"), "level.obstacles:1: the box: its min must be below its max on every axis");
  EXPECT_EQ(error("prism 0 2 0 0 1 1 2 2\n"), "level.obstacles:1: the prism: its corners are all on one line");
  // An arrow head: the corner at (1, 1) turns the wrong way.
  EXPECT_EQ(error("prism 0 2 0 0 2 0 1 1 2 2 0 2\n"),
            "level.obstacles:1: the prism: its corners do not make a convex polygon");
  EXPECT_EQ(error("prism 0 2 0 0 2 0 2 0 0 2\n"), "level.obstacles:1: the prism: two corners in a row are the same point");
  // A pentagram: every corner turns left, twice round.
  EXPECT_EQ(error("prism 0 2 0 10 5.878 -8.09 -9.511 3.09 9.511 3.09 -5.878 -8.09\n"),
            "level.obstacles:1: the prism: its corners do not make a convex polygon");
  EXPECT_EQ(error("prism 2 0 0 0 2 0 2 2\n"),
            "level.obstacles:1: the prism: its heights must be finite with min_y below max_y");
  EXPECT_EQ(error("prism 0 2 0 0 2 0 2\n"),
            "level.obstacles:1: expected 'prism Y0 Y1 X Z X Z X Z ... (3 to 64 corners)', got 7 numbers");
}

TEST(NavObstaclesFile, RefusesMoreThanItsLimitAsItReads) {
  EXPECT_EQ(parse("box 0 0 0 1 1 1\nbox 0 0 0 1 1 1\n", {.max_obstacles = 2}).size(), 2u);
  EXPECT_EQ(error("box 0 0 0 1 1 1\nbox 0 0 0 1 1 1\nbox 0 0 0 1 1 1\n", {.max_obstacles = 2}),
            "level.obstacles:3: more than 2 obstacles (NavObstacleOptions::max_obstacles)");
}

TEST(NavObstacleShapes, BoundsHoldTheWholeShape) {
  const Aabb3 c = navmesh::bounds(CylinderObstacle{{1, 2, 3}, 0.5, 4});
  EXPECT_EQ(c.min, (Vec3{0.5, 2, 2.5}));
  EXPECT_EQ(c.max, (Vec3{1.5, 6, 3.5}));
  const Aabb3 p = navmesh::bounds(PrismObstacle{{{0, 0}, {2, 0}, {1, 3}}, -1, 1});
  EXPECT_EQ(p.min, (Vec3{0, -1, 0}));
  EXPECT_EQ(p.max, (Vec3{2, 1, 3}));
  // Clockwise corners are as good as counter-clockwise ones.
  EXPECT_FALSE(navmesh::find_obstacle_problem(PrismObstacle{{{0, 0}, {1, 3}, {2, 0}}, 0, 1}));
  EXPECT_TRUE(navmesh::find_obstacle_problem(PrismObstacle{{{0, 0}, {1, 3}}, 0, 1}));
  // A 1-by-1 prism in a level near 1e8 is valid (it was "on one line": the area lost to rounding).
  EXPECT_FALSE(navmesh::find_obstacle_problem(
      PrismObstacle{{{1e8 + 9, 1e8 + 9}, {1e8 + 10, 1e8 + 9}, {1e8 + 10, 1e8 + 10}, {1e8 + 9, 1e8 + 10}}, 0, 2}));
}

}  // namespace
}  // namespace waymark::io_nav_obstacles_test
