// Dijkstra and A* on graphs against Boost Graph's dijkstra_shortest_paths: seeded random graphs
// with every edge case, and the two bundled road networks.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "support/random_graph.hpp"
#include "support/random_grid.hpp"
#include "waymark/graph/heuristics.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph_differential_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

using test::BoostReference;
using test::CheapestArcs;
using test::EdgeList;

/// One search's answer for start → goal against the reference distance.
template <class Search>
void expect_optimal(Search& search, const CheapestArcs& arcs, VertexId start, VertexId goal, Cost expected) {
  const Status st = solve(search, start, goal);
  SCOPED_TRACE(::testing::Message() << "start " << start.value << " goal " << goal.value);
  if (expected == infinite_cost) {
    EXPECT_TRUE(st.failed());
    EXPECT_TRUE(search.path().empty());
    return;
  }
  ASSERT_TRUE(st.succeeded());
  EXPECT_NEAR(search.path().cost, expected, test::cost_tolerance(expected));
  EXPECT_TRUE(arcs.is_valid_path(search.path(), start, goal));
}

/// Largest scale the edge list allows, computed here apart from the library.
double reference_scale(const EdgeList& list) {
  double scale = infinite_cost;
  for (const test::RawEdge& e : list.edges) {
    const double length = distance(list.positions[e.from], list.positions[e.to]);
    if (length > 0) scale = std::min(scale, e.weight / length);
  }
  return scale == infinite_cost ? 0 : scale;
}

/// Arcs that repeat an earlier arc's (from, to).
std::size_t parallel_arcs(const EdgeList& list) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  std::size_t repeats = 0;
  for (const test::RawEdge& e : list.edges) {
    repeats += seen.insert({e.from, e.to}).second ? 0 : 1;
    if (e.undirected && e.from != e.to) repeats += seen.insert({e.to, e.from}).second ? 0 : 1;
  }
  return repeats;
}

/// Vertices no edge touches.
std::size_t isolated_vertices(const EdgeList& list) {
  std::vector<bool> touched(list.vertices, false);
  for (const test::RawEdge& e : list.edges) touched[e.from] = touched[e.to] = true;
  return static_cast<std::size_t>(std::count(touched.begin(), touched.end(), false));
}

TEST(GraphDifferential, RandomGraphsDijkstraAndAStarMatchBoost) {
  constexpr int graphs = 300;
  constexpr int sources_per_graph = 5;
  constexpr std::size_t max_targets = 20;
  constexpr Coordinates kinds[] = {Coordinates::none, Coordinates::xy, Coordinates::xyz};
  std::size_t pairs = 0, unreachable = 0, self_loops = 0, parallel = 0, isolated = 0;
  for (int seed = 0; seed < graphs; ++seed) {
    std::mt19937 rng(static_cast<unsigned>(seed));
    const Coordinates kind = kinds[seed % 3];
    const EdgeList list = test::random_edge_list(rng, kind);
    const Graph graph = test::build_graph(list);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << list.vertices << " vertices, "
                                      << list.edges.size() << " edges");
    ASSERT_EQ(graph.node_count(), list.vertices);
    ASSERT_EQ(graph.arc_count(), list.arc_count());
    for (const test::RawEdge& e : list.edges) self_loops += e.from == e.to ? 1 : 0;
    parallel += parallel_arcs(list);
    isolated += isolated_vertices(list);

    const BoostReference boost_ref(list);
    const CheapestArcs arcs(list);
    Dijkstra<Graph> dijkstra(graph);
    // Without coordinates A* runs with the zero heuristic; with them, the admissible scale.
    const double scale = kind == Coordinates::none ? 0 : admissible_euclidean_scale(graph);
    if (kind != Coordinates::none) {
      const double expected = reference_scale(list);
      EXPECT_LE(scale, expected);
      EXPECT_GE(scale, expected * (1 - 2 * euclidean_scale_margin));
    }
    AStar<Graph, ZeroHeuristic> astar_zero(graph);
    std::optional<EuclideanHeuristic> euclid;
    std::optional<AStar<Graph, EuclideanHeuristic>> astar_euclid;
    if (kind != Coordinates::none) {
      euclid.emplace(graph, scale);
      astar_euclid.emplace(graph, *euclid);
    }

    const test::PairCounts counts = test::sample_pairs(
        list, boost_ref, rng, sources_per_graph, max_targets, [](VertexId, const std::vector<Cost>&) {},
        [&](VertexId start, VertexId goal, Cost expected) {
          expect_optimal(dijkstra, arcs, start, goal, expected);
          if (astar_euclid) {
            EXPECT_LE((*euclid)(start, goal), expected) << "inadmissible";
            expect_optimal(*astar_euclid, arcs, start, goal, expected);
          } else {
            expect_optimal(astar_zero, arcs, start, goal, expected);
          }
        });
    pairs += counts.pairs;
    unreachable += counts.unreachable;
  }
  // The generator must really produce the edge cases it promises.
  EXPECT_GT(unreachable, pairs / 20);
  EXPECT_GT(pairs - unreachable, pairs * 2 / 5);
  EXPECT_GT(self_loops, 100u);
  EXPECT_GT(parallel, 100u);
  EXPECT_GT(isolated, 100u);
}

