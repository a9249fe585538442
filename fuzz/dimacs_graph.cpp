// Fuzz target: the DIMACS .gr loader, alone or with a .co (after a NUL byte).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/graph_loaders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const auto [gr_text, co_text] = fuzz::two_files(fuzz::text_of(data, size));
  std::istringstream gr(gr_text), co(co_text);
  try {
    const io::GraphLoadOptions limits{.max_vertices = fuzz::max_vertices, .max_arcs = fuzz::max_arcs};
    const io::LoadedGraph g = co_text.empty() ? io::parse_dimacs_graph(gr, "fuzz.gr", limits)
                                              : io::parse_dimacs_graph(gr, "fuzz.gr", co, "fuzz.co", limits);
    if (g.ids.count() != g.graph.node_count()) fuzz::finding();
  } catch (const LoadError&) {
  }
  return 0;
}
