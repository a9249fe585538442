// Road-graph regions against Boost Graph's Dijkstra run once per seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "support/error_text.hpp"
#include "support/random_graph.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/regions/labeling.hpp"

namespace waymark::regions::graph_regions_test {
namespace {

TEST(GraphRegions, LabelsEqualBoostDijkstraFromEachSeed) {
  std::mt19937 rng(31);
  int graphs = 0;
  for (int i = 0; i < 150; ++i) {
    const test::EdgeList list =
        test::random_edge_list(rng, i % 2 == 0 ? graph::Coordinates::none : graph::Coordinates::xy);
    const graph::Graph g = test::build_graph(list);
    const test::BoostReference boost_ref(list);
    std::vector<VertexId> seeds;
    std::set<std::uint32_t> used;
    const std::size_t count = std::min<std::size_t>(1 + i % 6, list.vertices);
    std::uniform_int_distribution<std::uint32_t> any(0, static_cast<std::uint32_t>(list.vertices - 1));
    while (seeds.size() < count) {
      const std::uint32_t v = any(rng);
      if (used.insert(v).second) seeds.push_back(VertexId{v});
    }
    const Regions r = label_graph(g, seeds);
    std::vector<std::vector<Cost>> per_seed;
    for (const VertexId s : seeds) per_seed.push_back(boost_ref.distances(s.value));
    std::vector<std::uint32_t> sizes(seeds.size(), 0);
    std::size_t unreached = 0;
    for (std::uint32_t v = 0; v < list.vertices; ++v) {
      Cost best = infinite_cost;
      for (const auto& d : per_seed) best = std::min(best, d[v]);
      if (best == infinite_cost) {
        EXPECT_EQ(r.label(v), no_region);
        ++unreached;
        continue;
      }
      const RegionId l = r.label(v);
      ASSERT_LT(l, seeds.size());
      EXPECT_NEAR(r.distance(v), best, test::cost_tolerance(best));
      EXPECT_NEAR(per_seed[l][v], best, test::cost_tolerance(best)) << "vertex " << v << " labelled " << l;
      ++sizes[l];
    }
    EXPECT_EQ(r.unreached(), unreached);
    EXPECT_EQ(std::vector<std::uint32_t>(r.sizes().begin(), r.sizes().end()), sizes);
    // Borders: arcs between differently labelled vertices, in either direction.
    std::set<std::pair<RegionId, RegionId>> touching, listed;
    for (const test::RawEdge& e : list.edges) {
      const RegionId a = r.label(e.from), b = r.label(e.to);
      if (a != no_region && b != no_region && a != b) touching.insert({std::min(a, b), std::max(a, b)});
    }
    for (const RegionBorder& b : r.borders()) listed.insert({b.a, b.b});
    EXPECT_EQ(listed, touching);
    EXPECT_EQ(r.adjacency().has_positions(), g.has_positions());
    ++graphs;
  }
  EXPECT_EQ(graphs, 150);
}

TEST(GraphRegions, BadSeedsAreRefused) {
  graph::GraphBuilder b(3);
  b.add_undirected_edge(VertexId{0}, VertexId{1}, 1);
  const graph::Graph g = b.build();
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)label_graph(g, std::vector<VertexId>{VertexId{7}}); }),
            "seed 1: vertex 7 is not in the graph (3 vertices)");
  EXPECT_EQ(test::error_text<BuildError>(
                [&] { (void)label_graph(g, std::vector<VertexId>{VertexId{1}, VertexId{1}}); }),
            "seed 2: vertex 1 repeats seed 1");
  EXPECT_EQ(test::error_text<BuildError>([&] { (void)label_graph(g, std::vector<VertexId>{}); }),
            "regions need at least one seed");
  // Vertex 2 has no arc: no seed reaches it.
  const Regions r = label_graph(g, std::vector<VertexId>{VertexId{0}});
  EXPECT_EQ(r.unreached(), 1u);
  EXPECT_EQ(r.label(2), no_region);
}

}  // namespace
}  // namespace waymark::regions::graph_regions_test
