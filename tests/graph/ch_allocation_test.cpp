// After warm-up, contraction-hierarchy queries (distance and unpacked path) allocate nothing:
// global operator new is counted (support/allocation_counter.hpp).
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::graph_ch_allocation_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

TEST(GraphChAllocation, NoAllocationPerQueryAfterWarmUp) {
  const Graph g = load_dimacs_graph(test::data_dir + "/roads/rome99.gr").graph;
  const ContractionHierarchy ch = ContractionHierarchy::build(g);
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
  std::vector<std::pair<VertexId, VertexId>> pairs;
  for (int i = 0; i < 200; ++i) pairs.emplace_back(VertexId{vertex(rng)}, VertexId{vertex(rng)});
  for (const bool stall : {true, false}) {
    ChQuery query(ch, ChQueryOptions{.stall_on_demand = stall});
    for (const auto& [s, t] : pairs) query.query(s, t);  // warm-up
    const std::size_t before = test::allocation_count();
    std::size_t found = 0;
    for (const auto& [s, t] : pairs) found += query.query(s, t).succeeded() ? 1 : 0;
    EXPECT_EQ(test::allocation_count() - before, 0u);
    EXPECT_GT(found, pairs.size() / 2);
  }
}

}  // namespace
}  // namespace waymark::graph_ch_allocation_test
