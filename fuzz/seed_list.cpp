// Fuzz target: seed lists for regions, as a file (the bytes before the first NUL) and as a
// --seeds text (the bytes after it). Every list read is non-empty, within its limit, and
// numbers its seeds by line (file) or position (text), increasing.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/seeds.hpp"

namespace {

/// Small enough that inputs reach it; what matters is that it is checked.
constexpr std::size_t fuzz_max_seeds = 64;

void check(const waymark::io::SeedList& list, std::size_t max_line) {
  if (list.seeds.empty() || list.seeds.size() > fuzz_max_seeds) waymark::fuzz::finding();
  std::size_t previous = 0;
  for (const waymark::io::SeedEntry& s : list.seeds) {
    if (s.line <= previous || s.line > max_line) waymark::fuzz::finding();
    previous = s.line;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const auto [file, text] = fuzz::two_files(fuzz::text_of(data, size));
  const io::SeedListOptions options{.max_seeds = fuzz_max_seeds};
  try {
    std::istringstream in(file);
    check(io::parse_seed_file(in, "fuzz.seeds", options), file.size() + 1);
  } catch (const LoadError&) {
  }
  try {
    check(io::parse_seed_text(text, "--seeds", options), text.size() + 1);
  } catch (const LoadError&) {
  }
  return 0;
}
