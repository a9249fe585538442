// ObstacleWorld's raycasts (issue 14) with analytic answers: distances and normals against every
// collider kind, masks, starts inside and on surfaces, the map's cells and border, and the map
// walk against fine stepping along the ray.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <random>

#include "support/obstacle_world_checks.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer_obstacle_world_ray_test {
namespace {

using namespace waymark::steer;
using test::expect_vec;
using test::inf;
using test::tol;

/// The hit of a ray against a world holding only `shape`.
std::optional<RayHit> cast(const Shape& shape, Vec2 origin, Vec2 direction, double max_distance = inf) {
  ObstacleWorld world;
  world.add(shape);
  return world.raycast(origin, direction, max_distance);
}

void expect_hit(const std::optional<RayHit>& hit, double distance, Vec2 normal) {
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, distance, tol);
  expect_vec(hit->normal, normal);
  EXPECT_NEAR(length(hit->normal), 1.0, tol);
}

// ---- one shape, analytic answers --------------------------------------------------------------

TEST(ObstacleWorldRay, CircleFrontAndOblique) {
  const Circle c{{5, 1}, 2};
  const auto front = cast(c, {0, 1}, {3, 0});  // direction not unit
  expect_hit(front, 3, {-1, 0});
  expect_vec(front->point, {3, 1});
  EXPECT_EQ(front->collider.kind, ColliderRef::Kind::shape);
  EXPECT_EQ(front->collider.shape, ColliderId{0});

  // Circle at (10, 0), radius 5, ray from the origin at angle θ: t = 10 cos θ − √(25 − 100 sin² θ).
  const double theta = 0.2;
  const Vec2 d{std::cos(theta), std::sin(theta)};
  const double t = 10 * std::cos(theta) - std::sqrt(25 - 100 * std::sin(theta) * std::sin(theta));
  const auto oblique = cast(Circle{{10, 0}, 5}, {0, 0}, d);
  expect_hit(oblique, t, (d * t - Vec2{10, 0}) / 5);
  expect_vec(oblique->point, d * t);
}

TEST(ObstacleWorldRay, BoxFaces) {
  const Box box{{2, -1}, {5, 1}};
  expect_hit(cast(box, {0, 0}, {1, 0.25}), 2 * std::sqrt(1.0625), {-1, 0});
  expect_hit(cast(box, {3, 4}, {0.5, -1}), 3 * std::sqrt(1.25), {0, 1});
  expect_hit(cast(box, {9, 0.5}, {-1, 0}), 4, {1, 0});
  expect_hit(cast(box, {4, -7}, {0, 1}), 6, {0, -1});
  // A ray along a face's line touches the box: closed solids.
  expect_hit(cast(box, {0, 1}, {1, 0}), 2, {-1, 0});
}

TEST(ObstacleWorldRay, OrientedBox) {
  // Half extents (2, 1) turned 45°: the ray along y = 0 meets the top face (local y = 1) at
  // x = 10 − √2, normal (−1, 1)/√2.
  const OrientedBox box{{10, 0}, {2, 1}, std::numbers::pi / 4};
  const auto hit = cast(box, {0, 0}, {1, 0});
  expect_hit(hit, 10 - std::sqrt(2.0), {-1 / std::sqrt(2.0), 1 / std::sqrt(2.0)});
  expect_vec(hit->point, {10 - std::sqrt(2.0), 0});
  // Turned 90°: the box spans x in [9, 11], y in [−2, 2].
  expect_hit(cast(OrientedBox{{10, 0}, {2, 1}, std::numbers::pi / 2}, {0, 1.5}, {1, 0}), 9, {-1, 0});
  expect_hit(cast(OrientedBox{{10, 0}, {2, 1}, std::numbers::pi / 2}, {10.5, 8}, {0, -1}), 6, {0, 1});
  EXPECT_FALSE(cast(OrientedBox{{10, 0}, {2, 1}, std::numbers::pi / 2}, {0, 2.5}, {1, 0}));
}

TEST(ObstacleWorldRay, PolygonEitherOrientation) {
  const Polygon ccw{{{4, -2}, {8, 0}, {4, 2}}};
  const Polygon cw{{{4, 2}, {8, 0}, {4, -2}}};
  for (const Polygon& p : {ccw, cw}) {
    expect_hit(cast(p, {0, 0}, {1, 0}), 4, {-1, 0});
    // From the far side: the edge (8,0)-(4,2) has outward normal (1, 2)/√5; the ray y = 0.5
    // from x = 20 meets it at x = 7.
    expect_hit(cast(p, {20, 0.5}, {-1, 0}), 13, Vec2{1, 2} / std::sqrt(5.0));
    EXPECT_FALSE(cast(p, {0, 3}, {1, 0}));
  }
}

