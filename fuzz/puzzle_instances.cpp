// Fuzz target: sliding-tile puzzle instance files.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/puzzle_instances.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  try {
    (void)io::parse_puzzle_instances(in, "fuzz.txt");
  } catch (const LoadError&) {
  }
  return 0;
}
