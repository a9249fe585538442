#pragma once
/// @file Search status: a state plus detail flags. Queries report through these, never by
/// throwing or printing.

#include <cstdint>
#include <string_view>

namespace waymark {

enum class SearchState : std::uint8_t { NotStarted, Running, Success, Failure };

/// Why a search ended the way it did; combinable bit flags.
enum class StatusDetail : std::uint8_t {
  None = 0,
  PartialResult = 1 << 0,  ///< path() holds a path to the node closest to the goal (lowest h)
  OutOfNodes = 1 << 1,     ///< the node table reached its configured limit
  Cancelled = 1 << 2,      ///< cancel() was called
};

constexpr StatusDetail operator|(StatusDetail a, StatusDetail b) {
  return static_cast<StatusDetail>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}

struct Status {
  SearchState state = SearchState::NotStarted;
  StatusDetail detail = StatusDetail::None;

  [[nodiscard]] constexpr bool running() const { return state == SearchState::Running; }
  [[nodiscard]] constexpr bool succeeded() const { return state == SearchState::Success; }
  [[nodiscard]] constexpr bool failed() const { return state == SearchState::Failure; }
  [[nodiscard]] constexpr bool finished() const { return succeeded() || failed(); }
  [[nodiscard]] constexpr bool has(StatusDetail d) const {
    return (static_cast<std::uint8_t>(detail) & static_cast<std::uint8_t>(d)) != 0;
  }
  friend constexpr bool operator==(Status, Status) = default;
};

/// "success", "failure", "running" or "not-started" (the CLI's JSON spelling).
constexpr std::string_view to_string(SearchState s) {
  switch (s) {
    case SearchState::NotStarted: return "not-started";
    case SearchState::Running: return "running";
    case SearchState::Success: return "success";
    case SearchState::Failure: return "failure";
  }
  return "unknown";
}

}  // namespace waymark