TEST(ObstacleWorldRay, ConcavePolygonThroughItsNotch) {
  // A "C" open to the right: the ray along y = 2 from the right passes the notch and meets the
  // inner edge x = 1.
  const Polygon c{{{0, 0}, {6, 0}, {6, 1}, {1, 1}, {1, 3}, {6, 3}, {6, 4}, {0, 4}}};
  expect_hit(cast(c, {10, 2}, {-1, 0}), 9, {1, 0});
  expect_hit(cast(c, {3, 2}, {0, 1}), 1, {0, -1});
  // From inside the solid part.
  const auto inside = cast(c, {0.5, 2}, {1, 1});
  expect_hit(inside, 0, -normalized(Vec2{1, 1}));
  expect_vec(inside->point, {0.5, 2});
}

TEST(ObstacleWorldRay, SegmentFromEitherSide) {
  const Segment2 wall{{3, -1}, {3, 1}};
  expect_hit(cast(wall, {0, 0}, {1, 0}), 3, {-1, 0});
  expect_hit(cast(wall, {6, 0}, {-1, 0}), 3, {1, 0});
  expect_hit(cast(Segment2{{0, 5}, {10, 5}}, {2, 0}, {1, 1}), 5 * std::sqrt(2.0), {0, -1});
  expect_hit(cast(Segment2{{0, 5}, {10, 5}}, {2, 9}, {1, -1}), 4 * std::sqrt(2.0), {0, 1});
  EXPECT_FALSE(cast(wall, {0, 1.5}, {1, 0}));
  EXPECT_FALSE(cast(wall, {4, 0}, {1, 0}));
  // Along the wall's own line: its near end, the normal facing back along the ray.
  expect_hit(cast(wall, {3, -4}, {0, 1}), 3, {0, -1});
}

TEST(ObstacleWorldRay, Misses) {
  EXPECT_FALSE(cast(Circle{{5, 0}, 1}, {0, 0}, {-1, 0}));   // behind
  EXPECT_FALSE(cast(Circle{{5, 0}, 1}, {0, 1.01}, {1, 0}));  // beside
  EXPECT_FALSE(cast(Box{{2, 2}, {3, 3}}, {0, 0}, {1, 0}));
  EXPECT_FALSE(cast(Box{{2, 2}, {3, 3}}, {0, 0}, {1, 3.01}));
  EXPECT_FALSE(cast(OrientedBox{{5, 5}, {1, 1}, 0.3}, {0, 0}, {1, 0}));
  EXPECT_FALSE(cast(Segment2{{3, 1}, {3, 2}}, {0, 0}, {1, 0}));
  ObstacleWorld empty;
  EXPECT_FALSE(empty.raycast({0, 0}, {1, 0}, inf));
}

TEST(ObstacleWorldRay, StartInsideEverySolidHitsAtZero) {
  const Vec2 d = normalized(Vec2{0.3, -1});
  const Shape shapes[] = {Circle{{0, 0}, 1}, Box{{-1, -1}, {1, 1}}, OrientedBox{{0, 0}, {1, 0.5}, 1.0},
                          Polygon{{{-1, -1}, {1, -1}, {0, 1}}}};
  for (const Shape& s : shapes) {
    const auto hit = cast(s, {0.1, 0}, d * 7);
    expect_hit(hit, 0, -d);
    expect_vec(hit->point, {0.1, 0});
  }
}

TEST(ObstacleWorldRay, StartOnSurfaceHitsOnlyHeadingIn) {
  expect_hit(cast(Circle{{0, 0}, 1}, {1, 0}, {-1, 0}), 0, {1, 0});
  EXPECT_FALSE(cast(Circle{{0, 0}, 1}, {1, 0}, {1, 0}));
  EXPECT_FALSE(cast(Circle{{0, 0}, 1}, {1, 0}, {0, 1}));  // tangent
  expect_hit(cast(Box{{0, 0}, {1, 1}}, {1, 0.5}, {-1, 0}), 0, {1, 0});
  EXPECT_FALSE(cast(Box{{0, 0}, {1, 1}}, {1, 0.5}, {1, 0}));
  EXPECT_FALSE(cast(Box{{0, 0}, {1, 1}}, {1, 0.5}, {0, 1}));  // sliding along the face
  EXPECT_FALSE(cast(Polygon{{{0, 0}, {1, 0}, {1, 1}, {0, 1}}}, {1, 0.5}, {1, 0.2}));
  EXPECT_FALSE(cast(Polygon{{{0, 0}, {0, 1}, {1, 1}, {1, 0}}}, {1, 0.5}, {1, -0.2}));
}

