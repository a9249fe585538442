// Fuzz target: obstacles files (cylinder, box and prism lines). Every obstacle read is valid
// (navmesh::find_obstacle_problem finds nothing), within the limit, and numbered by an
// increasing line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/nav_obstacles.hpp"

namespace {

/// Small enough that inputs reach it; what matters is that it is checked.
constexpr std::size_t fuzz_max_obstacles = 32;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const std::string text(fuzz::text_of(data, size));
  std::istringstream in(text);
  try {
    const auto read = io::parse_nav_obstacles(in, "fuzz.obstacles", {.max_obstacles = fuzz_max_obstacles});
    if (read.size() > fuzz_max_obstacles) fuzz::finding();
    std::size_t previous = 0;
    for (const io::NavObstacleLine& o : read) {
      if (o.line <= previous || o.line > text.size() + 1) fuzz::finding();
      if (navmesh::find_obstacle_problem(o.obstacle)) fuzz::finding();
      if (navmesh::bounds(o.obstacle).empty()) fuzz::finding();
      previous = o.line;
    }
  } catch (const LoadError&) {
  }
  return 0;
}
