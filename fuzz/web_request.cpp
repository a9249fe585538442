// Fuzz target: request bodies of the viewer's POST /api/path, /api/puzzle, /api/route,
// /api/navmesh/path, /api/navmesh/obstacle, /api/navmesh/obstacle/remove and /api/navmesh/stop
// (`waymark serve`). Input: one body, sent to each. Every answer is JSON with a known
// status; a refusal says why; an obstacle added opens an edited copy of the level whose path
// answers are checked as the level's, then its obstacle is removed and the copy let go; a grid path leads from "from" to "to" over passable cells of the
// map it was given, by single steps; a puzzle solution replays by single moves to the goal;
// every road algorithm asked finds the same cost; a navmesh's shortest path is no longer than
// its funnel path.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "worlds.hpp"
#include "web/api.hpp"

namespace {

using nlohmann::json;

/// Small enough that inputs reach them; what matters is that they are checked.
waymark::web::ApiLimits fuzz_limits() {
  waymark::web::ApiLimits limits;
  limits.max_body_bytes = 1 << 16;
  limits.max_map_cells = 4096;
  limits.max_map_side = 128;
  limits.max_events = 256;
  limits.max_query_seconds = 0.05;
  limits.max_puzzle_states = 1 << 14;
  return limits;
}

/// Whether (x, y) is passable in the request's inline map (rows of Moving AI letters).
bool passable(const json& map, int x, int y, bool terrain) {
  const char c = map["rows"][static_cast<std::size_t>(y)].get_ref<const std::string&>()[static_cast<std::size_t>(x)];
  return c == '.' || c == 'G' || c == 'S' || (terrain && c == 'W');
}

/// A request's cell as the answer spells it: [x, y], given as such or as the text "x,y".
json cell_of(const json& given) {
  if (!given.is_string()) return given;
  const std::string& text = given.get_ref<const std::string&>();
  const std::size_t comma = text.find(',');
  return json::array({std::stoi(text.substr(0, comma)), std::stoi(text.substr(comma + 1))});
}

void check_success(const json& request, const json& reply) {
  using waymark::fuzz::finding;
  const json& path = reply.at("path");
  if (!path.is_array() || path.empty()) finding();
  if (path.front() != cell_of(request.at("from")) || path.back() != cell_of(request.at("to"))) finding();
  const json& map = request.at("map");
  const bool inline_map = map.contains("rows") && !map.contains("name");
  const bool terrain = request.contains("terrain") && request["terrain"] == true;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int x = path[i][0].get<int>();
    const int y = path[i][1].get<int>();
    if (inline_map && !passable(map, x, y, terrain)) finding();
    if (i > 0 && (std::abs(x - path[i - 1][0].get<int>()) > 1 || std::abs(y - path[i - 1][1].get<int>()) > 1)) {
      // theta's segments are any-angle; every other algorithm steps cell by cell.
      if (request.value("algorithm", std::string("astar")) != "theta") finding();
    }
  }
  if (!(reply.at("cost").get<double>() >= 0) || !std::isfinite(reply.at("cost").get<double>())) finding();
}

void check_puzzle(const json& reply) {
  using waymark::fuzz::finding;
  const json& boards = reply.at("boards");
  if (boards.empty() || boards.size() != reply.at("moves").get<std::size_t>() + 1) finding();
  for (std::size_t i = 0; i < boards.back().size(); ++i)
    if (boards.back()[i] != i) finding();  // the goal: 0 1 2 ...
  for (std::size_t i = 1; i < boards.size(); ++i) {
    int differ = 0;
    for (std::size_t c = 0; c < boards[i].size(); ++c) differ += boards[i][c] != boards[i - 1][c];
    if (differ != 2) finding();
  }
}

void check_route(const json& request, const json& reply) {
  using waymark::fuzz::finding;
  const json* first = nullptr;
  for (const json& result : reply.at("results")) {
    if (result.at("status") != "success") continue;
    if (result.at("path").front() != request.at("from") || result.at("path").back() != request.at("to")) finding();
    if (first && !waymark::fuzz::same_distance(result.at("cost").get<double>(), first->at("cost").get<double>()))
      finding();
    if (!first) first = &result;
  }
}

/// The checks every answer gets, and `on_success` for a 200 whose "status" is success.
template <class OnSuccess>
void check_answer(const waymark::web::Response& response, const std::string& body, OnSuccess on_success) {
  using waymark::fuzz::finding;
  const json reply = json::parse(response.body, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) finding();
  switch (response.status) {
    case 200: {
      const json request = json::parse(body);  // the API accepted it: it is JSON
      if (!reply.contains("status") || reply["status"] == "success") on_success(request, reply);
      else if (!reply.contains("reason")) finding();
      break;
    }
    case 400:
    case 404:
    case 413:
    case 429:  // every edited copy of a level taken
    case 503:  // out of memory (web::guarded)
      if (!reply.contains("error") || !reply["error"].is_string() || reply["error"].get<std::string>().empty()) finding();
      break;
    default: finding();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const waymark::web::Api api(WAYMARK_FUZZ_DATA_DIR, fuzz_limits());
  const std::string body(waymark::fuzz::text_of(data, size));
  check_answer(api.path(body), body, check_success);
  check_answer(api.puzzle(body), body, [](const json&, const json& reply) { check_puzzle(reply); });
  check_answer(api.route(body), body, check_route);
  const auto check_navmesh_path = [](const json&, const json& reply) {
    // Polyanya's path is the shortest: never longer than the funnel's.
    const json& shortest = reply.at("shortest");
    const json& funnel = reply.at("funnel");
    if (shortest.at("status") == "success" && funnel.at("status") == "success" &&
        waymark::fuzz::shorter(funnel.at("length").get<double>(), shortest.at("length").get<double>()))
      waymark::fuzz::finding();
  };
  check_answer(api.navmesh_path(body), body, check_navmesh_path);
  const auto any_answer = [](const json&, const json&) {};
  check_answer(api.navmesh_obstacle(body), body, [&](const json& request, const json& reply) {
    using waymark::fuzz::finding;
    // (A tile whose rebuild Recast refuses is counted in "failed" and kept as it was: allowed.)
    if (!reply.contains("session") || !reply.contains("id") || !reply.contains("level") || !reply.at("failed").is_number()) finding();
    const json session = reply["session"];
    // The edited copy answers paths as the level does (the request's ends, if it had any).
    json on_copy = request;
    on_copy["session"] = session;
    const std::string path_body = on_copy.dump();
    check_answer(api.navmesh_path(path_body), path_body, check_navmesh_path);
    const std::string remove = json{{"session", session}, {"id", reply["id"]}}.dump();
    check_answer(api.navmesh_obstacle_remove(remove), remove, [](const json&, const json& removed) {
      if (!removed.contains("removed") || !removed.at("failed").is_number()) waymark::fuzz::finding();
    });
    const std::string stop = json{{"session", session}}.dump();
    const waymark::web::Response stopped = api.navmesh_stop(stop);
    if (stopped.status != 200) finding();  // every copy this target opens is let go
  });
  check_answer(api.navmesh_obstacle_remove(body), body, any_answer);
  check_answer(api.navmesh_stop(body), body, any_answer);
  return 0;
}
