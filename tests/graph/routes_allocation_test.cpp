// After warm-up, shortest-path trees, bidirectional queries and route-table read-outs allocate
// nothing: global operator new is counted (support/allocation_counter.hpp).
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/graph/generate.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::graph_routes_allocation_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

std::vector<std::pair<VertexId, VertexId>> random_pairs(const Graph& g, int count) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
  std::vector<std::pair<VertexId, VertexId>> pairs;
  for (int i = 0; i < count; ++i) pairs.emplace_back(VertexId{vertex(rng)}, VertexId{vertex(rng)});
  return pairs;
}

TEST(GraphRoutesAllocation, NoAllocationPerQueryAfterWarmUp) {
  const Graph graph = load_dimacs_graph(test::data_dir + "/roads/rome99.gr").graph;
  const auto pairs = random_pairs(graph, 30);
  graph::ShortestPathTree tree(graph);
  const BidirectionalGraph graphs(graph);
  BidirectionalDijkstra bidirectional(graphs);
  Path<VertexId> path;
  const auto run = [&] {
    std::size_t found = 0;
    for (const auto& [s, t] : pairs) {
      tree.compute(s);
      found += tree.path_to(t, path).succeeded() ? 1 : 0;
      found += solve(bidirectional, s, t).succeeded() ? 1 : 0;
    }
    return found;
  };
  run();  // warm-up
  const std::size_t before = test::allocation_count();
  EXPECT_GT(run(), 0u);
  EXPECT_EQ(test::allocation_count() - before, 0u);
}

TEST(GraphRoutesAllocation, RouteTableReadOutAllocatesNothing) {
  const Graph graph = generate_road_network({.columns = 30, .rows = 30, .highway_every = 10});
  const RouteTable table(graph);
  const auto pairs = random_pairs(graph, 200);
  Path<VertexId> path;
  path.nodes.reserve(graph.node_count());
  const std::size_t before = test::allocation_count();
  std::size_t found = 0;
  Cost sum = 0;
  for (const auto& [s, t] : pairs) {
    found += table.route(s, t, path).succeeded() ? 1 : 0;
    sum += table.distance(s, t) == infinite_cost ? 0 : 1;
  }
  EXPECT_EQ(test::allocation_count() - before, 0u);
  EXPECT_GT(found, 0u);
  EXPECT_GT(sum, 0);
}

}  // namespace
}  // namespace waymark::graph_routes_allocation_test
