// Grid and navmesh regions against brute force: one plain Dijkstra per seed (geodesic), every
// seed's straight-line distance (euclidean). Tie rule checked: geodesic labels may name any
// seed at the least distance; euclidean ties go to the lowest seed index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "support/error_text.hpp"
#include "support/random_grid.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/regions/labeling.hpp"
#include "waymark/regions/seed_index.hpp"

namespace waymark::regions::labeling_test {
namespace {

using grid::CellCoord;
using grid::DiagonalRule;
using grid::GridMap;
using grid::GridSpace;

constexpr double eps = 1e-9;

double tolerance(double d) { return eps * std::max(1.0, d); }

/// Region pairs whose elements touch through a move, computed from the labels alone.
template <class Space>
std::set<std::pair<RegionId, RegionId>> touching_pairs(const Space& space, std::span<const RegionId> labels) {
  std::set<std::pair<RegionId, RegionId>> pairs;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == no_region) continue;
    space.for_each_successor(space.node_at(i), [&](auto n, Cost) {
      const RegionId b = labels[space.index_of(n)];
      if (b != no_region && b != labels[i]) pairs.insert({std::min(labels[i], b), std::max(labels[i], b)});
    });
  }
  return pairs;
}

std::set<std::pair<RegionId, RegionId>> border_pairs(const Regions& r) {
  std::set<std::pair<RegionId, RegionId>> pairs;
  for (const RegionBorder& b : r.borders()) {
    EXPECT_LT(b.a, b.b);
    pairs.insert({b.a, b.b});
  }
  EXPECT_EQ(pairs.size(), r.borders().size()) << "a border listed twice";
  return pairs;
}

/// Labels, distances, sizes and unreached against one reference distance vector per seed.
void expect_geodesic(const Regions& r, const std::vector<std::vector<Cost>>& per_seed,
                     const std::vector<bool>& traversable) {
  const std::size_t n = traversable.size();
  ASSERT_EQ(r.element_count(), n);
  std::vector<std::uint32_t> sizes(per_seed.size(), 0);
  std::size_t unreached = 0;
  for (std::size_t e = 0; e < n; ++e) {
    Cost best = infinite_cost;
    for (const auto& d : per_seed) best = std::min(best, d[e]);
    if (best == infinite_cost) {
      EXPECT_EQ(r.label(e), no_region) << "element " << e;
      EXPECT_EQ(r.distance(e), infinite_cost);
      unreached += traversable[e] ? 1 : 0;
      continue;
    }
    const RegionId l = r.label(e);
    ASSERT_LT(l, per_seed.size()) << "element " << e;
    EXPECT_NEAR(r.distance(e), best, tolerance(best)) << "element " << e;
    // The tie rule: any seed at the least distance is a right label.
    EXPECT_NEAR(per_seed[l][e], best, tolerance(best)) << "element " << e << " labelled " << l;
    ++sizes[l];
  }
  EXPECT_EQ(r.unreached(), unreached);
  EXPECT_EQ(std::vector<std::uint32_t>(r.sizes().begin(), r.sizes().end()), sizes);
}

TEST(GridRegions, GeodesicLabelsEqualOneDijkstraPerSeed) {
  std::mt19937 rng(12);
  int maps = 0;
  for (const DiagonalRule rule : {DiagonalRule::never, DiagonalRule::always, DiagonalRule::at_most_one_obstacle,
                                  DiagonalRule::no_corner_cutting}) {
    for (int i = 0; i < 25; ++i) {
      const int w = std::uniform_int_distribution<int>(1, 40)(rng), h = std::uniform_int_distribution<int>(1, 40)(rng);
      const GridMap map = test::random_grid({w, h, 0.1 + 0.03 * (i % 10), i % 3 == 0}, rng);
      if (map.passable_count() == 0) continue;
      const auto seeds = test::random_seeds(map, 1 + i % 9, rng);
      const Regions r = label_grid(map, seeds, {.diagonal = rule});
      const GridSpace space(map, rule);
      std::vector<std::vector<Cost>> per_seed;
      for (const CellCoord s : seeds) per_seed.push_back(test::reference_distances(space, map.cell(s.x, s.y)));
      std::vector<bool> traversable(map.cell_count());
      for (std::uint32_t c = 0; c < map.cell_count(); ++c) traversable[c] = map.passable(CellId{c});
      expect_geodesic(r, per_seed, traversable);
      EXPECT_EQ(border_pairs(r), touching_pairs(space, r.labels()));
      ASSERT_EQ(r.region_count(), seeds.size());
      for (RegionId k = 0; k < seeds.size(); ++k) {
        EXPECT_EQ(r.seed(k), map.cell(seeds[k].x, seeds[k].y).value);
        EXPECT_EQ(r.label(r.seed(k)), k) << "a seed is in its own region";
      }
      ++maps;
    }
  }
  EXPECT_GT(maps, 80);
}

