// Runs the fuzz targets on files instead of under libFuzzer: the seed corpus and every kept
// crasher, in the ordinary (and the sanitizer) test build, so `make test` guards them. One
// program for every target (fuzz/CMakeLists.txt renames each target's entry point):
//   waymark_fuzz_replay NAME DIR...
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

#define WAYMARK_FUZZ_TARGET(name) extern "C" int waymark_fuzz_##name(const std::uint8_t* data, std::size_t size);
#include "replay_targets.inc"
#undef WAYMARK_FUZZ_TARGET

namespace {

using EntryPoint = int (*)(const std::uint8_t*, std::size_t);

struct Target {
  std::string_view name;
  EntryPoint run;
};

#define WAYMARK_FUZZ_TARGET(name) Target{#name, &waymark_fuzz_##name},
constexpr Target targets[] = {
#include "replay_targets.inc"
};
#undef WAYMARK_FUZZ_TARGET

}  // namespace

int main(int argc, char** argv) {
  const Target* target = nullptr;
  for (const Target& t : targets) {
    if (argc > 1 && t.name == argv[1]) target = &t;
  }
  if (target == nullptr || argc < 3) {
    std::fprintf(stderr, "usage: waymark_fuzz_replay TARGET DIR... (targets:");
    for (const Target& t : targets) std::fprintf(stderr, " %.*s", static_cast<int>(t.name.size()), t.name.data());
    std::fprintf(stderr, ")\n");
    return 2;
  }
  std::size_t inputs = 0;
  for (int i = 2; i < argc; ++i) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      target->run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++inputs;
    }
  }
  std::printf("replayed %zu inputs into %.*s\n", inputs, static_cast<int>(target->name.size()), target->name.data());
  return inputs == 0 ? 1 : 0;  // an empty corpus is a mistake, not a pass
}
