// VertexIndex::nearest against a brute-force scan over random point sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/vertex_index.hpp"

namespace waymark::graph_vertex_index_test {
using namespace graph;
namespace {

Graph graph_at(const std::vector<Vec3>& points, Coordinates kind) {
  GraphBuilder b(points.size());
  b.set_positions(points, kind);
  return b.build();
}

/// Lowest id among the accepted vertices at the smallest squared distance.
template <class Filter>
std::optional<VertexId> brute_force(const std::vector<Vec3>& points, Vec3 p, Filter accept) {
  std::optional<VertexId> best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    const double dx = points[i].x - p.x, dy = points[i].y - p.y, dz = points[i].z - p.z;
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best_d2 && accept(VertexId{i})) {
      best_d2 = d2;
      best = VertexId{i};
    }
  }
  return best;
}

enum class Layout { uniform, clustered, line, duplicates, spatial };

std::vector<Vec3> random_points(Layout layout, std::size_t n, std::mt19937& rng) {
  constexpr double extent = 1000;
  constexpr double cluster_radius = 5;
  constexpr int clusters = 4;
  std::uniform_real_distribution<double> coord(0, extent);
  std::normal_distribution<double> spread(0, cluster_radius);
  std::vector<Vec3> centres;
  for (int c = 0; c < clusters; ++c) centres.push_back({coord(rng), coord(rng), 0});
  std::vector<Vec3> points;
  for (std::size_t i = 0; i < n; ++i) {
    switch (layout) {
      case Layout::uniform: points.push_back({coord(rng), coord(rng), 0}); break;
      case Layout::clustered: {
        const Vec3 c = centres[i % clusters];
        points.push_back({c.x + spread(rng), c.y + spread(rng), 0});
        break;
      }
      case Layout::line: points.push_back({coord(rng), 7, 0}); break;  // zero-height box
      case Layout::duplicates: points.push_back({std::floor(coord(rng) / 250), 3, 0}); break;  // few spots
      case Layout::spatial: points.push_back({coord(rng), coord(rng), coord(rng)}); break;
    }
  }
  return points;
}

TEST(GraphVertexIndex, NearestMatchesBruteForceWithAndWithoutFilters) {
  constexpr Layout layouts[] = {Layout::uniform, Layout::clustered, Layout::line, Layout::duplicates,
                                Layout::spatial};
  constexpr std::size_t sizes[] = {1, 2, 17, 300, 4000};
  constexpr int queries = 200;
  constexpr double margin = 300;  // queries also fall this far outside the points' box
  std::mt19937 rng(7);
  std::size_t checked = 0;
  for (const Layout layout : layouts) {
    for (const std::size_t n : sizes) {
      const std::vector<Vec3> points = random_points(layout, n, rng);
      const Coordinates kind = layout == Layout::spatial ? Coordinates::xyz : Coordinates::xy;
      const Graph graph = graph_at(points, kind);
      const VertexIndex index(graph);
      SCOPED_TRACE(::testing::Message() << "layout " << static_cast<int>(layout) << ", n " << n);
      EXPECT_LE(index.columns() * index.rows(), 3 * ((n + 1) / 2) + 1);  // about n / 2 buckets
      std::uniform_real_distribution<double> coord(-margin, 1000 + margin);
      const auto every_third = [](VertexId v) { return v.value % 3 == 1; };
      const auto only_last = [&](VertexId v) { return v.value == n - 1; };
      for (int q = 0; q < queries; ++q) {
        const Vec3 p = q % 10 == 0 ? points[static_cast<std::size_t>(q) % n]  // exactly on a vertex
                                     : Vec3{coord(rng), coord(rng), kind == Coordinates::xyz ? coord(rng) : 0};
        EXPECT_EQ(index.nearest(p), brute_force(points, p, [](VertexId) { return true; }));
        EXPECT_EQ(index.nearest(p, every_third), brute_force(points, p, every_third));
        EXPECT_EQ(index.nearest(p, only_last), std::optional<VertexId>(VertexId{static_cast<std::uint32_t>(n - 1)}));
        EXPECT_EQ(index.nearest(p, [](VertexId) { return false; }), std::nullopt);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5u * 5u * queries);
}

TEST(GraphVertexIndex, TiesGoToTheLowestIdAndTheFilterSeesOnlyImprovements) {
  const std::vector<Vec3> points = {{5, 5, 0}, {1, 1, 0}, {1, 1, 0}, {9, 9, 0}, {1, 1, 0}};
  const VertexIndex index(graph_at(points, Coordinates::xy));
  EXPECT_EQ(index.nearest({1.2, 0.9, 0}), VertexId{1});
  std::vector<std::uint32_t> asked;
  const auto not_one = [&](VertexId v) {
    asked.push_back(v.value);
    return v.value != 1;
  };
  EXPECT_EQ(index.nearest({1.2, 0.9, 0}, not_one), VertexId{2});
  EXPECT_EQ(std::count(asked.begin(), asked.end(), 3u), 0);  // farther than an accepted vertex
}

TEST(GraphVertexIndex, EdgeCases) {
  GraphBuilder no_positions(3);
  EXPECT_THROW(VertexIndex{no_positions.build()}, BuildError);
  const Graph g = graph_at({{0, 0, 0}, {1, 0, 0}}, Coordinates::xy);
  EXPECT_THROW(VertexIndex(g, VertexIndexParams{.vertices_per_cell = 0}), BuildError);
  EXPECT_THROW(VertexIndex(g, VertexIndexParams{.vertices_per_cell = NAN}), BuildError);
  const VertexIndex index(g);
  EXPECT_EQ(index.nearest({NAN, 0, 0}), std::nullopt);
  EXPECT_EQ(index.nearest({0, INFINITY, 0}), std::nullopt);
  EXPECT_EQ(index.nearest({1e9, -1e9, 0}), VertexId{1});  // far outside the buckets
  const VertexIndex empty(graph_at({}, Coordinates::xy));
  EXPECT_EQ(empty.vertex_count(), 0u);
  EXPECT_EQ(empty.nearest({0, 0, 0}), std::nullopt);
  // The index copies the positions: the graph may go away.
  std::optional<VertexIndex> kept;
  {
    const Graph temporary = graph_at({{2, 2, 0}, {8, 8, 0}}, Coordinates::xy);
    kept.emplace(temporary);
  }
  EXPECT_EQ(kept->nearest({7, 7, 0}), VertexId{1});
}

}  // namespace
}  // namespace waymark::graph_vertex_index_test