TEST(GridRegions, BorderCostIsTheCheapestSeedToSeedCrossing) {
  // Open 9x1 corridor, seeds at both ends: they meet in the middle, 8 apart.
  const GridMap map(9, 1);
  const std::vector<CellCoord> seeds{{0, 0}, {8, 0}};
  const Regions r = label_grid(map, seeds);
  ASSERT_EQ(r.borders().size(), 1u);
  EXPECT_EQ(r.borders()[0], (RegionBorder{0, 1, 8.0}));
  EXPECT_EQ(r.adjacency().node_count(), 2u);
  EXPECT_EQ(r.adjacency().arc_count(), 2u);
  EXPECT_EQ(r.sizes()[0] + r.sizes()[1], 9u);
}

TEST(GridRegions, CellsNoSeedReachesAreUnreachedAndBlockedCellsAreInNoRegion) {
  GridMap map(5, 3);
  map.set_passable(grid::CellRect{2, 0, 3, 3}, false);  // a wall down the middle
  const Regions r = label_grid(map, std::vector<CellCoord>{{0, 1}}, {.diagonal = DiagonalRule::always});
  EXPECT_EQ(r.unreached(), 6u);
  EXPECT_EQ(r.sizes()[0], 6u);
  EXPECT_EQ(r.label(map.cell(2, 1).value), no_region);
  EXPECT_EQ(r.label(map.cell(4, 1).value), no_region);
  EXPECT_EQ(r.distance(map.cell(4, 1).value), infinite_cost);
  EXPECT_TRUE(r.borders().empty());
  // Euclidean regions ignore walls: every passable cell has a region.
  const Regions e = label_grid(map, std::vector<CellCoord>{{0, 1}}, {.metric = Metric::euclidean});
  EXPECT_EQ(e.unreached(), 0u);
  EXPECT_EQ(e.sizes()[0], 12u);
}

TEST(GridRegions, EuclideanLabelsEqualTheNearestSeedLowestIndexOnTies) {
  std::mt19937 rng(7);
  for (int i = 0; i < 60; ++i) {
    const int w = std::uniform_int_distribution<int>(1, 50)(rng), h = std::uniform_int_distribution<int>(1, 50)(rng);
    const GridMap map = test::random_grid({w, h, 0.2, false}, rng);
    if (map.passable_count() == 0) continue;
    const auto seeds = test::random_seeds(map, 1 + i % 12, rng);
    const Regions r = label_grid(map, seeds, {.metric = Metric::euclidean});
    EXPECT_EQ(r.metric(), Metric::euclidean);
    for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
      if (!map.passable(CellId{c})) {
        EXPECT_EQ(r.label(c), no_region);
        continue;
      }
      const CellCoord p = map.coord(CellId{c});
      long best = -1;
      RegionId want = no_region;
      for (RegionId k = 0; k < seeds.size(); ++k) {  // exact integer distances: ties are ties
        const long dx = seeds[k].x - p.x, dy = seeds[k].y - p.y, d2 = dx * dx + dy * dy;
        if (best < 0 || d2 < best) {
          best = d2;
          want = k;
        }
      }
      ASSERT_EQ(r.label(c), want) << "cell (" << p.x << "," << p.y << ")";
      EXPECT_NEAR(r.distance(c), std::sqrt(static_cast<double>(best)), 1e-12);
    }
    EXPECT_EQ(border_pairs(r), touching_pairs(GridSpace(map, DiagonalRule::no_corner_cutting), r.labels()));
  }
}

TEST(GridRegions, BadSeedsAreRefusedNamingTheSeed) {
  GridMap map(256, 256);
  map.set_passable(5, 5, false);
  const auto error = [&](std::vector<CellCoord> seeds) {
    return test::error_text<BuildError>([&] { (void)label_grid(map, seeds); });
  };
  EXPECT_EQ(error({{1, 1}, {2, 2}, {400, 2}}), "seed 3: (400,2) is outside the 256x256 map");
  EXPECT_EQ(error({{-1, 0}}), "seed 1: (-1,0) is outside the 256x256 map");
  EXPECT_EQ(error({{1, 1}, {5, 5}}), "seed 2: (5,5) is a blocked cell");
  EXPECT_EQ(error({{1, 1}, {2, 2}, {1, 1}}), "seed 3: (1,1) repeats seed 1");
  EXPECT_EQ(error({}), "regions need at least one seed");
  const auto problem = find_seed_problem(map, std::vector<CellCoord>{{0, 0}, {5, 5}});
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->index, 1u);
  EXPECT_FALSE(find_seed_problem(map, std::vector<CellCoord>{{0, 0}, {255, 255}}));
}

// ---- navmesh ------------------------------------------------------------------------------

