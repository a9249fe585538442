// Fuzz target: the Moving AI .map.scen loader.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/movingai.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  try {
    const io::Scenario s = io::parse_movingai_scenario(in, "fuzz.map.scen");
    for (const io::ScenarioQuery& q : s.queries) {
      // What the loader promises: coordinates inside the declared map, a finite optimum.
      if (q.start.x < 0 || q.start.y < 0 || q.start.x >= q.map_width || q.start.y >= q.map_height) fuzz::finding();
      if (q.goal.x < 0 || q.goal.y < 0 || q.goal.x >= q.map_width || q.goal.y >= q.map_height) fuzz::finding();
      if (!(q.optimal >= 0) || !std::isfinite(q.optimal)) fuzz::finding();
    }
  } catch (const LoadError&) {
  }
  return 0;
}
