// Fuzz target: RecastDemo path-query lists (`pf` lines). Every query read has finite points.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/obj.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  try {
    for (const io::NavQueryLine& q : io::parse_nav_queries(in, "fuzz.txt")) {
      for (double c : {q.from.x, q.from.y, q.from.z, q.to.x, q.to.y, q.to.z}) {
        if (!std::isfinite(c)) fuzz::finding();
      }
    }
  } catch (const LoadError&) {
  }
  return 0;
}
