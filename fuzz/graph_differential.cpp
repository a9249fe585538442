// Differential fuzz target: a fuzzed small directed graph (zero weights, parallel arcs and
// self-loops included) and an algorithm. Bidirectional Dijkstra, A* (with positions), ALT, CH
// or a route table, built for this graph, must find Dijkstra's distance for every query.
//
// Input: vertex count, algorithm, then four query bytes (two pairs), then arcs as (tail, head,
// weight) byte triples, the first max_arcs of them (more add nothing a 40-vertex graph lacks,
// only time). One algorithm per input keeps an execution cheap.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "waymark/graph/graph_planner.hpp"
#include "worlds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  using namespace waymark::graph;
  constexpr std::size_t header = 6;
  constexpr std::uint32_t max_vertices = 40;
  constexpr std::size_t max_arcs = 512;
  if (size < header) return 0;
  size = std::min(size, header + 3 * max_arcs);
  const std::uint32_t n = 1 + data[0] % max_vertices;
  GraphBuilder b(n);
  std::vector<Vec3> positions;
  for (std::uint32_t v = 0; v < n; ++v) positions.push_back(Vec3{static_cast<double>(v % 7), static_cast<double>(v / 7), 0});
  for (std::size_t i = header; i + 3 <= size; i += 3) {
    const VertexId u{data[i] % n}, v{data[i + 1] % n};
    // Integer weights from 0 (A* scales its Euclidean bound by the least weight per unit of
    // distance, so it stays admissible: with a zero-weight arc it is zero).
    b.add_edge(u, v, data[i + 2] % 16);
  }
  b.set_positions(positions, Coordinates::xy);
  const Graph g = b.build();
  constexpr Algorithm others[] = {Algorithm::bidijkstra, Algorithm::astar, Algorithm::alt, Algorithm::ch,
                                  Algorithm::table};
  const Algorithm a = others[data[1] % std::size(others)];
  const VertexId queries[][2] = {{VertexId{data[2] % n}, VertexId{data[3] % n}},
                                 {VertexId{data[4] % n}, VertexId{data[5] % n}}};

  GraphPlanner dijkstra(g, GraphPlannerOptions{.algorithm = Algorithm::dijkstra});

  search::SearchHandle<VertexId> dijkstra_search = dijkstra.make_search();
  GraphPlanner planner(g, GraphPlannerOptions{.algorithm = a, .landmarks = {.count = 4}});
  search::SearchHandle<VertexId> planner_search = planner.make_search();
  for (const auto& q : queries) {
    const bool found = dijkstra_search.run(q[0], q[1]).succeeded();
    const Status st = planner_search.run(q[0], q[1]);
    if (st.succeeded() != found) fuzz::finding();
    if (found && !fuzz::same_distance(planner_search.path().cost, dijkstra_search.path().cost)) fuzz::finding();
  }
  return 0;
}
