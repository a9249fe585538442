#pragma once
// Seeded random grids and seed cells, the checks every returned grid path must pass, and a reference Dijkstra.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <algorithm>
#include <cstdint>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "waymark/core/path.hpp"
#include "waymark/grid/grid_space.hpp"

namespace waymark::test {
using namespace grid;

inline const std::string data_dir = WAYMARK_DATA_DIR;

struct RandomGridSpec {
  int width;
  int height;
  double obstacle_density;  ///< probability that a cell is blocked
  bool terrain;             ///< random cost multipliers in [1, 5] plus one reward zone
};

/// A grid with obstacles placed at random; with `terrain`, random multipliers and a zone.
inline GridMap random_grid(const RandomGridSpec& spec, std::mt19937& rng) {
  GridMap map(spec.width, spec.height);
  std::bernoulli_distribution blocked(spec.obstacle_density);
  std::uniform_real_distribution<double> multiplier(1.0, 5.0);
  for (int y = 0; y < spec.height; ++y) {
    for (int x = 0; x < spec.width; ++x) {
      if (blocked(rng)) map.set_passable(x, y, false);
      if (spec.terrain) map.set_cost_multiplier(x, y, multiplier(rng));
    }
  }
  if (spec.terrain) {
    std::uniform_real_distribution<double> pos(0.0, spec.width);
    map.add_zone(CostZone::circle({pos(rng), pos(rng)}, spec.width / 4.0, -2.5));
  }
  return map;
}

/// A random passable cell, or an invalid id when the map has none.
inline CellId random_passable(const GridMap& map, std::mt19937& rng) {
  if (map.passable_count() == 0) return CellId::invalid();
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(map.cell_count() - 1));
  for (;;) {
    const CellId c{pick(rng)};
    if (map.passable(c)) return c;
  }
}

/// `count` distinct random passable cells (fewer when the map has fewer): region seeds.
inline std::vector<CellCoord> random_seeds(const GridMap& map, std::size_t count, std::mt19937& rng) {
  std::vector<CellCoord> seeds;
  std::set<std::uint32_t> used;
  const std::size_t want = std::min(count, map.passable_count());
  while (seeds.size() < want) {
    const CellId c = random_passable(map, rng);
    if (used.insert(c.value).second) seeds.push_back(map.coord(c));
  }
  return seeds;
}

/// Connected, obeys the diagonal rule, avoids obstacles, and the cost is the sum of its steps.
inline ::testing::AssertionResult is_valid_path(const GridSpace& space, const Path<CellId>& path,
                                                CellId start, CellId goal) {
  const GridMap& map = space.map();
  if (path.nodes.empty()) return ::testing::AssertionFailure() << "empty path";
  if (path.nodes.front() != start) return ::testing::AssertionFailure() << "does not begin at the start";
  if (path.nodes.back() != goal) return ::testing::AssertionFailure() << "does not end at the goal";
  double sum = 0;
  for (std::size_t i = 0; i < path.nodes.size(); ++i) {
    if (!map.passable(path.nodes[i])) return ::testing::AssertionFailure() << "step " << i << " is blocked";
    if (i == 0) continue;
    const CellCoord a = map.coord(path.nodes[i - 1]);
    const CellCoord b = map.coord(path.nodes[i]);
    const int dx = b.x - a.x, dy = b.y - a.y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0))
      return ::testing::AssertionFailure() << "step " << i << " is not a move to a neighbour";
    const bool diagonal = dx != 0 && dy != 0;
    if (diagonal && !space.diagonal_allowed(a.x, a.y, dx, dy))
      return ::testing::AssertionFailure() << "step " << i << " breaks the diagonal rule "
                                           << to_string(space.rule());
    sum += map.move_cost(path.nodes[i - 1], path.nodes[i], diagonal);
  }
  if (std::abs(sum - path.cost) > 1e-9 * std::max(1.0, sum))
    return ::testing::AssertionFailure() << "cost " << path.cost << " != sum of steps " << sum;
  return ::testing::AssertionSuccess();
}

/// Distances from `start` to every cell: textbook lazy-deletion Dijkstra, written apart from
/// the engine under test.
inline std::vector<Cost> reference_distances(const GridSpace& space, CellId start) {
  std::vector<Cost> dist(space.node_count(), infinite_cost);
  using Item = std::pair<Cost, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[start.value] = 0;
  pq.push({0, start.value});
  while (!pq.empty()) {
    const Cost d = pq.top().first;  // named, not a structured binding: clang 14 cannot capture one
    const std::uint32_t v = pq.top().second;
    pq.pop();
    if (d > dist[v]) continue;
    space.for_each_successor(CellId{v}, [&](CellId n, Cost c) {
      if (d + c < dist[n.value]) {
        dist[n.value] = d + c;
        pq.push({d + c, n.value});
      }
    });
  }
  return dist;
}

}  // namespace waymark::test
