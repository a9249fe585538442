// ObstacleWorld (issue 14): raycasts against every collider kind with analytic distances and
// normals, masks, starts inside and on surfaces, the map's cells and border; the broad phase
// against the minimum over single-shape worlds on random scenes (500 and 10,000 colliders);
// the map walk against fine stepping along the ray; disc contacts and clearance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace steer_obstacle_world_test {
namespace {

using namespace waymark;
using namespace waymark::steer;

constexpr double tol = 1e-9;
constexpr double inf = std::numeric_limits<double>::infinity();

void expect_vec(Vec2 actual, Vec2 expected, double tolerance = tol) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

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

// ---- the broad phase against single-shape worlds ---------------------------------------------

/// A star-shaped (so simple) polygon around `c`, in either orientation.
Polygon random_polygon(std::mt19937& rng, Vec2 c, double size) {
  std::uniform_real_distribution<double> unit(0, 1);
  const int n = 3 + static_cast<int>(unit(rng) * 6);
  std::vector<double> angles(static_cast<std::size_t>(n));
  for (double& a : angles) a = unit(rng) * 2 * std::numbers::pi;
  std::sort(angles.begin(), angles.end());
  Polygon p;
  for (const double a : angles) p.corners.push_back(c + Vec2{std::cos(a), std::sin(a)} * (size * (0.4 + 0.6 * unit(rng))));
  if (unit(rng) < 0.5) std::reverse(p.corners.begin(), p.corners.end());
  return p;
}

Shape random_shape(std::mt19937& rng, double world_size, double size, bool allow_large) {
  std::uniform_real_distribution<double> unit(0, 1);
  const Vec2 c{unit(rng) * world_size, unit(rng) * world_size};
  const double s = size * (0.1 + unit(rng));
  switch (static_cast<int>(unit(rng) * 5)) {
    case 0: return Circle{c, s / 2};
    case 1: return Box{c, c + Vec2{s * unit(rng), s * unit(rng)}};
    case 2: return OrientedBox{c, {s * unit(rng) / 2, s * unit(rng) / 2}, unit(rng) * 7 - 3.5};
    case 3: return random_polygon(rng, c, s);
    default: {
      const double a = unit(rng) * 2 * std::numbers::pi;
      const double len = allow_large && unit(rng) < 0.1 ? world_size * 0.6 : s;
      return Segment2{c, c + Vec2{std::cos(a), std::sin(a)} * len};
    }
  }
}

struct Scene {
  std::vector<Shape> shapes;
  std::vector<int> layers;
};

Scene random_scene(std::mt19937& rng, std::size_t count, double world_size, double size, int layers) {
  Scene scene;
  std::uniform_int_distribution<int> layer(0, layers - 1);
  for (std::size_t i = 0; i < count; ++i) {
    scene.shapes.push_back(random_shape(rng, world_size, size, true));
    scene.layers.push_back(layer(rng));
  }
  return scene;
}

/// The reference: the minimum over worlds that hold one shape each.
struct SingleShapeWorlds {
  std::vector<ObstacleWorld> worlds;

  explicit SingleShapeWorlds(const Scene& scene) {
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
      worlds.emplace_back();
      worlds.back().add(scene.shapes[i], scene.layers[i]);
    }
  }
};

/// Compares `world` (the scene's shapes added in order) with the single-shape worlds on one ray.
void expect_same_hit(const ObstacleWorld& world, const SingleShapeWorlds& ref, Vec2 o, Vec2 d, double max_distance,
                     LayerMask mask) {
  double best = inf, second = inf;
  std::size_t best_index = 0;
  std::optional<RayHit> best_hit;
  for (std::size_t i = 0; i < ref.worlds.size(); ++i) {
    const auto hit = ref.worlds[i].raycast(o, d, max_distance, mask);
    if (!hit) continue;
    if (hit->distance < best) {
      second = best;
      best = hit->distance;
      best_index = i;
      best_hit = hit;
    } else {
      second = std::min(second, hit->distance);
    }
  }
  const auto hit = world.raycast(o, d, max_distance, mask);
  ASSERT_EQ(hit.has_value(), best_hit.has_value()) << "origin " << o.x << "," << o.y << " dir " << d.x << "," << d.y;
  if (!hit) return;
  ASSERT_EQ(hit->distance, best_hit->distance);
  if (second > best) {
    EXPECT_EQ(hit->collider.shape.value, best_index);
    EXPECT_EQ(hit->normal, best_hit->normal);
    EXPECT_EQ(hit->point, best_hit->point);
  }
}