TEST(ObstacleWorldRay, DirectionAndDistanceLimits) {
  ObstacleWorld world;
  world.add(Circle{{5, 0}, 2});
  EXPECT_FALSE(world.raycast({0, 0}, {0, 0}, inf));
  EXPECT_FALSE(world.raycast({0, 0}, {std::nan(""), 0}, inf));
  EXPECT_FALSE(world.raycast({0, 0}, {1, 0}, -1));
  EXPECT_FALSE(world.raycast({0, 0}, {1, 0}, 2.999));
  ASSERT_TRUE(world.raycast({0, 0}, {1, 0}, 3));  // inclusive
  EXPECT_NEAR(world.raycast({0, 0}, {1, 0}, 3)->distance, 3, tol);
  ASSERT_TRUE(world.raycast({4, 0}, {1, 0}, 0));  // inside, no distance needed
}

TEST(ObstacleWorldRay, NearestOfSeveral) {
  ObstacleWorld world;
  world.add(Box{{20, -1}, {21, 1}});
  const ColliderId near = world.add(Circle{{8, 0}, 1});
  world.add(Segment2{{12, -5}, {12, 5}});
  const auto hit = world.raycast({0, 0}, {1, 0}, inf);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->collider.shape, near);
  EXPECT_NEAR(hit->distance, 7, tol);
}

// ---- masks ------------------------------------------------------------------------------------

TEST(ObstacleWorldMask, LayerEightOnly) {
  ObstacleWorld world;
  const ColliderId id = world.add(Box{{2, -1}, {3, 1}}, 8);
  EXPECT_EQ(world.layer(id), 8);
  EXPECT_TRUE(world.raycast({0, 0}, {1, 0}, inf, layer_bit(8)));
  EXPECT_TRUE(world.raycast({0, 0}, {1, 0}, inf, all_layers));
  EXPECT_TRUE(world.raycast({0, 0}, {1, 0}, inf, layer_bit(3) | layer_bit(8)));
  EXPECT_FALSE(world.raycast({0, 0}, {1, 0}, inf, layer_bit(3)));
  EXPECT_FALSE(world.raycast({0, 0}, {1, 0}, inf, 0));
  world.add(Circle{{6, 0}, 1}, 31);
  const auto far = world.raycast({0, 0}, {1, 0}, inf, layer_bit(31));
  ASSERT_TRUE(far);
  EXPECT_NEAR(far->distance, 5, tol);
}

TEST(ObstacleWorldMask, GridLayerMaskedOffPassesThroughCells) {
  grid::GridMap map(10, 3);
  map.set_passable(5, 1, false);
  ObstacleWorld world;
  world.set_grid(&map, 2);
  EXPECT_EQ(world.grid(), &map);
  EXPECT_EQ(world.grid_layer(), 2);
  const auto blocked = world.raycast({0.5, 1.5}, {1, 0}, inf, layer_bit(2));
  expect_hit(blocked, 4.5, {-1, 0});
  EXPECT_EQ(blocked->collider.cell, map.cell(5, 1));
  // Masked off: neither the cell nor the border.
  EXPECT_FALSE(world.raycast({0.5, 1.5}, {1, 0}, inf, ~layer_bit(2)));
  world.add(Circle{{7.5, 1.5}, 0.5}, 0);
  const auto circle = world.raycast({0.5, 1.5}, {1, 0}, inf, layer_bit(0));
  expect_hit(circle, 6.5, {-1, 0});
  // Both on: the nearer, the cell.
  EXPECT_NEAR(world.raycast({0.5, 1.5}, {1, 0}, inf)->distance, 4.5, tol);
}

// ---- the map's cells ---------------------------------------------------------------------------

TEST(ObstacleWorldGrid, CellsBorderAndFaces) {
  grid::GridMap map(10, 10, {.cell_size = 0.5, .origin = {-1, 2}});
  for (int y = 0; y < 10; ++y) map.set_passable(7, y, false);
  map.set_passable(2, 8, false);
  ObstacleWorld world;
  world.set_grid(&map);
  const Vec2 start = map.cell_center(grid::CellCoord{2, 3});  // (0.25, 3.75)

  const auto wall = world.raycast(start, {1, 0.3}, inf);
  expect_hit(wall, 2.25 * std::sqrt(1.09), {-1, 0});
  expect_vec(wall->point, {2.5, 3.75 + 0.675});
  EXPECT_EQ(wall->collider.kind, ColliderRef::Kind::cell);
  EXPECT_EQ(wall->collider.cell, map.cell(7, 4));

  const auto border = world.raycast(start, {0, -1}, inf);
  expect_hit(border, 1.75, {0, 1});
  expect_vec(border->point, {0.25, 2});
  EXPECT_EQ(border->collider.kind, ColliderRef::Kind::cell);
  EXPECT_FALSE(border->collider.cell.valid());

  const auto left = world.raycast(start, {-1, 0}, inf);
  expect_hit(left, 1.25, {1, 0});
  const auto up = world.raycast(start, {0, 1}, inf);
  expect_hit(up, 2.25, {0, -1});
  EXPECT_EQ(up->collider.cell, map.cell(2, 8));
  EXPECT_FALSE(world.raycast(start, {0, 1}, 2.2));
}

