// Fuzz target: the Moving AI .map loader. A LoadError is the only way to refuse; anything else
// (a crash, another exception, a map whose size disagrees with its header) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/movingai.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  if (size == 0) return 0;
  // The first byte chooses the options: terrain letters passable at a cost, or not.
  io::MapLoadOptions options;
  if ((data[0] & 1) != 0) options.terrain = io::TerrainCosts{};
  std::istringstream in(std::string(fuzz::text_of(data + 1, size - 1)));
  try {
    const grid::GridMap map = io::parse_movingai_map(in, "fuzz.map", options);
    if (map.width() < 1 || map.height() < 1 || map.cell_count() != static_cast<std::size_t>(map.width()) *
                                                                     static_cast<std::size_t>(map.height()))
      fuzz::finding();
    for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
      if (!(map.cost_multiplier(CellId{c}) > 0)) fuzz::finding();
    }
  } catch (const LoadError&) {
  }
  return 0;
}