constexpr unsigned pair_seed = 20240611;

constexpr int road_sources = 100;
constexpr int road_targets_per_source = 10;  // 1000 pairs per graph
constexpr std::size_t road_pairs = std::size_t{road_sources} * road_targets_per_source;

TEST(GraphRoads, Rome99DijkstraMatchesBoost) {
  const std::string path = test::data_dir + "/roads/rome99.gr";
  const EdgeList list = test::read_dimacs_arcs_plainly(path);
  ASSERT_EQ(list.vertices, 3353u);
  ASSERT_EQ(list.edges.size(), 8870u);
  const LoadedGraph loaded = load_dimacs_graph(path);
  ASSERT_EQ(loaded.graph.node_count(), list.vertices);
  ASSERT_EQ(loaded.graph.arc_count(), list.arc_count());
  const CheapestArcs arcs(list);
  Dijkstra<Graph> dijkstra(loaded.graph);
  const std::size_t reachable =
      test::for_random_pairs(list, road_sources, road_targets_per_source, pair_seed, [&](VertexId start, VertexId goal, Cost expected) {
        expect_optimal(dijkstra, arcs, start, goal, expected);
      });
  EXPECT_GT(reachable, road_pairs * 9 / 10);
}

TEST(GraphRoads, OldenburgDijkstraAndEuclideanAStarMatchBoost) {
  const std::string nodes = test::data_dir + "/roads/OL.cnode.txt";
  const std::string edges = test::data_dir + "/roads/OL.cedge.txt";
  const EdgeList list = test::read_node_edge_lists_plainly(nodes, edges);
  ASSERT_EQ(list.vertices, 6105u);
  ASSERT_EQ(list.edges.size(), 7035u);
  const LoadedGraph loaded = load_node_edge_lists(nodes, edges);
  const Graph& graph = loaded.graph;
  ASSERT_EQ(graph.node_count(), list.vertices);
  ASSERT_EQ(graph.arc_count(), list.arc_count());
  // Edge lengths are the endpoints' distances to about 1e-4, so the scale is about 1.
  const double scale = admissible_euclidean_scale(graph);
  EXPECT_GT(scale, 0.999);
  EXPECT_LE(scale, 1.001);

  const CheapestArcs arcs(list);
  Dijkstra<Graph> dijkstra(graph);
  AStar<Graph, EuclideanHeuristic> astar(graph, EuclideanHeuristic(graph, scale));
  std::uint64_t dijkstra_expanded = 0, astar_expanded = 0;
  const std::size_t reachable =
      test::for_random_pairs(list, road_sources, road_targets_per_source, pair_seed, [&](VertexId start, VertexId goal, Cost expected) {
        expect_optimal(dijkstra, arcs, start, goal, expected);
        dijkstra_expanded += dijkstra.stats().expanded;
        expect_optimal(astar, arcs, start, goal, expected);
        astar_expanded += astar.stats().expanded;
      });
  EXPECT_EQ(reachable, road_pairs);  // the network is connected
  // The heuristic must guide: on a planar road network it saves most of the work.
  EXPECT_LT(astar_expanded * 2, dijkstra_expanded);
}

}  // namespace
}  // namespace waymark::graph_differential_test