TEST(ObstacleWorldGrid, StartInBlockedCellOrOutside) {
  grid::GridMap map(4, 4);
  map.set_passable(1, 1, false);
  ObstacleWorld world;
  world.set_grid(&map);
  const auto inside = world.raycast({1.5, 1.5}, {1, 0}, inf);
  expect_hit(inside, 0, {-1, 0});
  EXPECT_EQ(inside->collider.cell, map.cell(1, 1));
  const auto outside = world.raycast({-3, 2}, {1, 0}, inf);
  expect_hit(outside, 0, {-1, 0});
  EXPECT_FALSE(outside->collider.cell.valid());
  // On the edge of the blocked cell, heading away: not inside; heading in: at once.
  const auto away = world.raycast({2, 1.5}, {1, 0}, inf);
  expect_hit(away, 2, {-1, 0});
  expect_hit(world.raycast({2, 1.5}, {-1, 0}, inf), 0, {1, 0});
  expect_hit(world.raycast({1.5, 1}, {0, 1}, inf), 0, {0, -1});
}

TEST(ObstacleWorldGrid, SeesEditsLive) {
  grid::GridMap map(8, 1);
  ObstacleWorld world;
  world.set_grid(&map);
  EXPECT_NEAR(world.raycast({0.5, 0.5}, {1, 0}, inf)->distance, 7.5, tol);
  map.set_passable(3, 0, false);
  EXPECT_NEAR(world.raycast({0.5, 0.5}, {1, 0}, inf)->distance, 2.5, tol);
  world.set_grid(nullptr);
  EXPECT_FALSE(world.raycast({0.5, 0.5}, {1, 0}, inf));
}

/// Random 32×32 maps, off the unit grid: the cell walk against stepping along the ray. Every
/// sample before the hit is free (nothing missed), the point just past it is solid (a real
/// hit), and the cells either side of it differ by the normal (the right face).
TEST(ObstacleWorldGrid, WalkMatchesFineStepping) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> unit(0, 1);
  int hits = 0, borders = 0, misses = 0;
  for (int m = 0; m < 4; ++m) {
    grid::GridMap map(32, 32, {.cell_size = 0.75, .origin = {-3.5, 2.25}});
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) {
        if (unit(rng) < 0.25) map.set_passable(x, y, false);
      }
    }
    ObstacleWorld world;
    world.set_grid(&map);
    const double side = 32 * 0.75;
    const auto solid = [&](Vec2 p) {
      const auto c = map.world_to_cell(p);
      return !c || !map.passable(c->x, c->y);
    };
    for (int r = 0; r < 250; ++r) {
      Vec2 o;
      do {
        o = Vec2{-3.5 + unit(rng) * side, 2.25 + unit(rng) * side};
      } while (solid(o));
      const double angle = unit(rng) * 2 * std::numbers::pi;
      const Vec2 d{std::cos(angle), std::sin(angle)};
      const double max_distance = unit(rng) < 0.2 ? unit(rng) * 3 : inf;
      const auto hit = world.raycast(o, d, max_distance);
      const double end = hit ? hit->distance : max_distance;
      ASSERT_TRUE(std::isfinite(end));
      constexpr double step = 1e-4;
      for (double t = 0; t < end - 1e-9; t += step) ASSERT_FALSE(solid(o + d * t)) << "ray " << r << " t " << t;
      if (!hit) {
        EXPECT_FALSE(solid(o + d * end));
        ++misses;
        continue;
      }
      EXPECT_NEAR(length(hit->point - (o + d * hit->distance)), 0, 1e-9);
      const Vec2 after = o + d * (hit->distance + 1e-7), before = o + d * (hit->distance - 1e-7);
      ASSERT_TRUE(solid(after)) << "ray " << r;
      const auto a = map.world_to_cell(after);
      if (hit->collider.cell.valid()) {
        ASSERT_TRUE(a);
        EXPECT_EQ(map.cell(a->x, a->y), hit->collider.cell);
        ++hits;
      } else {
        EXPECT_FALSE(a);
        ++borders;
      }
      const double cx = std::floor((after.x + 3.5) / 0.75) - std::floor((before.x + 3.5) / 0.75);
      const double cy = std::floor((after.y - 2.25) / 0.75) - std::floor((before.y - 2.25) / 0.75);
      expect_vec(hit->normal, {-cx, -cy}, 0);
    }
  }
  EXPECT_GT(hits, 500);
  EXPECT_GT(borders, 10);
  EXPECT_GT(misses, 10);
}

}  // namespace
}  // namespace waymark::steer_obstacle_world_ray_test
