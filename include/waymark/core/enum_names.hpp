#pragma once
/// @file Two-way lookup between enum values and their spelled names (CLI, JSON).

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace waymark {

template <class Enum, std::size_t N>
using EnumNames = std::array<std::pair<Enum, std::string_view>, N>;

template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& table, Enum e) {
  for (const auto& [value, name] : table) {
    if (value == e) return name;
  }
  return "unknown";
}

template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const EnumNames<Enum, N>& table, std::string_view name) {
  for (const auto& [value, n] : table) {
    if (n == name) return value;
  }
  return std::nullopt;
}

/// "a|b|c": the names of an enum, for help texts and error messages.
template <class Enum, std::size_t N>
std::string choices(const EnumNames<Enum, N>& names) {
  std::string s;
  for (const auto& [value, name] : names) {
    if (!s.empty()) s.push_back('|');
    s.append(name);
  }
  return s;
}

}  // namespace waymark
