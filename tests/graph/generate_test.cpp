// The road-network generator: size, positions, highways, one-way streets, the admissible
// Euclidean scale it promises, and determinism.
#include <gtest/gtest.h>

#include <algorithm>

#include "waymark/core/errors.hpp"
#include "waymark/graph/generate.hpp"
#include "waymark/graph/heuristics.hpp"

namespace waymark::graph_generate_test {
using namespace graph;
namespace {

RoadNetworkParams small(std::uint64_t seed) {
  RoadNetworkParams p;
  p.columns = 40;
  p.rows = 30;
  p.highway_every = 10;
  p.seed = seed;
  return p;
}

bool has_arc(const Graph& g, std::uint32_t from, std::uint32_t to) {
  for (const VertexId t : g.targets(VertexId{from})) {
    if (t.value == to) return true;
  }
  return false;
}

TEST(GraphGenerate, RoadNetworkHasTheAdvertisedShape) {
  const RoadNetworkParams p = small(7);
  const Graph g = generate_road_network(p);
  ASSERT_EQ(g.node_count(), 1200u);
  ASSERT_TRUE(g.has_positions());
  // Jitter keeps every intersection within its own cell.
  const Vec3 q = g.position(VertexId{3 * 40 + 5});
  EXPECT_NEAR(q.x, 5 * p.spacing, p.jitter * p.spacing);
  EXPECT_NEAR(q.y, 3 * p.spacing, p.jitter * p.spacing);
  // Row 0 and column 10 are highways: every segment there exists both ways.
  for (std::uint32_t x = 0; x + 1 < 40; ++x) {
    EXPECT_TRUE(has_arc(g, x, x + 1) && has_arc(g, x + 1, x)) << x;
  }
  for (std::uint32_t y = 0; y + 1 < 30; ++y) {
    EXPECT_TRUE(has_arc(g, y * 40 + 10, (y + 1) * 40 + 10)) << y;
  }
  // Streets: some are missing, some one-way.
  std::size_t one_way = 0, missing = 0;
  for (std::uint32_t y = 1; y < 30; ++y) {
    for (std::uint32_t x = 0; x + 1 < 40; ++x) {
      if (y % 10 == 0) continue;
      const std::uint32_t a = y * 40 + x;
      const bool ab = has_arc(g, a, a + 1), ba = has_arc(g, a + 1, a);
      one_way += ab != ba ? 1 : 0;
      missing += !ab && !ba ? 1 : 0;
    }
  }
  EXPECT_GT(one_way, 20u);
  EXPECT_GT(missing, 20u);
  // Travel times are never below length / highway speed.
  EXPECT_GE(admissible_euclidean_scale(g), (1 - 1e-9) / p.highway_speed);
}

TEST(GraphGenerate, SameSeedSameGraphOtherSeedOtherGraph) {
  const Graph a = generate_road_network(small(3)), b = generate_road_network(small(3)),
              c = generate_road_network(small(4));
  ASSERT_EQ(a.arc_count(), b.arc_count());
  for (std::uint32_t v = 0; v < a.node_count(); ++v) {
    ASSERT_TRUE(std::equal(a.weights(VertexId{v}).begin(), a.weights(VertexId{v}).end(), b.weights(VertexId{v}).begin(),
                           b.weights(VertexId{v}).end()));
  }
  EXPECT_NE(a.positions()[5], c.positions()[5]);
}

TEST(GraphGenerate, RejectsBadParameters) {
  RoadNetworkParams p = small(1);
  p.columns = 0;
  EXPECT_THROW((void)generate_road_network(p), BuildError);
  p = small(1);
  p.jitter = 0.5;
  EXPECT_THROW((void)generate_road_network(p), BuildError);
  p = small(1);
  p.highway_speed = 0;
  EXPECT_THROW((void)generate_road_network(p), BuildError);
}

}  // namespace
}  // namespace waymark::graph_generate_test
