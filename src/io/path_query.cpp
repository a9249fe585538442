#include "waymark/io/path_query.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>  // writes the answer; the io module's JSON reader reads the request

#include "path_query_value.hpp"
#include "waymark/core/polyline.hpp"
#include "waymark/core/text.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/io/event_json.hpp"

namespace waymark::io {
namespace {

using json::Kind;
using json::Value;

/// A refusal while reading: caught at the edge of parse_path_query, never thrown past it.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The fields a request may give, sorted (for the message refusing any other).
constexpr std::array known_fields{"algorithm", "diagonal", "from",  "heuristic", "map",   "max_nodes", "partial",
                                  "smooth",    "terrain",  "time_limit", "to",   "trace", "weight"};

/// A value for messages: a string as it is, anything else as JSON text; quoted, control and
/// non-ASCII bytes escaped, long ones cut (waymark::quoted).
std::string shown(const Value& v) { return waymark::quoted(v.kind() == Kind::string ? v.text() : v.json_text()); }

/// The request's fields, each read by the type it must have; a field given as null is absent.
class Fields {
 public:
  explicit Fields(const Value& object) : object_(object) {}

  [[nodiscard]] std::optional<Value> find(const char* key) const {
    const auto m = object_.find(key);
    if (!m || m->value.kind() == Kind::null) return std::nullopt;
    return m->value;
  }

  [[nodiscard]] std::optional<std::string> text(const char* key) const {
    const auto v = find(key);
    if (!v) return std::nullopt;
    if (v->kind() != Kind::string) throw Refusal(std::string(key) + " must be a string, got " + shown(*v));
    return v->text();
  }

  [[nodiscard]] bool flag(const char* key) const {
    const auto v = find(key);
    if (!v) return false;
    if (v->kind() != Kind::boolean) throw Refusal(std::string(key) + " must be true or false, got " + shown(*v));
    return v->boolean();
  }

  /// A number in [lo, hi]; `what` says what it is ("a number of seconds").
  [[nodiscard]] std::optional<double> number(const char* key, double lo, double hi, const std::string& range) const {
    const auto v = find(key);
    if (!v) return std::nullopt;
    const double x = v->is_number() ? v->number() : std::nan("");
    if (!(x >= lo && x <= hi)) throw Refusal(std::string(key) + " must be " + range + ", got " + shown(*v));
    return x;
  }

  /// A cell: [x, y] or "x,y", two whole numbers.
  [[nodiscard]] grid::CellCoord cell(const char* key) const {
    const auto v = find(key);
    if (!v) throw Refusal(std::string("missing field \"") + key + "\"");
    const auto refuse = [&]() -> Refusal {
      return Refusal(std::string(key) + " must be X,Y or [X, Y]: two whole numbers (column, row), got " + shown(*v));
    };
    std::array<int, 2> xy{};
    if (v->kind() == Kind::array) {
      if (v->size() != 2) throw refuse();
      std::size_t i = 0;
      for (const Value c : v->items()) {
        const std::uint64_t limit = c.kind() == Kind::negative_integer ? std::uint64_t{1} << 31 : INT32_MAX;
        if (!c.is_integer() || c.magnitude() > limit) throw refuse();
        xy[i++] = static_cast<int>(c.number());  // exact: |c| <= 2^31
      }
    } else if (v->kind() == Kind::string) {
      const std::string& spelled = v->text();
      const char* p = spelled.data();
      const char* const end = p + spelled.size();
      for (std::size_t i = 0; i < 2; ++i) {
        const char* const stop = i == 0 ? std::find(p, end, ',') : end;
        if (stop == end && i == 0) throw refuse();
        const auto [ptr, ec] = std::from_chars(p, stop, xy[i]);
        if (ec != std::errc{} || ptr != stop) throw refuse();
        p = stop + 1;
      }
    } else {
      throw refuse();
    }
    return {xy[0], xy[1]};
  }

