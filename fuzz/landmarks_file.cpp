// Fuzz target: landmark tables (ALT) read back for a fixed graph (fuzz_graph_file in graph_file.hpp).
#include <cstddef>
#include <cstdint>

#include "graph_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return waymark::fuzz::fuzz_graph_file(waymark::graph::Algorithm::alt, data, size);
}
