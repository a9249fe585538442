// ObstacleWorld raycasts (issue 14): raycasts per second through the broad phase against a
// brute-force loop over every shape, with 100, 1,000 and 10,000 random circles and boxes (half
// each, one per 100 m², 0.5-3 m across, so the density stays the same), and on den520d's
// blocked cells alone and with 1,000 shapes among its free cells. Rays start at random (in free
// cells on the map), point in random directions and reach 50 m (steering look-ahead) or, with
// `unlimited`, until they hit. The brute force is the same world with every shape kept off the
// grid (max_cells_per_collider = 1), so every ray tests every shape in a plain loop.
//
//   waymark_bench_steer_raycast [--benchmark_filter=...]     (docs/steering.md)
#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "waymark/grid/grid_map.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace {

using namespace waymark;
using namespace waymark::steer;

const std::string data_dir = WAYMARK_DATA_DIR;
constexpr std::size_t ray_count = 4096;
constexpr double reach = 50;  ///< m

struct Ray {
  Vec2 origin;
  Vec2 direction;
};

Shape random_shape(std::mt19937& rng, Vec2 lo, Vec2 hi) {
  std::uniform_real_distribution<double> x(lo.x, hi.x), y(lo.y, hi.y), size(0.5, 3.0);
  const Vec2 c{x(rng), y(rng)};
  if (rng() % 2 == 0) return Circle{c, size(rng) / 2};
  return Box{c, c + Vec2{size(rng), size(rng)}};
}

Vec2 random_direction(std::mt19937& rng) {
  const double a = std::uniform_real_distribution<double>(0, 2 * std::numbers::pi)(rng);
  return {std::cos(a), std::sin(a)};
}

/// Shapes in a square sized for one per 100 m², a broad-phase world and a brute-force one.
struct ShapeScene {
  ObstacleWorld world;
  ObstacleWorld brute{{.max_cells_per_collider = 1}};
  std::vector<Ray> rays;

  explicit ShapeScene(std::size_t count) {
    std::mt19937 rng(static_cast<std::uint32_t>(count));
    const double side = std::sqrt(100.0 * static_cast<double>(count));
    for (std::size_t i = 0; i < count; ++i) {
      const Shape s = random_shape(rng, {0, 0}, {side, side});
      world.add(s);
      brute.add(s);
    }
    std::uniform_real_distribution<double> pos(0, side);
    for (std::size_t i = 0; i < ray_count; ++i) rays.push_back({{pos(rng), pos(rng)}, random_direction(rng)});
  }
};

ShapeScene& shape_scene(std::size_t count) {
  static ShapeScene s100(100), s1000(1000), s10000(10000);
  return count == 100 ? s100 : count == 1000 ? s1000 : s10000;
}

void run(benchmark::State& state, const ObstacleWorld& world, const std::vector<Ray>& rays, double max_distance) {
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Ray& r = rays[i++ % rays.size()];
    const std::optional<RayHit> hit = world.raycast(r.origin, r.direction, max_distance);
    hits += hit.has_value();
    benchmark::DoNotOptimize(hit);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["hit_share"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

/// Args: shape count, brute force (0/1), unlimited reach (0/1).
void BM_Shapes(benchmark::State& state) {
  ShapeScene& scene = shape_scene(static_cast<std::size_t>(state.range(0)));
  run(state, state.range(1) != 0 ? scene.brute : scene.world, scene.rays,
      state.range(2) != 0 ? std::numeric_limits<double>::infinity() : reach);
}
BENCHMARK(BM_Shapes)
    ->ArgNames({"shapes", "brute", "unlimited"})
    ->ArgsProduct({{100, 1000, 10000}, {0, 1}, {0, 1}});

/// den520d's blocked cells, and the same with 1,000 shapes among its free cells.
struct MapScene {
  grid::GridMap map = io::load_movingai_map(data_dir + "/maps/den520d.map");
  ObstacleWorld cells_only;
  ObstacleWorld with_shapes;
  ObstacleWorld with_shapes_brute{{.max_cells_per_collider = 1}};
  std::vector<Ray> rays;

  MapScene() {
    cells_only.set_grid(&map);
    with_shapes.set_grid(&map);
    with_shapes_brute.set_grid(&map);
    std::mt19937 rng(520);
    std::uniform_int_distribution<int> x(0, map.width() - 1), y(0, map.height() - 1);
    const auto free_point = [&] {
      for (;;) {
        const int cx = x(rng), cy = y(rng);
        if (map.passable(cx, cy)) return map.cell_center(grid::CellCoord{cx, cy});
      }
    };
    for (int i = 0; i < 1000; ++i) {
      const Vec2 c = free_point();
      const Shape s = random_shape(rng, c, c);
      with_shapes.add(s);
      with_shapes_brute.add(s);
    }
    for (std::size_t i = 0; i < ray_count; ++i) rays.push_back({free_point(), random_direction(rng)});
  }
};

MapScene& map_scene() {
  static MapScene scene;
  return scene;
}

/// Args: 0 cells only, 1 cells and 1,000 shapes, 2 the same brute force; unlimited reach (0/1).
void BM_Map(benchmark::State& state) {
  MapScene& scene = map_scene();
  const ObstacleWorld& world = state.range(0) == 0   ? scene.cells_only
                               : state.range(0) == 1 ? scene.with_shapes
                                                     : scene.with_shapes_brute;
  run(state, world, scene.rays, state.range(1) != 0 ? std::numeric_limits<double>::infinity() : reach);
}
BENCHMARK(BM_Map)->ArgNames({"world", "unlimited"})->ArgsProduct({{0, 1, 2}, {0, 1}});

}  // namespace

BENCHMARK_MAIN();
