#pragma once
/// @file Search status: a state plus detail flags, modelled on Detour's dtStatus. Queries
/// report through these, never by throwing or printing.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace waymark {

enum class SearchState : std::uint8_t { not_started, running, success, failure };

/// Why a search ended the way it did, or what a finished result carries; combinable bit flags.
enum class StatusDetail : std::uint8_t {
  none = 0,
  partial_result = 1 << 0,  ///< path() holds a path to the node closest to the goal (lowest h)
  out_of_nodes = 1 << 1,    ///< the node table reached its configured limit
  cancelled = 1 << 2,       ///< cancel() was called
  stale_world = 1 << 3,     ///< the world changed since the planner last synced: nothing was searched
  invalid_query = 1 << 4,   ///< a start or goal is not a node of the world, or the request is malformed
  time_limit = 1 << 5,      ///< the query's time limit ran out (search::run_within)
};

[[nodiscard]] constexpr StatusDetail operator|(StatusDetail a, StatusDetail b) {
  return static_cast<StatusDetail>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}

struct Status {
  SearchState state = SearchState::not_started;
  StatusDetail detail = StatusDetail::none;

  [[nodiscard]] static constexpr Status success(StatusDetail d = StatusDetail::none) { return {SearchState::success, d}; }
  [[nodiscard]] static constexpr Status failure(StatusDetail d = StatusDetail::none) { return {SearchState::failure, d}; }

  [[nodiscard]] constexpr bool running() const { return state == SearchState::running; }
  [[nodiscard]] constexpr bool succeeded() const { return state == SearchState::success; }
  [[nodiscard]] constexpr bool failed() const { return state == SearchState::failure; }
  [[nodiscard]] constexpr bool finished() const { return succeeded() || failed(); }
  [[nodiscard]] constexpr bool has(StatusDetail d) const {
    return (static_cast<std::uint8_t>(detail) & static_cast<std::uint8_t>(d)) != 0;
  }
  friend constexpr bool operator==(Status, Status) = default;
};

/// "success", "failure", "running" or "not-started" (the CLI's JSON spelling).
[[nodiscard]] constexpr std::string_view to_string(SearchState s) {
  switch (s) {
    case SearchState::not_started: return "not-started";
    case SearchState::running: return "running";
    case SearchState::success: return "success";
    case SearchState::failure: return "failure";
  }
  return "unknown";
}

/// Each detail flag's spelling, in bit order.
inline constexpr std::array<std::pair<StatusDetail, std::string_view>, 6> status_detail_names{{
    {StatusDetail::partial_result, "partial-result"},
    {StatusDetail::out_of_nodes, "out-of-nodes"},
    {StatusDetail::cancelled, "cancelled"},
    {StatusDetail::stale_world, "stale-world"},
    {StatusDetail::invalid_query, "invalid-query"},
    {StatusDetail::time_limit, "time-limit"},
}};

/// The set flags joined by '+' ("partial-result+out-of-nodes"), or "" for none.
[[nodiscard]] inline std::string to_string(StatusDetail d) {
  std::string s;
  const Status probe{SearchState::failure, d};
  for (const auto& [flag, name] : status_detail_names) {
    if (!probe.has(flag)) continue;
    if (!s.empty()) s += '+';
    s += name;
  }
  return s;
}

/// The state and its flags: "success", "failure (out-of-nodes)", "failure (partial-result+cancelled)".
[[nodiscard]] inline std::string to_string(Status s) {
  std::string text(to_string(s.state));
  if (s.detail != StatusDetail::none) text += " (" + to_string(s.detail) + ")";
  return text;
}

}  // namespace waymark
