#pragma once
// What the landmark, hierarchy and route-table targets share: load the input as a
// preprocessing file for the fixed graph through GraphPlanner (as the CLI's --load does), and
// when it is accepted, check its answers against Dijkstra's: every loader proves its file
// exact (docs/robustness.md), so they must be equal.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "worlds.hpp"

namespace waymark::fuzz {

inline int fuzz_graph_file(graph::Algorithm algorithm, const std::uint8_t* data, std::size_t size) {
  using graph::GraphPlanner;
  using graph::GraphPlannerOptions;
  const graph::Graph& g = table_graph();
  // Three sources to every vertex, Dijkstra's distances computed once.
  static constexpr std::uint32_t sources[] = {0, 7, 16};
  static const std::vector<double> expected = [&] {
    GraphPlanner dijkstra(g, GraphPlannerOptions{.algorithm = graph::Algorithm::dijkstra});
    search::SearchHandle<VertexId> dijkstra_search = dijkstra.make_search();
    std::vector<double> d;
    for (const std::uint32_t s : sources) {
      for (std::uint32_t t = 0; t < g.node_count(); ++t)
        d.push_back(dijkstra_search.run(VertexId{s}, VertexId{t}).succeeded() ? dijkstra_search.path().cost : -1);
    }
    return d;
  }();
  std::optional<GraphPlanner> planner;
  try {
    std::istringstream file = file_of(data, size);
    planner.emplace(g, GraphPlannerOptions{.algorithm = algorithm, .load_from = "fuzz.file", .load_stream = &file});
  } catch (const LoadError&) {
    return 0;
  }
  search::SearchHandle<VertexId> search = planner->make_search();
  std::size_t i = 0;
  for (const std::uint32_t s : sources) {
    for (std::uint32_t t = 0; t < g.node_count(); ++t) {
      const bool found = search.run(VertexId{s}, VertexId{t}).succeeded();
      const double cost = found ? search.path().cost : -1;
      const double best = expected[i++];
      if (!same_distance(cost, best)) finding();
      // The path must be made of the graph's arcs and cost what it says.
      const auto& nodes = search.path().nodes;
      double sum = 0;
      for (std::size_t k = 1; found && k < nodes.size(); ++k) {
        const std::optional<ArcId> arc = g.find_arc(nodes[k - 1], nodes[k]);
        if (!arc) finding();
        sum += g.weight(*arc);
      }
      if (found && !same_distance(sum, cost)) finding();
    }
  }
  return 0;
}

}  // namespace waymark::fuzz