TEST(ObstacleWorldBroadPhase, MatchesSingleShapeWorlds) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> unit(0, 1);
  const Scene scene = random_scene(rng, 500, 100, 5, 4);
  const SingleShapeWorlds ref(scene);
  // Cells smaller and larger than the shapes, and few cells per collider (more kept off the grid).
  const ObstacleWorldParams params[] = {{.broad_phase_cell = 4.0},
                                        {.broad_phase_cell = 0.7},
                                        {.broad_phase_cell = 25.0},
                                        {.broad_phase_cell = 2.0, .max_cells_per_collider = 4}};
  for (const ObstacleWorldParams& p : params) {
    ObstacleWorld world(p);
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) world.add(scene.shapes[i], scene.layers[i]);
    ASSERT_EQ(world.size(), 500u);
    int hits = 0;
    for (int r = 0; r < 2000; ++r) {
      const Vec2 o{unit(rng) * 120 - 10, unit(rng) * 120 - 10};
      const double a = unit(rng) * 2 * std::numbers::pi;
      const Vec2 d = Vec2{std::cos(a), std::sin(a)} * (0.1 + unit(rng) * 3);
      const double max_distance = unit(rng) < 0.5 ? inf : unit(rng) * 60;
      const double pick = unit(rng);
      const LayerMask mask = pick < 0.4   ? all_layers
                             : pick < 0.7 ? layer_bit(static_cast<int>(unit(rng) * 4))
                                          : static_cast<LayerMask>(unit(rng) * 16);
      hits += world.raycast(o, d, max_distance, mask).has_value();
      ASSERT_NO_FATAL_FAILURE(expect_same_hit(world, ref, o, d, max_distance, mask)) << "ray " << r;
    }
    EXPECT_GT(hits, 500);
    EXPECT_LT(hits, 1900);
  }
}

TEST(ObstacleWorldBroadPhase, ShapesFarApartAndGrowingOutwards) {
  // Added in an outward spiral, some very far away: the covered box is rebuilt and its cells
  // widened, then narrowed again as colliders arrive.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  Scene scene;
  for (int i = 0; i < 300; ++i) {
    const double radius = i < 20 ? std::pow(10.0, i % 7) : unit(rng) * 50;
    const double a = i * 2.4;
    scene.shapes.push_back(Circle{Vec2{std::cos(a), std::sin(a)} * radius, 0.5 + unit(rng)});
    scene.layers.push_back(0);
  }
  const SingleShapeWorlds ref(scene);
  ObstacleWorld world;
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) world.add(scene.shapes[i]);
  for (int r = 0; r < 1000; ++r) {
    const Vec2 o{unit(rng) * 120 - 60, unit(rng) * 120 - 60};
    const double a = unit(rng) * 2 * std::numbers::pi;
    ASSERT_NO_FATAL_FAILURE(expect_same_hit(world, ref, o, {std::cos(a), std::sin(a)}, inf, all_layers));
  }
  // Rays aimed at the far ones.
  for (int i = 0; i < 20; ++i) {
    const Vec2 target = std::get<Circle>(scene.shapes[static_cast<std::size_t>(i)]).centre;
    const Vec2 o{0.5, 0.25};
    ASSERT_NO_FATAL_FAILURE(expect_same_hit(world, ref, o, target - o, inf, all_layers));
    EXPECT_TRUE(world.raycast(o, target - o, inf));
  }
}

