// ObstacleWorld's broad phase (issue 14) on random scenes (500 and 10,000 colliders): raycasts,
// disc contacts and clearance against the minimum over worlds that hold one shape each, and
// against a world that keeps every shape off its grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <variant>
#include <vector>

#include "support/obstacle_world_checks.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer_obstacle_world_broad_phase_test {
namespace {

using namespace waymark::steer;
using test::inf;
using test::tol;

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

}  // namespace
}  // namespace waymark::steer_obstacle_world_broad_phase_test