 private:
  Value object_;
};

PathQuery read_query(const Value& request, PathQueryParts parts) {
  if (request.kind() != Kind::object) throw Refusal("the request must be a JSON object");
  for (const Value::Member m : request.members()) {
    if (std::find(known_fields.begin(), known_fields.end(), m.key) == known_fields.end()) {
      std::string list;
      for (const char* k : known_fields) {
        if (!list.empty()) list += ", ";
        list += k;
      }
      throw Refusal("unknown field " + waymark::quoted(std::string(m.key)) + " (known: " + list + ")");
    }
  }
  const Fields fields(request);
  PathQuery q;
  if (parts == PathQueryParts::query) {
    q.from = fields.cell("from");
    q.to = fields.cell("to");
  } else if (fields.find("from") || fields.find("to")) {
    throw Refusal("from and to come from the query file here");
  }
  if (const auto name = fields.text("algorithm")) {
    const auto a = grid::parse_algorithm(*name);
    if (!a) {
      throw Refusal("unknown algorithm " + waymark::quoted(*name) + " (" + choices(grid::algorithm_names) + ")");
    }
    q.algorithm = *a;
  }
  if (const auto name = fields.text("diagonal")) {
    const auto rule = grid::parse_diagonal_rule(*name);
    if (!rule) throw Refusal("unknown diagonal rule " + waymark::quoted(*name) + " (" + std::string(diagonal_rule_choices) + ")");
    q.diagonal = *rule;
  }
  if (const auto name = fields.text("heuristic")) {
    const auto h = grid::parse_heuristic(*name);
    if (!h) throw Refusal("unknown heuristic " + waymark::quoted(*name) + " (" + std::string(heuristic_choices) + ")");
    // Theta* runs A* with the euclidean heuristic, the only one admissible for segments.
    if (q.algorithm == grid::Algorithm::theta && *h != grid::HeuristicKind::euclidean)
      throw Refusal("theta always uses the euclidean heuristic; drop heuristic " + *name);
    q.heuristic = *h;
  }
  if (const auto w = fields.number("weight", 1, PathQuery::max_weight, "a number from 1 to 1000000")) {
    if (q.algorithm != grid::Algorithm::wastar)
      throw Refusal(std::string(grid::to_string(q.algorithm)) + " takes no weight (it is for wastar)");
    q.weight = *w;
  }
  constexpr double max_exact = 9007199254740992.0;  // 2^53: every whole number below is a double
  if (const auto n = fields.number("max_nodes", 1, max_exact, "a whole number from 1 to 2^53")) {
    if (*n != std::floor(*n)) throw Refusal("max_nodes must be a whole number from 1 to 2^53, got " + shown(*fields.find("max_nodes")));
    q.max_nodes = static_cast<std::uint64_t>(*n);
  }
  if (const auto t = fields.number("time_limit", 0, PathQuery::max_time_limit_s,
                                   "a number of seconds from 0 (none) to 604800 (a week)"))
    q.time_limit_s = *t;
  q.terrain = fields.flag("terrain");
  q.smooth = fields.flag("smooth");
  q.partial = fields.flag("partial");
  q.trace = fields.flag("trace");
  return q;
}

}  // namespace

grid::GridPlannerOptions PathQuery::planner_options() const {
  grid::GridPlannerOptions o;
  o.algorithm = algorithm;
  o.diagonal = diagonal;
  o.heuristic = heuristic;
  o.query.weight = weight;
  o.query.max_nodes = static_cast<std::size_t>(max_nodes);
  o.query.partial_result = partial;
  return o;
}

search::Budget PathQuery::budget() const {
  if (time_limit_s == 0) return {};
  return search::Budget::of_time(
      std::chrono::duration_cast<search::Budget::Clock::duration>(std::chrono::duration<double>(time_limit_s)));
}

ParsedPathQuery parse_path_query_value(const json::Value& request, PathQueryParts parts) {
  ParsedPathQuery parsed;
  try {
    parsed.query = read_query(request, parts);
  } catch (const Refusal& e) {
    parsed.error = e.what();
  }
  return parsed;
}

ParsedPathQuery parse_path_query(std::string_view json_text, PathQueryParts parts) {
  try {
    const json::Document request(json_text, "request");
    return parse_path_query_value(request.root(), parts);
  } catch (const LoadError& e) {  // not JSON, or refused by the reader's limits
    return ParsedPathQuery{{}, e.what()};
  }
}

std::vector<std::string> path_query_warnings(const PathQuery& query) {
  std::vector<std::string> warnings;
  if (query.heuristic && query.algorithm != grid::Algorithm::theta && !grid::is_admissible(*query.heuristic, query.diagonal))
    warnings.push_back(std::string(grid::to_string(*query.heuristic)) + " overestimates under diagonal rule '" +
                       std::string(grid::to_string(query.diagonal)) + "'; paths may not be optimal");
  return warnings;
}

std::optional<std::string> path_query_problem(const grid::GridMap& map, const PathQuery& query) {
  for (const auto& [c, key] : {std::pair{query.from, "from"}, std::pair{query.to, "to"}}) {
    const std::string at = std::string(key) + " (" + number_text(c.x) + "," + number_text(c.y) + ")";
    if (!map.in_bounds(c.x, c.y))
      return at + " is outside the map (" + number_text(map.width()) + "x" + number_text(map.height()) + ")";
    if (!map.passable(c.x, c.y)) return at + " is blocked";
  }
  return grid::planner_unsupported(map, query.planner_options());
}

void PathEventsJson::on_event(const search::Event<CellId>& e) {
  if (kept_ == limit_) {
    truncated_ = true;
    return;
  }
  if (kept_ != 0) text_ += ',';
  append_event_json(text_, e, SpellGridCell{map_});
  ++kept_;
}

PathAnswer answer_path_query(const grid::GridPlanner& planner, const PathQuery& query, search::EventSink<CellId>* events) {
  const grid::GridMap& map = planner.map();
  search::QueryOptions<CellId> options = planner.options().query;
  options.events = events;
  search::SearchHandle<CellId> search = planner.make_search(options);
  PathAnswer answer;
  answer.algorithm = planner.options().algorithm;
  answer.status = search::run_within(search, map.cell(query.from.x, query.from.y), map.cell(query.to.x, query.to.y),
                                     query.budget());
  answer.stats = search.stats();
  if (answer.has_path()) answer.path = search.path();
  if (query.smooth && !answer.path.nodes.empty()) {
    Path<CellId>& smoothed = answer.smoothed.emplace();
    smoothed.cost = grid::smooth_path(planner.space(), answer.path.nodes, smoothed.nodes).cost;
  }
  return answer;
}

namespace {

using Json = nlohmann::json;

Json cells_json(const grid::GridMap& map, std::span<const CellId> cells) {
  Json a = Json::array();
  for (const CellId c : cells) {
    const grid::CellCoord p = map.coord(c);
    a.push_back({p.x, p.y});
  }
  return a;
}

/// A cost, or null when there is none (an infinite one: no path).
Json cost_json(double cost) { return std::isfinite(cost) ? Json(cost) : Json(nullptr); }

}  // namespace

void append_path_answer_json(std::string& out, const grid::GridMap& map, const PathQuery& query, const PathAnswer& answer,
                             const PathEventsJson* events) {
  nlohmann::ordered_json j;
  j["algorithm"] = grid::to_string(answer.algorithm);
  j["status"] = to_string(answer.status.state);
  if (!answer.status.succeeded()) j["reason"] = reason_name(answer.status);
  j["partial"] = answer.partial();
  j["cost"] = answer.has_path() ? cost_json(answer.path.cost) : Json(nullptr);
  j["path"] = cells_json(map, answer.path.nodes);
  if (answer.smoothed) {
    j["smoothed"] = {{"cost", cost_json(answer.smoothed->cost)},
                     {"length", polyline_length(to_polyline(map, answer.smoothed->nodes))},
                     {"path", cells_json(map, answer.smoothed->nodes)}};
  } else {
    j["smoothed"] = nullptr;
  }
  const SearchStats& s = answer.stats;
  constexpr double microseconds_per_second = 1e6;
  j["stats"] = {{"expanded", s.expanded},
                {"generated", s.generated},
                {"reopened", s.reopened},
                {"max_open", s.max_open_size},
                {"time_us", s.time_s * microseconds_per_second},
                {"steps", answer.path.nodes.empty() ? 0 : answer.path.steps()},
                {"length", polyline_length(to_polyline(map, answer.path.nodes))}};
  j["warnings"] = path_query_warnings(query);
  std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (events != nullptr) {
    // The events are JSON text already: spliced in rather than parsed into the tree.
    text.pop_back();
    text += ",\"events_truncated\":";
    text += events->truncated() ? "true" : "false";
    text += ",\"events\":[";
    text += events->text();
    text += "]}";
  }
  out += text;
}

}  // namespace waymark::io
