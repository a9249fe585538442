#pragma once
/// @file One grid path query as a request and its answer as JSON: the one parser and the one
/// writer behind `waymark path` and the viewer's `POST /api/path` (and any later binding), so
/// every front end takes the same fields, the same defaults and the same refusals, and writes
/// the same answer.
///
/// A request is a JSON object (docs/viewer.md has an example):
///
///   field        default               what
///   from, to     required              [x, y] or "x,y": start and goal cells (column, row)
///   algorithm    "astar"               a grid::algorithm_names name ("jps+" for jps-plus)
///   diagonal     "no-corner-cutting"   a diagonal rule (never, always, at-most-one-obstacle, ...)
///   heuristic    the rule's tightest   manhattan, octile, euclidean, chebyshev, zero
///   weight       1.5 (wastar only)     weighted A*'s inflation, 1 to 1000000
///   max_nodes    50,000,000            nodes one query may reach
///   time_limit   0 (none)              seconds of search, 0 to 604800 (a week)
///   terrain      false                 'S' and 'W' cost x3 and x5 instead of free and wall
///   smooth       false                 also smooth the path by line of sight
///   partial      false                 on failure, the path to the reached cell nearest the goal
///   trace        false                 the search's events in the answer
///   map          (the caller's)        which map: a file, a bundled name, or rows; not read here
///
/// Refused, with a message naming the field: unknown fields, a value of the wrong type or out
/// of range, unknown names, a weight with an algorithm other than wastar, a heuristic other than
/// euclidean with theta. A heuristic that overestimates under the rule is allowed with a warning
/// (path_query_warnings). The answer (append_path_answer_json):
///
///   {"algorithm","status","reason"(failures),"partial","cost"|null,"path":[[x,y],...],
///    "smoothed":{"cost","length","path"}|null,
///    "stats":{"expanded","generated","reopened","max_open","time_us","steps","length"},
///    "warnings":[...], "events_truncated","events":[...] (traced only)}

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/path.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/events.hpp"

namespace waymark::io {

/// The names a request's "diagonal" and "heuristic" take, for help texts and messages.
inline constexpr std::string_view diagonal_rule_choices = "never|always|at-most-one-obstacle|no-corner-cutting";
inline constexpr std::string_view heuristic_choices = "manhattan|octile|euclidean|chebyshev|zero";

/// A grid path query, every field named; what parse_path_query makes of a request.
struct PathQuery {
  /// Weighted A*'s inflation when the request gives none (search's default weight).
  static constexpr double default_weight = search::WeightedAStarPriority::default_weight;
  static constexpr double max_weight = 1e6;
  /// Nodes one query may reach by default: A* on the largest Moving AI maps reaches a few
  /// million; IDA* on a 512² map would otherwise run for minutes.
  static constexpr std::uint64_t default_max_nodes = 50'000'000;
  /// Longest time_limit: a week, well inside the clock's range.
  static constexpr double max_time_limit_s = 7 * 24 * 3600.0;

  grid::CellCoord from{};
  grid::CellCoord to{};
  grid::Algorithm algorithm = grid::Algorithm::astar;
  grid::DiagonalRule diagonal = grid::DiagonalRule::no_corner_cutting;
  std::optional<grid::HeuristicKind> heuristic{};  ///< unset: the tightest admissible for the rule
  double weight = default_weight;                  ///< wastar's inflation (only wastar takes one)
  std::uint64_t max_nodes = default_max_nodes;
  double time_limit_s = 0;  ///< 0: none
  bool terrain = false;
  bool smooth = false;
  bool partial = false;
  bool trace = false;

  /// The planner options the query asks for (algorithm, rule, heuristic, weight, node limit,
  /// partial results); no event sink, no jump table.
  [[nodiscard]] grid::GridPlannerOptions planner_options() const;
  /// The whole query's budget: time_limit_s, or none for 0.
  [[nodiscard]] search::Budget budget() const;
};

/// What to read: a whole query, or only its options (for commands whose queries come from a
/// file: from and to are then refused).
enum class PathQueryParts : std::uint8_t { query, options };

/// A parsed request: the query, or why it was refused.
struct ParsedPathQuery {
  PathQuery query;
  std::string error;  ///< empty: query is valid; else one line naming the field
  [[nodiscard]] bool ok() const { return error.empty(); }
};

/// Reads a request, a JSON object's text (see the file comment). Never throws for bad input:
/// every refusal comes back in `error`, and so does text the io module's JSON reader refuses
/// (`request:LINE: reason`: not JSON, a key given twice, nesting deeper than 16).
[[nodiscard]] ParsedPathQuery parse_path_query(std::string_view json_text, PathQueryParts parts = PathQueryParts::query);

/// What is allowed but suspect about a valid query: a heuristic that overestimates under its
/// diagonal rule (paths may then not be optimal). Empty when nothing is.
[[nodiscard]] std::vector<std::string> path_query_warnings(const PathQuery& query);

/// Why `query` cannot run on `map`: its start or goal outside the map or blocked ("from (3,1)
/// is blocked"), or a planner that cannot serve the map (jump searches on terrain costs).
/// nullopt when it can.
[[nodiscard]] std::optional<std::string> path_query_problem(const grid::GridMap& map, const PathQuery& query);

/// Keeps a search's first `limit` events as JSON text (io::append_event_json, comma-separated):
/// the answer's "events".
class PathEventsJson final : public search::EventSink<CellId> {
 public:
  PathEventsJson(const grid::GridMap& map, std::size_t limit) : map_(&map), limit_(limit) {}
  void on_event(const search::Event<CellId>& e) override;
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool truncated() const { return truncated_; }
  [[nodiscard]] std::size_t kept() const { return kept_; }

 private:
  const grid::GridMap* map_;
  std::size_t limit_;
  std::size_t kept_ = 0;
  bool truncated_ = false;
  std::string text_;
};

/// What one query found.
struct PathAnswer {
  grid::Algorithm algorithm = grid::Algorithm::astar;
  Status status;
  /// The path found; on a failure with query.partial, the path to the reached cell nearest the
  /// goal (status has partial_result); else empty.
  Path<CellId> path;
  std::optional<Path<CellId>> smoothed;  ///< with query.smooth, when there is a path
  SearchStats stats;
  [[nodiscard]] bool partial() const { return !status.succeeded() && status.has(StatusDetail::partial_result); }
  /// Whether `path` leads somewhere (found, or partial).
  [[nodiscard]] bool has_path() const { return status.succeeded() || partial(); }
};

/// Runs `query` on `planner` (made with query.planner_options(), and perhaps a jump table) within
/// query.budget(), sending events to `events` when given, and smooths the path when asked. The
/// query must pass path_query_problem on the planner's map.
[[nodiscard]] PathAnswer answer_path_query(const grid::GridPlanner& planner, const PathQuery& query,
                                           search::EventSink<CellId>* events = nullptr);

/// Appends the answer as one JSON object (see the file comment); `events`, when given, are
/// spliced in as "events" with "events_truncated".
void append_path_answer_json(std::string& out, const grid::GridMap& map, const PathQuery& query, const PathAnswer& answer,
                             const PathEventsJson* events = nullptr);

}  // namespace waymark::io
