#pragma once
// What every fuzz target shares: the input as text, split into parts.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace waymark::fuzz {

/// Size limits the targets pass to loaders in place of the defaults, which are sized for real
/// worlds: a few header bytes may legally ask for hundreds of MB, more than a fuzzer's memory
/// limit, and what matters is that the limit is checked, not how large it is.
inline constexpr std::size_t max_vertices = std::size_t{1} << 16;
inline constexpr std::size_t max_arcs = std::size_t{1} << 18;

/// Stops the fuzzer: a finding (libFuzzer reports it with the input that caused it).
[[noreturn]] inline void finding() { __builtin_trap(); }

/// The fuzzer's bytes as text.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Two files in one input: the bytes before the first NUL and those after it (the second is
/// empty when there is no NUL), so one target can fuzz a pair of files (.gr + .co, nodes +
/// edges) and either file can still hold any byte but NUL.
inline std::pair<std::string, std::string> two_files(std::string_view text) {
  const std::size_t cut = text.find('\0');
  if (cut == std::string_view::npos) return {std::string(text), std::string()};
  return {std::string(text.substr(0, cut)), std::string(text.substr(cut + 1))};
}

}  // namespace waymark::fuzz
