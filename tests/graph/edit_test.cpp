// Graph weights that change: every planner refuses (or, for plain Dijkstra, simply reads) the
// edited weights until synced, then answers as a fresh planner and as Boost's Dijkstra on the
// edited graph — for every algorithm.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/random_graph.hpp"
#include "support/random_grid.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph_edit_test {
using namespace graph;
namespace {

/// The graph's arcs as an edge list, for the Boost reference.
test::EdgeList edge_list_of(const Graph& g) {
  test::EdgeList list;
  list.vertices = g.node_count();
  for (std::uint32_t a = 0; a < g.arc_count(); ++a) {
    const ArcId arc{a};
    list.edges.push_back({g.tail(arc).value, g.head(arc).value, g.weight(arc), false});
  }
  return list;
}

/// Edits a few arcs: some cheaper, some dearer, some to zero.
void edit_weights(Graph& g, std::mt19937& rng, int count) {
  std::uniform_int_distribution<std::uint32_t> arc(0, static_cast<std::uint32_t>(g.arc_count() - 1));
  std::uniform_int_distribution<int> how(0, 3);
  for (int i = 0; i < count; ++i) {
    const ArcId a{arc(rng)};
    const Cost w = g.weight(a);
    switch (how(rng)) {
      case 0: g.set_weight(a, w * 0.25); break;
      case 1: g.set_weight(a, w * 3 + 1); break;
      case 2: g.set_weight(a, 0); break;
      default: g.set_weight(a, w + 0.5); break;
    }
  }
}

void expect_planner_follows_edits(const Graph& original, Algorithm algorithm, unsigned seed) {
  SCOPED_TRACE(to_string(algorithm));
  std::mt19937 rng(seed);
  Graph g = original;
  GraphPlanner planner(g, {.algorithm = algorithm});
  search::SearchHandle<VertexId> planner_search = planner.make_search();
  search::SearchHandle<VertexId> handle = planner.make_search();
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
  for (int round = 0; round < 3; ++round) {
    edit_weights(g, rng, 40);
    const VertexId s{vertex(rng)}, t{vertex(rng)};
    if (algorithm == Algorithm::dijkstra) {
      EXPECT_FALSE(planner.stale());  // nothing precomputed: it reads the weights as they are
    } else {
      EXPECT_TRUE(planner.stale());
      EXPECT_EQ(handle.begin(s, t), Status::failure(StatusDetail::stale_world));
      EXPECT_EQ(planner_search.run(s, t), Status::failure(StatusDetail::stale_world));
      planner.sync();
      EXPECT_FALSE(planner.stale());
    }
    const Graph copy = g;
    GraphPlanner fresh(copy, {.algorithm = algorithm});
    search::SearchHandle<VertexId> fresh_search = fresh.make_search();
    const test::BoostReference boost_ref(edge_list_of(g));
    for (int q = 0; q < 15; ++q) {
      const VertexId from{vertex(rng)}, to{vertex(rng)};
      const Cost expected = boost_ref.distances(from.value)[to.value];
      const Status a = handle.run(from, to);
      const Status b = fresh_search.run(from, to);
      ASSERT_EQ(a.succeeded(), expected != infinite_cost) << from.value << " -> " << to.value;
      ASSERT_EQ(a, b);
      if (!a.succeeded()) continue;
      EXPECT_NEAR(handle.path().cost, expected, test::cost_tolerance(expected));
      EXPECT_NEAR(fresh_search.path().cost, expected, test::cost_tolerance(expected));
      // The path is made of the edited arcs and costs what they now weigh.
      Cost sum = 0;
      for (std::size_t i = 1; i < handle.path().nodes.size(); ++i) {
        const auto arc = g.find_arc(handle.path().nodes[i - 1], handle.path().nodes[i]);
        ASSERT_TRUE(arc.has_value());
        sum += g.weight(*arc);
      }
      EXPECT_NEAR(sum, handle.path().cost, test::cost_tolerance(expected));
    }
  }
}

TEST(GraphEdits, EveryAlgorithmOnOldenburgFollowsWeightEdits) {
  const Graph g = io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  // Route tables take seconds to build on 6,000 vertices; the random graphs below cover them.
  for (const auto& [algorithm, name] : algorithm_names) {
    if (algorithm != Algorithm::table) expect_planner_follows_edits(g, algorithm, 11);
  }
}

TEST(GraphEdits, EveryAlgorithmOnRandomGraphsFollowsWeightEdits) {
  std::mt19937 rng(23);
  for (int k = 0; k < 4; ++k) {
    const Graph g = test::build_graph(test::random_edge_list(rng, Coordinates::xy));
    if (g.arc_count() == 0) continue;
    for (const auto& [algorithm, name] : algorithm_names) expect_planner_follows_edits(g, algorithm, 31 + k);
  }
}

TEST(GraphEdits, WeightsAreCheckedVersionedAndLogged) {
  GraphBuilder b(3);
  b.add_edge(VertexId{0}, VertexId{1}, 2.0);
  b.add_edge(VertexId{0}, VertexId{1}, 1.5);
  b.add_edge(VertexId{1}, VertexId{2}, 4.0);
  Graph g = b.build();
  EXPECT_EQ(g.version(), 0u);
  const auto cheapest = g.find_arc(VertexId{0}, VertexId{1});
  ASSERT_TRUE(cheapest.has_value());
  EXPECT_EQ(g.weight(*cheapest), 1.5);
  EXPECT_EQ(g.tail(*cheapest), VertexId{0});
  EXPECT_EQ(g.head(*cheapest), VertexId{1});
  EXPECT_FALSE(g.find_arc(VertexId{2}, VertexId{0}).has_value());
  EXPECT_THROW(g.set_weight(*cheapest, -1), BuildError);
  EXPECT_THROW(g.set_weight(*cheapest, infinite_cost), BuildError);
  EXPECT_THROW(g.set_weight(ArcId{99}, 1), BuildError);
  EXPECT_EQ(g.version(), 0u);
  g.set_weight(*cheapest, 1.5);  // unchanged: not an edit
  EXPECT_EQ(g.version(), 0u);
  const ArcId last{2};
  g.set_weight(last, 0.5);
  EXPECT_EQ(g.version(), 1u);
  const auto changes = g.changes_since(0);
  ASSERT_TRUE(changes.has_value());
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ((*changes)[0].arc, last);
  EXPECT_EQ((*changes)[0].old_weight, 4.0);
  EXPECT_EQ(g.weight(last), 0.5);
}

TEST(GraphEdits, TheEuclideanScaleFollowsLoweredWeights) {
  const Graph original =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  Graph g = original;
  const EuclideanHeuristic before = EuclideanHeuristic::admissible(g);
  std::mt19937 rng(4);
  edit_weights(g, rng, 200);
  EXPECT_TRUE(before.stale());
  const EuclideanHeuristic after = before.synced();
  EXPECT_FALSE(after.stale());
  EXPECT_LE(after.scale(), before.scale());
  EXPECT_LE(after.scale(), admissible_euclidean_scale(g));  // never above what a full recompute allows
  // A search refuses the stale heuristic.
  search::AStar<Graph, EuclideanHeuristic> astar(g, before);
  EXPECT_EQ(search::solve(astar, VertexId{0}, VertexId{100}), Status::failure(StatusDetail::stale_world));
  astar.set_heuristic(after);
  EXPECT_NE(search::solve(astar, VertexId{0}, VertexId{100}).detail, StatusDetail::stale_world);
}

}  // namespace
}  // namespace waymark::graph_edit_test
