#include "web/request.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <sstream>
#include <system_error>

#include "waymark/core/text.hpp"

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

namespace {

using io::json::Kind;

/// The body, refused with 413 when it is over the limit.
std::string_view within_limit(std::string_view body, const ApiLimits& limits) {
  if (body.size() > limits.max_body_bytes)
    throw ApiError(http_too_large, "request body over " + number_text(limits.max_body_bytes) + " bytes");
  return body;
}

io::json::Limits reader_limits(const ApiLimits& limits) {
  io::json::Limits l;
  l.max_bytes = limits.max_body_bytes;
  l.max_depth = max_request_depth;
  return l;
}

}  // namespace

io::json::Steps Field::member_steps(const char* key) const {
  io::json::Steps steps = at_;
  steps.push_back({key, 0, false});
  return steps;
}

Field Field::item(io::json::Value v, std::size_t index) const {
  io::json::Steps steps = at_;
  steps.push_back({{}, index, true});
  return {*doc_, v, std::move(steps)};
}

void Field::fail_at(const char* key, const std::string& reason) const { doc_->fail(member_steps(key), reason); }

std::optional<Field> Field::find(const char* key) const {
  const auto m = value_.find(key);
  if (!m) return std::nullopt;
  return Field(*doc_, m->value, member_steps(key));
}

Field Field::field(const char* key) const {
  if (auto f = find(key)) return std::move(*f);
  fail(std::string("missing field \"") + key + "\"");
}

std::string Field::text(const char* key, const std::string& fallback) const {
  const auto f = find(key);
  if (!f || f->is_null()) return fallback;
  if (f->kind() != Kind::string) f->fail("must be a string, got " + f->value().describe());
  return f->value().text();
}

double Field::number(const char* key, double fallback) const {
  const auto f = find(key);
  if (!f || f->is_null()) return fallback;
  if (!f->value().is_number()) f->fail("must be a number, got " + f->value().describe());
  return f->value().number();
}

int Field::whole(int lo, int hi) const {
  if (value_.is_integer()) {
    const double n = value_.number();  // exact in the range an int takes
    if (n >= lo && n <= hi) return static_cast<int>(n);
  }
  fail("must be a whole number from " + number_text(lo) + " to " + number_text(hi) + ", got " +
       value_.describe());
}

Vec2 Field::plane_point(const char* key) const {
  const Field p = field(key);
  if (p.kind() != Kind::array || p.size() != 2) p.fail("must be [x, y], got " + p.value().describe());
  std::array<double, 2> xy{};
  std::size_t i = 0;
  for (const io::json::Value c : p.value().items()) {
    if (!c.is_number()) p.fail("must be [x, y], two numbers, got " + c.describe() + " in it");
    xy[i++] = c.number();
  }
  return {xy[0], xy[1]};
}

RequestBody::RequestBody(std::string_view body, const ApiLimits& limits)
    : doc_(within_limit(body, limits), "request", reader_limits(limits)) {
  const io::json::Value root = doc_.root();
  if (root.kind() != Kind::object) doc_.fail({}, "expected a JSON object, got " + root.describe());
}

void put_status(json& answer, Status st) {
  answer["status"] = to_string(st.state);
  if (!st.succeeded()) answer["reason"] = reason_name(st);
}

search::Budget time_budget(double seconds) { return search::Budget::of_seconds(seconds); }

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
grid::GridMap request_map(const Field& spec, const std::vector<std::string>& names, const std::filesystem::path& data_dir,
                          const ApiLimits& limits, bool terrain) {
  if (spec.kind() != Kind::object) spec.fail("must be {\"name\": ...} or {\"width\", \"height\", \"rows\"}");
  if (spec.find("name")) {
    const auto file = bundled_file(names, spec.text("name", ""), data_dir / "maps", ".map", "map");
    return io::load_movingai_map(file.string(), load_options(limits, terrain));
  }
  const int width = spec.field("width").whole(1, INT32_MAX);
  const int height = spec.field("height").whole(1, INT32_MAX);
  if (width > limits.max_map_side || height > limits.max_map_side ||
      static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > limits.max_map_cells)
    throw ApiError(http_too_large, "map " + number_text(width) + "x" + number_text(height) +
                                       " is over the limit (" + number_text(limits.max_map_cells) + " cells, " +
                                       number_text(limits.max_map_side) + " a side)");
  const Field rows = spec.field("rows");
  if (rows.kind() != Kind::array || rows.size() != static_cast<std::size_t>(height))
    rows.fail("must be an array of " + number_text(height) + " strings");
  std::string text = "type octile\nheight " + number_text(height) + "\nwidth " + number_text(width) + "\nmap\n";
  text.reserve(text.size() + static_cast<std::size_t>(height) * (static_cast<std::size_t>(width) + 1));
  rows.for_each_item([&](const Field& row) {
    if (row.kind() != Kind::string || row.value().text().size() != static_cast<std::size_t>(width))
      row.fail("must be a string of " + number_text(width) + " letters");
    text += row.value().text();
    text += '\n';
  });
  std::istringstream in(text);
  return io::parse_movingai_map(in, "map", load_options(limits, terrain));
}

}  // namespace waymark::web
