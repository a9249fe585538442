#include "web/request.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <system_error>

namespace waymark::web {
namespace {

/// Longest map name a request may give (names are file stems of DATA/maps).
constexpr std::size_t max_map_name_length = 128;

void check_name(std::string_view name) {
  if (!valid_name(name)) throw ApiError(http_bad_request, "a map name is letters, digits, '_', '-' and '.'");
}

}  // namespace

std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

Response error(int status, const std::string& why) { return {status, text_of(json{{"error", why}})}; }

const json& field(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) throw ApiError(http_bad_request, std::string("missing field \"") + key + "\"");
  return *it;
}

std::string text_field(const json& object, const char* key, const std::string& fallback) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  if (!it->is_string()) throw ApiError(http_bad_request, std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

double number_field(const json& object, const char* key, double fallback) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  if (!it->is_number()) throw ApiError(http_bad_request, std::string("\"") + key + "\" must be a number");
  return it->get<double>();
}

/// An integer in [lo, hi], from a JSON number without a fraction.
int whole_number(const json& v, int lo, int hi, const std::string& what) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    const auto n = v.get<std::int64_t>();
    if (n >= lo && n <= hi) return static_cast<int>(n);
  }
  throw ApiError(http_bad_request, what + " must be a whole number from " + std::to_string(lo) + " to " +
                                       std::to_string(hi));
}

Vec2 plane_point(const json& object, const char* key) {
  const json& v = field(object, key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
    throw ApiError(http_bad_request, std::string("\"") + key + "\" must be [x, y]");
  return {v[0].get<double>(), v[1].get<double>()};
}

json request_object(std::string_view body, const ApiLimits& limits) {
  if (body.size() > limits.max_body_bytes)
    throw ApiError(http_too_large, "request body over " + std::to_string(limits.max_body_bytes) + " bytes");
  json request = json::parse(body);
  if (!request.is_object()) throw ApiError(http_bad_request, "the request must be a JSON object");
  return request;
}

void put_status(json& answer, Status st) {
  answer["status"] = to_string(st.state);
  if (!st.succeeded()) answer["reason"] = reason_name(st);
}

search::Budget time_budget(double seconds) {
  return search::Budget::of_time(
      std::chrono::duration_cast<search::Budget::Clock::duration>(std::chrono::duration<double>(seconds)));
}

json points_json(std::span<const Vec2> points) {
  json a = json::array();
  for (const Vec2& p : points) a.push_back({p.x, p.y});
  return a;
}

bool valid_name(std::string_view name) {
  return !name.empty() && name.size() <= max_map_name_length &&
                  std::all_of(name.begin(), name.end(), [](char ch) {
                    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                           ch == '_' || ch == '-' || ch == '.';
                  }) &&
                  name.find("..") == std::string_view::npos;
}

/// The stems of DIR's files ending in `ext` that a request may name, sorted.
std::vector<std::string> bundled_names(const std::filesystem::path& dir, std::string_view ext) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ext && valid_name(entry.path().stem().string()))
      names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// DIR/name+ext for a bundled `name` (one of `names`): 400 for a malformed name, 404 for an
/// unknown one; `what` names the kind ("map", "level", ...) in the refusal.
std::filesystem::path bundled_file(const std::vector<std::string>& names, std::string_view name,
                                   const std::filesystem::path& dir, std::string_view ext, std::string_view what) {
  check_name(name);
  if (!std::binary_search(names.begin(), names.end(), name))
    throw ApiError(http_not_found, "no bundled " + std::string(what) + " \"" + std::string(name) + "\" (GET /api/maps lists them)");
  return dir / (std::string(name) + std::string(ext));
}

io::MapLoadOptions load_options(const ApiLimits& limits, bool terrain) {
  io::MapLoadOptions o;
  o.max_cells = limits.max_map_cells;
  if (terrain) o.terrain = io::TerrainCosts{};
  return o;
}

/// The request's "map": a bundled one by name, or width, height and rows in Moving AI
/// letters ('.' 'G' free, '@' 'O' 'T' walls, 'S' swamp and 'W' water: terrain).
grid::GridMap request_map(const json& spec, const std::vector<std::string>& names, const std::filesystem::path& data_dir,
                          const ApiLimits& limits, bool terrain) {
  if (!spec.is_object()) throw ApiError(http_bad_request, "\"map\" must be {\"name\": ...} or {\"width\", \"height\", \"rows\"}");
  if (spec.contains("name")) {
    const auto file = bundled_file(names, text_field(spec, "name", ""), data_dir / "maps", ".map", "map");
    return io::load_movingai_map(file.string(), load_options(limits, terrain));
  }
  const json& w = field(spec, "width");
  const json& h = field(spec, "height");
  const int width = whole_number(w, 1, INT32_MAX, "\"map.width\"");
  const int height = whole_number(h, 1, INT32_MAX, "\"map.height\"");
  if (width > limits.max_map_side || height > limits.max_map_side ||
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > limits.max_map_cells)
    throw ApiError(http_too_large, "map " + std::to_string(width) + "x" + std::to_string(height) +
                                       " is over the limit (" + std::to_string(limits.max_map_cells) + " cells, " +
                                       std::to_string(limits.max_map_side) + " a side)");
  const json& rows = field(spec, "rows");
  if (!rows.is_array() || rows.size() != static_cast<std::size_t>(height))
    throw ApiError(http_bad_request, "\"map.rows\" must be an array of " + std::to_string(height) + " strings");
  std::string text = "type octile\nheight " + std::to_string(height) + "\nwidth " + std::to_string(width) + "\nmap\n";
  text.reserve(text.size() + static_cast<std::size_t>(height) * (static_cast<std::size_t>(width) + 1));
  for (std::size_t y = 0; y < rows.size(); ++y) {
    if (!rows[y].is_string() || rows[y].get_ref<const std::string&>().size() != static_cast<std::size_t>(width))
      throw ApiError(http_bad_request,
                     "\"map.rows\"[" + std::to_string(y) + "] must be a string of " + std::to_string(width) + " letters");
    text += rows[y].get_ref<const std::string&>();
    text += '\n';
  }
  std::istringstream in(text);
  return io::parse_movingai_map(in, "map", load_options(limits, terrain));
}

}  // namespace waymark::web
