#pragma once
/// @file Search status: a state plus detail flags, modelled on Detour's dtStatus. Queries
/// report through these, never by throwing or printing.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace waymark {

/// Fixed values, as StatusDetail's bits and FailureReason's: they cross the bindings.
enum class SearchState : std::uint8_t { not_started = 0, running = 1, success = 2, failure = 3 };

/// Why a search ended the way it did, or what a finished result carries; combinable bit flags.
/// A query refused before searching carries invalid_query plus, where an end is the cause,
/// out_of_bounds, start_blocked or goal_blocked; Status::reason() names the one that matters.
enum class StatusDetail : std::uint16_t {
  none = 0,
  partial_result = 1 << 0,  ///< path() holds a path to the node closest to the goal (lowest h)
  out_of_nodes = 1 << 1,    ///< the node table reached its configured limit, or a whole-query
                            ///< expansion or scan limit ran out (search::run_within)
  cancelled = 1 << 2,       ///< cancel() was called
  stale_world = 1 << 3,     ///< the world changed since the planner last synced: nothing was searched;
                            ///< or (request queues) it kept changing past RequestQueueOptions::max_restarts
  invalid_query = 1 << 4,   ///< refused before searching: a start or goal is not usable, or the request is malformed
  time_limit = 1 << 5,      ///< the query's time limit ran out (search::run_within)
  unreachable = 1 << 6,     ///< everything reachable from the start was searched: the goal is not
  start_blocked = 1 << 7,   ///< a start is a node of the world that may not be stood on (a wall)
  goal_blocked = 1 << 8,    ///< the goal is a node of the world that may not be stood on
  out_of_bounds = 1 << 9,   ///< a start or goal is not a node of the world (a cell past the map, off the mesh)
  unsupported = 1 << 10,    ///< refused before searching, with invalid_query: the algorithm cannot search this
                            ///< world as it is (jump searches on a map with cost multipliers or with corner
                            ///< cutting; a request queue's world too large for the search's node table). The
                            ///< planner's unsupported() or the queue's RequestInfo::why says which and what to change.
};

[[nodiscard]] constexpr StatusDetail operator|(StatusDetail a, StatusDetail b) {
  return static_cast<StatusDetail>(static_cast<std::uint16_t>(a) | static_cast<std::uint16_t>(b));
}

/// Why a query failed, one name per cause (Status::reason()); budget_exhausted covers the
/// node limit and the whole-query limits of search::run_within (the flags out_of_nodes and
/// time_limit tell which).
enum class FailureReason : std::uint8_t {
  none = 0,              ///< not a failure (success, running, not started)
  stale_world = 1,       ///< the world changed since the planner last synced
  out_of_bounds = 2,     ///< a start or goal is not a node of the world
  start_blocked = 3,     ///< every start may not be stood on
  goal_blocked = 4,      ///< the goal may not be stood on
  unsupported = 5,       ///< the algorithm cannot search this world as it is (see StatusDetail::unsupported)
  invalid_query = 6,     ///< a malformed request (no start, a goal kind the search cannot serve, ...)
  budget_exhausted = 7,  ///< the node, expansion, scan or time limit ran out
  cancelled = 8,         ///< cancel() was called
  unreachable = 9,       ///< the search space reachable from the start holds no goal
  unspecified = 10,      ///< a failure without a detail flag (a status made by hand)
};

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
    return (static_cast<std::uint16_t>(detail) & static_cast<std::uint16_t>(d)) != 0;
  }
  /// The cause of a failure, most specific first: stale world, out of bounds, goal blocked,
  /// start blocked, unsupported, invalid query, budget exhausted, cancelled, unreachable.
  [[nodiscard]] constexpr FailureReason reason() const {
    if (!failed()) return FailureReason::none;
    if (has(StatusDetail::stale_world)) return FailureReason::stale_world;
    if (has(StatusDetail::out_of_bounds)) return FailureReason::out_of_bounds;
    // The goal first, as the engine checks it: a query with both ends blocked names the goal
    // in every world, whether it flags one end or both.
    if (has(StatusDetail::goal_blocked)) return FailureReason::goal_blocked;
    if (has(StatusDetail::start_blocked)) return FailureReason::start_blocked;
    if (has(StatusDetail::unsupported)) return FailureReason::unsupported;
    if (has(StatusDetail::invalid_query)) return FailureReason::invalid_query;
    if (has(StatusDetail::out_of_nodes | StatusDetail::time_limit)) return FailureReason::budget_exhausted;
    if (has(StatusDetail::cancelled)) return FailureReason::cancelled;
    if (has(StatusDetail::unreachable)) return FailureReason::unreachable;
    return FailureReason::unspecified;
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
inline constexpr std::array<std::pair<StatusDetail, std::string_view>, 11> status_detail_names{{
    {StatusDetail::partial_result, "partial-result"},
    {StatusDetail::out_of_nodes, "out-of-nodes"},
    {StatusDetail::cancelled, "cancelled"},
    {StatusDetail::stale_world, "stale-world"},
    {StatusDetail::invalid_query, "invalid-query"},
    {StatusDetail::time_limit, "time-limit"},
    {StatusDetail::unreachable, "unreachable"},
    {StatusDetail::start_blocked, "start-blocked"},
    {StatusDetail::goal_blocked, "goal-blocked"},
    {StatusDetail::out_of_bounds, "out-of-bounds"},
    {StatusDetail::unsupported, "unsupported"},
}};

/// "none", "stale-world", "out-of-bounds", "start-blocked", "goal-blocked", "unsupported", "invalid-query",
/// "budget-exhausted", "cancelled", "unreachable" or "unspecified".
[[nodiscard]] constexpr std::string_view to_string(FailureReason r) {
  switch (r) {
    case FailureReason::none: return "none";
    case FailureReason::stale_world: return "stale-world";
    case FailureReason::out_of_bounds: return "out-of-bounds";
    case FailureReason::start_blocked: return "start-blocked";
    case FailureReason::goal_blocked: return "goal-blocked";
    case FailureReason::unsupported: return "unsupported";
    case FailureReason::invalid_query: return "invalid-query";
    case FailureReason::budget_exhausted: return "budget-exhausted";
    case FailureReason::cancelled: return "cancelled";
    case FailureReason::unreachable: return "unreachable";
    case FailureReason::unspecified: return "unspecified";
  }
  return "unspecified";
}

/// The set flags joined by '+' ("partial-result+out-of-nodes"), or "" for none. (waymark's
/// rule: to_string() names one enum value as a std::string_view; describe() composes text.)
[[nodiscard]] inline std::string describe(StatusDetail d) {
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
[[nodiscard]] inline std::string describe(Status s) {
  std::string text(to_string(s.state));
  if (s.detail != StatusDetail::none) text += " (" + describe(s.detail) + ")";
  return text;
}

/// Why a query failed, as the CLI's JSON and the viewer API spell it: Status::reason()'s name
/// ("unreachable", "start-blocked", ...), and for an exhausted budget the limit that ran out
/// ("out-of-nodes", "time-limit").
[[nodiscard]] inline std::string_view reason_name(Status st) {
  if (st.reason() != FailureReason::budget_exhausted) return to_string(st.reason());
  return st.has(StatusDetail::time_limit) ? "time-limit" : "out-of-nodes";
}

}  // namespace waymark
