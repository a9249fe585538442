// ObstacleWorld's disc contacts and clearance (issue 14) with analytic answers, against every
// collider kind, the map's cells and its border; and the colliders and settings it refuses,
// with messages that name the limit (issue 41).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "support/obstacle_world_checks.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer_obstacle_world_contacts_test {
namespace {

using namespace waymark::steer;
using test::expect_vec;
using test::inf;
using test::tol;

// ---- disc contacts ------------------------------------------------------------------------------

TEST(ObstacleWorldContacts, EachKind) {
  std::vector<Contact> out;
  {
    ObstacleWorld world;
    world.add(Circle{{0, 0}, 2});
    ASSERT_EQ(world.disc_contacts({3, 0}, 1.5, all_layers, out), 1u);
    expect_vec(out[0].normal, {1, 0});
    EXPECT_NEAR(out[0].depth, 0.5, tol);
    ASSERT_EQ(world.disc_contacts({0, 1}, 0.5, all_layers, out), 1u);  // centre inside: out by the nearest way
    expect_vec(out[0].normal, {0, 1});
    EXPECT_NEAR(out[0].depth, 1.5, tol);
    EXPECT_EQ(world.disc_contacts({3, 0}, 1.0, all_layers, out), 0u);  // touching only: the disc is open
    EXPECT_EQ(world.disc_contacts({3, 0}, 1.5, layer_bit(1), out), 0u);
    EXPECT_TRUE(out.empty());
  }
  {
    ObstacleWorld world;
    world.add(Box{{0, 0}, {4, 2}});
    ASSERT_EQ(world.disc_contacts({5, 3}, 2, all_layers, out), 1u);  // beside the corner (4, 2)
    expect_vec(out[0].normal, Vec2{1, 1} / std::sqrt(2.0));
    EXPECT_NEAR(out[0].depth, 2 - std::sqrt(2.0), tol);
    ASSERT_EQ(world.disc_contacts({1, 1.5}, 0.25, all_layers, out), 1u);  // inside, nearest the top
    expect_vec(out[0].normal, {0, 1});
    EXPECT_NEAR(out[0].depth, 0.75, tol);
  }
  {
    ObstacleWorld world;
    world.add(OrientedBox{{0, 0}, {2, 1}, std::numbers::pi / 2});  // x in [−1, 1], y in [−2, 2]
    ASSERT_EQ(world.disc_contacts({1.5, 0.5}, 1, all_layers, out), 1u);
    expect_vec(out[0].normal, {1, 0});
    EXPECT_NEAR(out[0].depth, 0.5, tol);
  }
  {
    ObstacleWorld world;
    world.add(Polygon{{{0, 0}, {4, 0}, {0, 4}}});
    ASSERT_EQ(world.disc_contacts({3, 3}, 1.5, all_layers, out), 1u);  // outside the hypotenuse
    expect_vec(out[0].normal, Vec2{1, 1} / std::sqrt(2.0));
    EXPECT_NEAR(out[0].depth, 1.5 - std::sqrt(2.0), tol);
    ASSERT_EQ(world.disc_contacts({0.5, 2}, 0.1, all_layers, out), 1u);  // inside, nearest the left edge
    expect_vec(out[0].normal, {-1, 0});
    EXPECT_NEAR(out[0].depth, 0.6, tol);
  }
  {
    ObstacleWorld world;
    world.add(Segment2{{0, 0}, {4, 0}});
    ASSERT_EQ(world.disc_contacts({2, -0.5}, 1, all_layers, out), 1u);
    expect_vec(out[0].normal, {0, -1});
    EXPECT_NEAR(out[0].depth, 0.5, tol);
    ASSERT_EQ(world.disc_contacts({5, 0}, 1.5, all_layers, out), 1u);
    expect_vec(out[0].normal, {1, 0});
    EXPECT_NEAR(out[0].depth, 0.5, tol);
  }
}

TEST(ObstacleWorldContacts, CellsAndTheMapBorder) {
  grid::GridMap map(6, 6);
  map.set_passable(3, 2, false);
  ObstacleWorld world;
  world.set_grid(&map, 1);
  std::vector<Contact> out;
  out.reserve(16);
  const Contact* storage = out.data();
  // Left of cell (3, 2), which spans x in [3, 4], y in [2, 3].
  ASSERT_EQ(world.disc_contacts({2.6, 2.5}, 0.5, all_layers, out), 1u);
  expect_vec(out[0].normal, {-1, 0});
  EXPECT_NEAR(out[0].depth, 0.1, tol);
  EXPECT_EQ(out[0].collider.cell, map.cell(3, 2));
  // Near the corner (0, 0): one contact per side crossed, pointing into the map.
  ASSERT_EQ(world.disc_contacts({0.3, 0.4}, 0.5, all_layers, out), 2u);
  std::set<std::pair<double, double>> normals;
  for (const Contact& c : out) {
    EXPECT_FALSE(c.collider.cell.valid());
    normals.insert({c.normal.x, c.normal.y});
    EXPECT_NEAR(c.depth, c.normal.x == 1 ? 0.2 : 0.1, tol);
  }
  EXPECT_EQ(normals, (std::set<std::pair<double, double>>{{1, 0}, {0, 1}}));
  // Far outside: pushed back in.
  ASSERT_EQ(world.disc_contacts({-10, 3}, 0.5, all_layers, out), 1u);
  expect_vec(out[0].normal, {1, 0});
  EXPECT_NEAR(out[0].depth, 10.5, tol);
  EXPECT_EQ(world.disc_contacts({2.6, 2.5}, 0.5, ~layer_bit(1), out), 0u);
  EXPECT_EQ(out.data(), storage);
  EXPECT_EQ(world.disc_contacts({2.6, 2.5}, 0, all_layers, out), 0u);
  // Inside the blocked cell, nearest its bottom face.
  ASSERT_EQ(world.disc_contacts({3.5, 2.2}, 0.1, all_layers, out), 1u);
  expect_vec(out[0].normal, {0, -1});
  EXPECT_NEAR(out[0].depth, 0.3, tol);
}

// ---- clearance ------------------------------------------------------------------------------------

TEST(ObstacleWorldClearance, ShapesAndCells) {
  ObstacleWorld world;
  world.add(Circle{{0, 0}, 1});
  world.add(Box{{5, -1}, {6, 1}}, 3);
  EXPECT_NEAR(world.clearance({3, 0}, 10), 2, tol);
  EXPECT_NEAR(world.clearance({3, 0}, 10, layer_bit(3)), 2, tol);
  EXPECT_NEAR(world.clearance({4, 0}, 10), 1, tol);
  EXPECT_NEAR(world.clearance({3, 0}, 1.5), 1.5, tol);  // capped
  EXPECT_EQ(world.clearance({0.5, 0}, 10), 0);           // inside
  EXPECT_NEAR(world.clearance({3, 0}, 10, layer_bit(5)), 10, tol);
  EXPECT_NEAR(world.clearance({100, 0}, inf), 94, tol);

  grid::GridMap map(8, 8, {.cell_size = 1, .origin = {10, 10}});
  map.set_passable(4, 4, false);  // x, y in [14, 15]
  ObstacleWorld cells;
  cells.set_grid(&map);
  EXPECT_NEAR(cells.clearance({12.5, 12.5}, 10), std::sqrt(2 * 1.5 * 1.5), tol);  // to the corner (14, 14)
  EXPECT_NEAR(cells.clearance({14.5, 12.2}, 10), 1.8, tol);
  EXPECT_NEAR(cells.clearance({10.3, 17}, 10), 0.3, tol);  // the border
  EXPECT_EQ(cells.clearance({14.5, 14.5}, 10), 0);
  EXPECT_EQ(cells.clearance({9, 14.5}, 10), 0);
}

// ---- validation ----------------------------------------------------------------------------------

TEST(ObstacleWorldAdd, RefusesBadColliders) {
  ObstacleWorld world;
  const double nan = std::nan("");
  EXPECT_THROW(world.add(Circle{{0, 0}, 1}, -1), std::invalid_argument);
  EXPECT_THROW(world.add(Circle{{0, 0}, 1}, 32), std::invalid_argument);
  EXPECT_THROW(world.add(Circle{{nan, 0}, 1}), std::invalid_argument);
  EXPECT_THROW(world.add(Circle{{0, 0}, inf}), std::invalid_argument);
  EXPECT_THROW(world.add(Circle{{0, 0}, -1}), std::invalid_argument);
  EXPECT_THROW(world.add(Box{{1, 0}, {0, 1}}), std::invalid_argument);
  EXPECT_THROW(world.add(OrientedBox{{0, 0}, {1, -1}, 0}), std::invalid_argument);
  EXPECT_THROW(world.add(OrientedBox{{0, 0}, {1, 1}, nan}), std::invalid_argument);
  EXPECT_THROW(world.add(Polygon{{{0, 0}, {1, 0}}}), std::invalid_argument);
  EXPECT_THROW(world.add(Polygon{{{0, 0}, {1, 0}, {0, inf}}}), std::invalid_argument);
  EXPECT_THROW(world.add(Segment2{{0, 0}, {1e200, 0}}), std::invalid_argument);
  EXPECT_THROW(world.set_grid(nullptr, 40), std::invalid_argument);
  EXPECT_EQ(world.size(), 0u);
  EXPECT_THROW((ObstacleWorld({.broad_phase_cell = 0})), std::invalid_argument);
  EXPECT_THROW((ObstacleWorld({.broad_phase_cell = 1, .max_cells_per_collider = 0})), std::invalid_argument);
  // Degenerate but valid: a point circle, a flat box, a zero-length wall.
  EXPECT_NO_THROW(world.add(Circle{{0, 0}, 0}));
  EXPECT_NO_THROW(world.add(Box{{0, 0}, {1, 0}}));
  EXPECT_NO_THROW(world.add(Segment2{{2, 2}, {2, 2}}));
  EXPECT_EQ(world.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<Box>(world.shape(ColliderId{1})));
}

/// The message add() refuses `shape` with, or "" when it does not.
std::string refusal(const Shape& shape) {
  ObstacleWorld world;
  try {
    world.add(shape);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ObstacleWorldAdd, RefusalsSayWhetherAValueIsNotFiniteOrOutsideTheLimit) {
  // Issue 41: a circle at 1e200 was "non-finite"; the limit is named, with the value.
  const double nan = std::nan("");
  EXPECT_EQ(refusal(Circle{{1e200, 0}, 1}),
            "ObstacleWorld: circle with centre x 1e+200, outside ±1e+100 (ObstacleWorld::max_coordinate)");
  EXPECT_EQ(refusal(Circle{{0, nan}, 1}), "ObstacleWorld: circle with centre y not finite (nan)");
  EXPECT_EQ(refusal(Circle{{0, 0}, inf}), "ObstacleWorld: circle with radius not finite (inf)");
  EXPECT_EQ(refusal(Circle{{0, 0}, -0.5}), "ObstacleWorld: circle with a negative radius (-0.5)");
  EXPECT_EQ(refusal(Box{{0, 0}, {-2e100, 1}}),
            "ObstacleWorld: box with max x -2e+100, outside ±1e+100 (ObstacleWorld::max_coordinate)");
  EXPECT_EQ(refusal(OrientedBox{{0, 0}, {1, 1}, nan}), "ObstacleWorld: oriented box with angle not finite (nan)");
  EXPECT_EQ(refusal(Polygon{{{0, 0}, {1, 0}, {0, 3e150}}}),
            "ObstacleWorld: polygon with corner 2 y 3e+150, outside ±1e+100 (ObstacleWorld::max_coordinate)");
  EXPECT_EQ(refusal(Segment2{{0, 0}, {1e200, 0}}),
            "ObstacleWorld: segment with end b x 1e+200, outside ±1e+100 (ObstacleWorld::max_coordinate)");
  EXPECT_EQ(refusal(Circle{{1e100, -1e100}, 1e100}), "");  // the limit itself is allowed
  try {
    const ObstacleWorld w({.broad_phase_cell = 0.0});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "ObstacleWorld: broad_phase_cell must be above 0 and at most 1e+100 "
                           "(ObstacleWorld::max_coordinate), got 0");
  }
}

}  // namespace
}  // namespace waymark::steer_obstacle_world_contacts_test
