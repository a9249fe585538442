// The grid resource: the bundled maps (GET /api/maps, GET /api/map) and grid path queries
// (POST /api/path), read and answered by io::PathQuery like `waymark path`.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "io/path_query_value.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/io/path_query.hpp"
#include "web/navmesh_level.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"
#include "waymark/core/text.hpp"

namespace waymark::web {
namespace {

/// The rows of a .map text the loader has accepted (the lines after "map").
std::vector<std::string> read_rows(std::istream& in, int height) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "map") break;
  }
  std::vector<std::string> rows;
  rows.reserve(static_cast<std::size_t>(height));
  while (static_cast<int>(rows.size()) < height && std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    rows.push_back(line);
  }
  return rows;
}

/// "a|b|c" as ["a", "b", "c"].
json split_choices(std::string_view choices) {
  json names = json::array();
  for (std::size_t at = 0; at <= choices.size();) {
    const std::size_t bar = std::min(choices.find('|', at), choices.size());
    names.push_back(std::string(choices.substr(at, bar - at)));
    at = bar + 1;
  }
  return names;
}

/// GET /api/maps's answer: the bundled worlds with the names and limits requests accept.
std::string maps_listing(const std::filesystem::path& data_dir, const std::vector<std::string>& map_names,
                         const std::vector<std::string>& mesh_names, const std::vector<std::string>& polygon_names,
                         const ApiLimits& limits) {
  json list = json::array();
  for (const std::string& name : map_names) {
    // The header only: sizes without loading every map.
    std::ifstream in(data_dir / "maps" / (name + ".map"));
    std::string word;
    int width = 0;
    int height = 0;
    for (int i = 0; i < 4 && in >> word; ++i) {
      if (word == "width") in >> width;
      if (word == "height") in >> height;
    }
    list.push_back({{"name", name}, {"width", width}, {"height", height}});
  }
  json algorithms = json::array();
  for (const auto& [a, name] : grid::algorithm_names) algorithms.push_back(name);
  return text_of(json{{"maps", list},
                      {"meshes", mesh_names},
                      {"polygons", polygon_names},
                      {"algorithms", algorithms},
                      {"heuristics", split_choices(io::heuristic_choices)},
                      {"diagonals", split_choices(io::diagonal_rule_choices)},
                      {"limits",
                       {{"max_body_bytes", limits.max_body_bytes},
                        {"max_map_cells", limits.max_map_cells},
                        {"max_map_side", limits.max_map_side},
                        {"max_events", limits.max_events},
                        {"max_query_seconds", limits.max_query_seconds},
                        {"max_route_algorithms", limits.max_route_algorithms},
                        {"max_sim_ticks_per_request", limits.max_sim_ticks_per_request},
                        {"max_sim_seconds", limits.max_sim_seconds}}}});
}

/// How many of a store's `capacity` sessions one client may keep: the limits' share of it,
/// rounded down, at least one (a share outside (0, 1] counts as 1).
std::size_t client_share(std::size_t capacity, const ApiLimits& limits) {
  const double share = limits.max_client_session_share > 0 && limits.max_client_session_share <= 1 ? limits.max_client_session_share : 1.0;
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(static_cast<double>(capacity) * share)));
}

}  // namespace

Api::Api(std::filesystem::path data_dir, ApiLimits limits)
    : data_dir_(std::move(data_dir)),
      limits_(limits),
      map_names_(bundled_names(data_dir_ / "maps", ".map")),
      mesh_names_(bundled_names(data_dir_ / "meshes", ".obj")),
      polygon_names_(bundled_names(data_dir_ / "polygons", ".json")),
      maps_reply_(maps_listing(data_dir_, map_names_, mesh_names_, polygon_names_, limits_)),
      sessions_(std::make_unique<SessionStore>(limits_.max_simulations, client_share(limits_.max_simulations, limits_),
                                               limits_.sim_idle_seconds)),
      nav_sessions_(std::make_unique<NavSessionStore>(limits_.max_navmesh_sessions,
                                                      client_share(limits_.max_navmesh_sessions, limits_), limits_.sim_idle_seconds)) {}

Response Api::maps() const { return Response{http_ok, maps_reply_}; }

Response Api::map(std::string_view name) const {
  return guarded([&] {
    const auto file = bundled_file(map_names_, name, data_dir_ / "maps", ".map", "map");
    std::ifstream in(file);
    std::stringstream text;  // read once: parsed, then its rows sent as written
    text << in.rdbuf();
    const grid::GridMap map = io::parse_movingai_map(text, file.string(), load_options(limits_, false));
    text.clear();
    text.seekg(0);
    return Response{http_ok, text_of(json{{"name", name},
                                  {"width", map.width()},
                                  {"height", map.height()},
                                  {"rows", read_rows(text, map.height())}})};
  });
}

Response Api::path(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const Field map_spec = request.field("map");
    const io::ParsedPathQuery parsed = io::parse_path_query_value(request.value());
    if (!parsed.ok()) throw ApiError(http_bad_request, parsed.error);
    io::PathQuery query = parsed.query;
    if (query.time_limit_s > limits_.max_query_seconds)
      throw ApiError(http_bad_request, "time_limit is at most " + number_text(limits_.max_query_seconds) +
                                           " seconds here (the server's max_query_seconds)");
    if (query.time_limit_s == 0) query.time_limit_s = limits_.max_query_seconds;
    const grid::GridMap map = request_map(map_spec, map_names_, data_dir_, limits_, query.terrain);
    if (const auto why = io::path_query_problem(map, query)) throw ApiError(http_bad_request, *why);
    const grid::GridPlanner planner(map, query.planner_options());
    io::PathEventsJson events(map, limits_.max_events);
    const io::PathAnswer answer = io::answer_path_query(planner, query, query.trace ? &events : nullptr);
    std::string text;
    io::append_path_answer_json(text, map, query, answer, query.trace ? &events : nullptr);
    return Response{http_ok, std::move(text)};
  });
}

}  // namespace waymark::web