TEST(ObstacleWorldBroadPhase, TenThousandCollidersAgainstOneCell) {
  std::mt19937 rng(10000);
  std::uniform_real_distribution<double> unit(0, 1);
  const Scene scene = random_scene(rng, 10000, 1000, 4, 2);
  ObstacleWorld world({.broad_phase_cell = 4.0});
  // Every shape kept off the grid: every ray tests every shape in a plain loop.
  ObstacleWorld brute({.broad_phase_cell = 1e7, .max_cells_per_collider = 1});
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
    world.add(scene.shapes[i], scene.layers[i]);
    brute.add(scene.shapes[i], scene.layers[i]);
  }
  int hits = 0;
  for (int r = 0; r < 2000; ++r) {
    const Vec2 o{unit(rng) * 1000, unit(rng) * 1000};
    const double a = unit(rng) * 2 * std::numbers::pi;
    const Vec2 d{std::cos(a), std::sin(a)};
    const double max_distance = unit(rng) < 0.5 ? inf : unit(rng) * 100;
    const LayerMask mask = unit(rng) < 0.5 ? all_layers : layer_bit(1);
    const auto got = world.raycast(o, d, max_distance, mask);
    const auto want = brute.raycast(o, d, max_distance, mask);
    ASSERT_EQ(got.has_value(), want.has_value()) << "ray " << r;
    if (!got) continue;
    ++hits;
    ASSERT_EQ(got->distance, want->distance) << "ray " << r;
    if (got->distance > 0) {
      EXPECT_EQ(got->collider, want->collider);
    }
  }
  EXPECT_GT(hits, 1000);
}

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

TEST(ObstacleWorldContacts, MatchSingleShapeWorlds) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> unit(0, 1);
  const Scene scene = random_scene(rng, 500, 100, 5, 2);
  const SingleShapeWorlds ref(scene);
  ObstacleWorld world({.broad_phase_cell = 3.0});
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) world.add(scene.shapes[i], scene.layers[i]);
  std::vector<Contact> got, one;
  std::size_t total = 0;
  for (int q = 0; q < 1000; ++q) {
    const Vec2 c{unit(rng) * 110 - 5, unit(rng) * 110 - 5};
    const double radius = unit(rng) * 6;
    const LayerMask mask = unit(rng) < 0.5 ? all_layers : layer_bit(0);
    world.disc_contacts(c, radius, mask, got);
    std::set<std::uint32_t> seen;
    for (const Contact& k : got) {
      EXPECT_TRUE(seen.insert(k.collider.shape.value).second) << "shape reported twice";
      EXPECT_GT(k.depth, 0);
      EXPECT_NEAR(length(k.normal), 1, tol);
    }
    std::size_t expected = 0;
    for (std::size_t i = 0; i < ref.worlds.size(); ++i) {
      if (ref.worlds[i].disc_contacts(c, radius, mask, one) == 0) continue;
      ++expected;
      const auto it = std::find_if(got.begin(), got.end(), [&](const Contact& k) { return k.collider.shape.value == i; });
      ASSERT_NE(it, got.end()) << "missed shape " << i;
      EXPECT_EQ(it->depth, one[0].depth);
      EXPECT_EQ(it->normal, one[0].normal);
    }
    EXPECT_EQ(got.size(), expected);
    total += expected;
  }
  EXPECT_GT(total, 300u);
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

TEST(ObstacleWorldClearance, MatchesSingleShapeWorlds) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0, 1);
  const Scene scene = random_scene(rng, 400, 100, 5, 2);
  const SingleShapeWorlds ref(scene);
  ObstacleWorld world({.broad_phase_cell = 2.5});
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) world.add(scene.shapes[i], scene.layers[i]);
  for (int q = 0; q < 1000; ++q) {
    const Vec2 p{unit(rng) * 140 - 20, unit(rng) * 140 - 20};
    const double max_distance = unit(rng) < 0.3 ? inf : unit(rng) * 20;
    const LayerMask mask = unit(rng) < 0.5 ? all_layers : layer_bit(1);
    double expected = max_distance;
    for (const ObstacleWorld& w : ref.worlds) expected = std::min(expected, w.clearance(p, max_distance, mask));
    ASSERT_EQ(world.clearance(p, max_distance, mask), expected) << "query " << q;
  }
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

}  // namespace
}  // namespace steer_obstacle_world_test
