// Fuzz target: the request target `waymark serve` decodes before anything else
// (web::parse_target). A target is either refused with a reason or decoded into a path that
// starts with "/" and holds no control character, with at most max_target_params parameters;
// and decoding never makes a string longer than what it decodes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "web/http_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  const std::string raw(fuzz::text_of(data, size));
  const web::TargetOrError parsed = web::parse_target(raw);
  if (!parsed.target) {
    if (parsed.error.empty()) fuzz::finding();
    return 0;
  }
  const web::Target& t = *parsed.target;
  if (t.path.empty() || t.path.front() != '/' || t.path.size() > raw.size()) fuzz::finding();
  if (std::any_of(t.path.begin(), t.path.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == '\x7f'; }))
    fuzz::finding();
  if (t.params.size() > web::max_target_params) fuzz::finding();
  for (const auto& [key, value] : t.params)
    if (key.size() + value.size() > raw.size()) fuzz::finding();
  // Decoding what has no "%" and no "+" changes nothing.
  if (raw.find_first_of("%+") == std::string::npos && web::percent_decode(raw, true) != raw) fuzz::finding();
  return 0;
}
