// Fuzz target: node and edge lists (the nodes before a NUL byte, the edges after it).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/graph_loaders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  if (size == 0) return 0;
  const io::EdgeDirection direction = (data[0] & 1) != 0 ? io::EdgeDirection::undirected : io::EdgeDirection::directed;
  const auto [nodes_text, edges_text] = fuzz::two_files(fuzz::text_of(data + 1, size - 1));
  std::istringstream nodes(nodes_text), edges(edges_text);
  try {
    const io::GraphLoadOptions limits{.max_vertices = fuzz::max_vertices, .max_arcs = fuzz::max_arcs};
    const io::LoadedGraph g = io::parse_node_edge_lists(nodes, "fuzz.nodes", edges, "fuzz.edges", direction, limits);
    if (g.ids.count() != g.graph.node_count()) fuzz::finding();
  } catch (const LoadError&) {
  }
  return 0;
}