TEST(NavMeshRegions, LabelsEqualOneDijkstraPerSeedOverCentroidToMidpointSteps) {
  const navmesh::NavMesh mesh = navmesh::build_from_triangles(io::load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj"));
  const navmesh::NavMeshData& d = mesh.data();
  const std::size_t n = mesh.poly_count();
  // The documented step, computed here from the mesh data alone.
  const auto centroid = [&](std::uint32_t p) {
    Vec3 sum;
    for (std::uint32_t k = d.poly_begin[p]; k < d.poly_begin[p + 1]; ++k) sum += d.vertices[d.corners[k]];
    return sum / static_cast<double>(d.poly_begin[p + 1] - d.poly_begin[p]);
  };
  const auto plain_dijkstra = [&](std::uint32_t source) {
    std::vector<Cost> dist(n, infinite_cost);
    using Item = std::pair<Cost, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    dist[source] = 0;
    open.push({0, source});
    while (!open.empty()) {
      const auto [g, p] = open.top();
      open.pop();
      if (g > dist[p]) continue;
      for (std::uint32_t k = d.poly_begin[p]; k < d.poly_begin[p + 1]; ++k) {
        if (!d.neighbors[k].valid()) continue;
        const std::uint32_t q = d.neighbors[k].value;
        const std::uint32_t next = k + 1 == d.poly_begin[p + 1] ? d.poly_begin[p] : k + 1;
        const Vec3 mid = (d.vertices[d.corners[k]] + d.vertices[d.corners[next]]) * 0.5;
        const Cost step = distance(centroid(p), mid) + distance(mid, centroid(q));
        if (g + step < dist[q]) {
          dist[q] = g + step;
          open.push({dist[q], q});
        }
      }
    }
    return dist;
  };
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> any(0, static_cast<std::uint32_t>(n - 1));
  for (const std::size_t count : {1u, 3u, 8u, 20u}) {
    std::vector<PolyId> seeds;
    std::set<std::uint32_t> used;
    while (seeds.size() < count) {
      const std::uint32_t p = any(rng);
      if (used.insert(p).second) seeds.push_back(PolyId{p});
    }
    const Regions r = label_navmesh(mesh, seeds);
    std::vector<std::vector<Cost>> per_seed;
    for (const PolyId s : seeds) per_seed.push_back(plain_dijkstra(s.value));
    expect_geodesic(r, per_seed, std::vector<bool>(n, true));
    EXPECT_EQ(r.adjacency().coordinates(), graph::Coordinates::xyz);
    // Borders: polygons sharing an edge with different labels.
    std::set<std::pair<RegionId, RegionId>> touching;
    for (std::uint32_t p = 0; p < n; ++p) {
      for (const PolyId q : mesh.neighbors(PolyId{p})) {
        const RegionId a = r.label(p), b = q.valid() ? r.label(q.value) : no_region;
        if (a != no_region && b != no_region && a != b) touching.insert({std::min(a, b), std::max(a, b)});
      }
    }
    EXPECT_EQ(border_pairs(r), touching);
  }
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)label_navmesh(mesh, std::vector<PolyId>{PolyId{0}, PolyId{99999}}); }),
            "seed 2: polygon 99999 is not in the mesh (" + std::to_string(n) + " polygons)");
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)label_navmesh(mesh, std::vector<PolyId>{PolyId{3}, PolyId{3}}); }),
            "seed 2: polygon 3 repeats seed 1");
}

// ---- seed index ---------------------------------------------------------------------------

TEST(SeedIndex, NearestAndRegionAtEqualBruteForce) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> coord(-50, 50), radius(0, 30);
  for (int round = 0; round < 40; ++round) {
    std::vector<SeedArea> seeds(1 + round % 17);
    for (SeedArea& s : seeds) {
      s.center = {coord(rng), coord(rng), round % 2 == 0 ? 0.0 : coord(rng) / 10};
      if (round % 3 != 0) s.radius = radius(rng);
    }
    const SeedIndex index(seeds);
    ASSERT_EQ(index.size(), seeds.size());
    for (int q = 0; q < 200; ++q) {
      const Vec3 p{coord(rng), coord(rng), 0};
      RegionId nearest = no_region, inside = no_region;
      double nearest_d2 = infinite_cost, inside_d2 = infinite_cost;
      for (RegionId k = 0; k < seeds.size(); ++k) {
        const double d2 = length_squared(p - seeds[k].center);
        if (d2 < nearest_d2) {
          nearest_d2 = d2;
          nearest = k;
        }
        if (d2 <= seeds[k].radius * seeds[k].radius && d2 < inside_d2) {
          inside_d2 = d2;
          inside = k;
        }
      }
      EXPECT_EQ(index.nearest(p), nearest);
      EXPECT_EQ(index.region_at(p), inside);
    }
  }
  EXPECT_EQ(SeedIndex(std::vector<SeedArea>{{{0, 0, 0}}}).nearest({NAN, 0, 0}), no_region);
  EXPECT_EQ(test::error_text<BuildError>([] { SeedIndex(std::vector<SeedArea>{}); }),
            "a seed index needs at least one seed");
  EXPECT_EQ(test::error_text<BuildError>([] { SeedIndex(std::vector<SeedArea>{{{0, 0, 0}, -1}}); }),
            "seed 1: the radius must be >= 0");
}

}  // namespace
}  // namespace waymark::regions::labeling_test
