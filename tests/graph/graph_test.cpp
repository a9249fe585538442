// Graph and GraphBuilder: the CSR layout, the checks on input, the search concept, and the
// admissible Euclidean scale.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/heuristics.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph_test {
using namespace search;
using namespace graph;
namespace {

static_assert(DenseSearchSpace<Graph>);
static_assert(TraversabilityAware<Graph>);
static_assert(Heuristic<EuclideanHeuristic, VertexId>);

constexpr VertexId v0{0}, v1{1}, v2{2}, v3{3};

std::vector<std::uint32_t> target_values(const Graph& g, VertexId v) {
  std::vector<std::uint32_t> out;
  for (const VertexId t : g.targets(v)) out.push_back(t.value);
  return out;
}

TEST(GraphBuilder, GroupsArcsBySourceKeepingOrderParallelArcsAndSelfLoops) {
  GraphBuilder b(4);
  b.add_edge(v2, v0, 1.5);
  b.add_edge(v0, v1, 2);
  b.add_edge(v2, v2, 0.25);  // self-loop
  b.add_edge(v0, v1, 3);     // parallel
  b.add_undirected_edge(v1, v2, 4);
  const Graph g = b.build();
  ASSERT_EQ(g.node_count(), 4u);
  ASSERT_EQ(g.arc_count(), 6u);
  EXPECT_EQ(target_values(g, v0), (std::vector<std::uint32_t>{1, 1}));
  EXPECT_EQ(std::vector<Cost>(g.weights(v0).begin(), g.weights(v0).end()), (std::vector<Cost>{2, 3}));
  EXPECT_EQ(target_values(g, v1), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(target_values(g, v2), (std::vector<std::uint32_t>{0, 2, 1}));
  EXPECT_EQ(g.out_degree(v3), 0u);  // isolated
  std::vector<std::pair<std::uint32_t, Cost>> seen;
  g.for_each_successor(v2, [&](VertexId t, Cost w) { seen.emplace_back(t.value, w); });
  EXPECT_EQ(seen, (std::vector<std::pair<std::uint32_t, Cost>>{{0, 1.5}, {2, 0.25}, {1, 4}}));
  EXPECT_FALSE(g.has_positions());
  EXPECT_TRUE(g.positions().empty());
}

TEST(GraphBuilder, UndirectedSelfLoopIsTwoArcsAndBuildCanRepeat) {
  GraphBuilder b;
  const VertexId a = b.add_vertex();
  b.add_undirected_edge(a, a, 1);
  EXPECT_EQ(b.build().arc_count(), 2u);
  const VertexId c = b.add_vertex();
  b.add_edge(a, c, 2);
  const Graph g = b.build();
  EXPECT_EQ(g.node_count(), 2u);
  EXPECT_EQ(g.arc_count(), 3u);
}

TEST(GraphBuilder, ReversedTurnsEveryArcAroundAndKeepsPositions) {
  GraphBuilder b(3);
  b.add_edge(v0, v1, 2);
  b.add_edge(v0, v1, 3);  // parallel
  b.add_edge(v1, v2, 5);
  b.add_edge(v2, v2, 1);  // self-loop
  b.set_positions({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, Coordinates::xy);
  const Graph r = b.build().reversed();
  ASSERT_EQ(r.arc_count(), 4u);
  EXPECT_TRUE(target_values(r, v0).empty());
  EXPECT_EQ(target_values(r, v1), (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(std::vector<Cost>(r.weights(v1).begin(), r.weights(v1).end()), (std::vector<Cost>{2, 3}));
  EXPECT_EQ(target_values(r, v2), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(r.position(v2), (Vec3{2, 0, 0}));
}

TEST(GraphBuilder, EmptyGraph) {
  const Graph g = GraphBuilder().build();
  EXPECT_EQ(g.node_count(), 0u);
  EXPECT_EQ(g.arc_count(), 0u);
  EXPECT_FALSE(g.contains(v0));
  EXPECT_EQ(Graph().node_count(), 0u);
}

TEST(GraphBuilder, RejectsBadWeightsAndVerticesAndStaysUnchanged) {
  GraphBuilder b(2);
  b.add_edge(v0, v1, 0);  // zero is a valid weight
  const double bad_weights[] = {-1, -0.0001, std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity()};
  for (const double w : bad_weights) {
    EXPECT_THROW(b.add_edge(v0, v1, w), BuildError) << w;
    EXPECT_THROW(b.add_undirected_edge(v0, v1, w), BuildError) << w;
  }
  EXPECT_THROW(b.add_edge(v0, v2, 1), BuildError);
  EXPECT_THROW(b.add_edge(VertexId::invalid(), v0, 1), BuildError);
  EXPECT_THROW(b.add_undirected_edge(v1, v2, 1), BuildError);
  EXPECT_EQ(b.arc_count(), 1u);
  try {
    b.add_edge(v0, v1, -2.5);
    FAIL() << "no BuildError";
  } catch (const BuildError& e) {
    EXPECT_STREQ(e.what(), "edge weight must be finite and >= 0, got -2.5");
  }
}

TEST(GraphBuilder, ChecksPositions) {
  GraphBuilder b(2);
  EXPECT_THROW(b.set_positions({{0, 0, 0}, {1, 1, 0}}, Coordinates::none), BuildError);
  EXPECT_THROW(b.set_positions({{0, 0, 0}, {1, NAN, 0}}, Coordinates::xy), BuildError);
  EXPECT_THROW(b.set_positions({{0, 0, 0}, {1, 1, INFINITY}}, Coordinates::xyz), BuildError);
  EXPECT_THROW(b.set_positions({{0, 0, 0}, {1, 1, 2}}, Coordinates::xy), BuildError);  // z in 2D
  b.set_positions({{0, 0, 0}}, Coordinates::xy);
  EXPECT_THROW((void)b.build(), BuildError);  // one position, two vertices
  b.add_vertex();
  EXPECT_THROW((void)b.build(), BuildError);
  b.set_positions({{0, 0, 0}, {1, 2, 3}, {4, 5, 6}}, Coordinates::xyz);
  const Graph g = b.build();
  EXPECT_EQ(g.coordinates(), Coordinates::xyz);
  EXPECT_EQ(g.position(v2), (Vec3{4, 5, 6}));
}

TEST(GraphSearch, DijkstraAndAStarFindTheShortestPathAndReuse) {
  // 0 -> 1 -> 3 costs 2 + 2; 0 -> 2 -> 3 costs 1 + 4; the direct arc 0 -> 3 costs 5.
  GraphBuilder b(5);
  b.add_edge(v0, v1, 2);
  b.add_edge(v1, v3, 2);
  b.add_edge(v0, v2, 1);
  b.add_edge(v2, v3, 4);
  b.add_edge(v0, v3, 5);
  const Graph g = b.build();
  Dijkstra<Graph> dijkstra(g);
  AStar<Graph, ZeroHeuristic> astar(g);
  for (int repeat = 0; repeat < 2; ++repeat) {
    ASSERT_TRUE(solve(dijkstra, v0, v3).succeeded());
    EXPECT_EQ(dijkstra.path().nodes, (std::vector<VertexId>{v0, v1, v3}));
    EXPECT_EQ(dijkstra.path().cost, 4);
    ASSERT_TRUE(solve(astar, v0, v3).succeeded());
    EXPECT_EQ(astar.path().cost, 4);
  }
  EXPECT_TRUE(solve(dijkstra, v3, v0).failed());         // one-way
  EXPECT_TRUE(solve(dijkstra, v0, VertexId{4}).failed()); // isolated
  ASSERT_TRUE(solve(dijkstra, v2, v2).succeeded());
  EXPECT_EQ(dijkstra.path().nodes, (std::vector<VertexId>{v2}));
  // An id outside the graph is not traversable: the search fails without touching memory.
  EXPECT_TRUE(solve(dijkstra, v0, VertexId{99}).failed());
  EXPECT_EQ(dijkstra.stats().expanded, 0u);
}

TEST(GraphHeuristic, AdmissibleScaleIsTheSmallestWeightPerLength) {
  GraphBuilder b(4);
  b.set_positions({{0, 0, 0}, {3, 4, 0}, {6, 8, 0}, {6, 8, 0}}, Coordinates::xy);
  b.add_edge(v0, v1, 10);  // length 5: ratio 2
  b.add_edge(v1, v2, 7.5); // ratio 1.5
  b.add_edge(v2, v2, 0);   // self-loop: ignored
  b.add_edge(v2, v3, 0);   // coincident endpoints: ignored
  const Graph g = b.build();
  const double scale = admissible_euclidean_scale(g);
  EXPECT_NEAR(scale, 1.5, 1e-9);
  EXPECT_LT(scale, 1.5);  // the margin
  const EuclideanHeuristic h = EuclideanHeuristic::admissible(g);
  EXPECT_EQ(h.scale(), scale);
  EXPECT_NEAR(h(v0, v2), 15, 1e-9);
  EXPECT_LE(h(v0, v2), 17.5);  // the true cost 0 -> 2
  AStar<Graph, EuclideanHeuristic> astar(g, h);
  ASSERT_TRUE(solve(astar, v0, v3).succeeded());
  EXPECT_EQ(astar.path().cost, 17.5);
}

TEST(GraphHeuristic, ScaleIsZeroWithoutPositionsOrPositiveLengths) {
  GraphBuilder b(2);
  b.add_edge(v0, v1, 1);
  EXPECT_EQ(admissible_euclidean_scale(b.build()), 0);
  b.set_positions({{1, 1, 0}, {1, 1, 0}}, Coordinates::xy);
  EXPECT_EQ(admissible_euclidean_scale(b.build()), 0);
  GraphBuilder zero(2);
  zero.set_positions({{0, 0, 0}, {1, 0, 0}}, Coordinates::xy);
  zero.add_edge(v0, v1, 0);  // a free arc: no positive scale is admissible
  EXPECT_EQ(admissible_euclidean_scale(zero.build()), 0);
}

}  // namespace
}  // namespace waymark::graph_test
