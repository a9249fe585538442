// Fuzz target: request bodies of the viewer's POST /api/path (`waymark serve`). Input: the
// body. Every answer is JSON with a known status; a refusal says why; a success leads from
// "from" to "to" over passable cells of the map it was given, by single steps.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
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
  return limits;
}

/// Whether (x, y) is passable in the request's inline map (rows of Moving AI letters).
bool passable(const json& map, int x, int y, bool terrain) {
  const char c = map["rows"][static_cast<std::size_t>(y)].get_ref<const std::string&>()[static_cast<std::size_t>(x)];
  return c == '.' || c == 'G' || c == 'S' || (terrain && c == 'W');
}

void check_success(const json& request, const json& reply) {
  using waymark::fuzz::finding;
  const json& path = reply.at("path");
  if (!path.is_array() || path.empty()) finding();
  if (path.front() != request.at("from") || path.back() != request.at("to")) finding();
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using waymark::fuzz::finding;
  static const waymark::web::Api api(WAYMARK_FUZZ_DATA_DIR, fuzz_limits());
  const std::string body(waymark::fuzz::text_of(data, size));
  const waymark::web::Response response = api.path(body);
  const json reply = json::parse(response.body, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) finding();
  switch (response.status) {
    case 200: {
      const json request = json::parse(body);  // the API accepted it: it is JSON
      if (reply.at("status") == "success") check_success(request, reply);
      else if (!reply.contains("reason")) finding();
      break;
    }
    case 400:
    case 404:
    case 413:
      if (!reply.contains("error") || !reply["error"].is_string() || reply["error"].get<std::string>().empty()) finding();
      break;
    default: finding();
  }
  return 0;
}
