// The polygon file reader: the schema over the io module's JSON reader (json_reader.hpp), so
// that every value carries its line and path, nesting and size are bounded while reading, and
// the file's own limits are checked before its lists are copied.
#include "waymark/io/polygons.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>

#include "json_reader.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/text.hpp"

namespace waymark::io {
namespace {

using json::Steps;
using json::Value;

/// Values a polygon file may hold at most for its limits: its lists and their numbers.
std::size_t polygon_file_values(const PolygonLoadOptions& o) {
  return 3 * o.max_vertices + o.max_polygons + 3 * o.max_points + 16;
}
/// Bytes of text a value may take at most, on average (long numbers, white space).
constexpr std::size_t bytes_per_value = 64;

std::string count_limit(const char* what, std::size_t limit, const char* option) {
  return "more than " + number_text(limit) + " " + what + " (limit " + option + ")";
}

Steps step(Steps at, std::string key) {
  at.push_back({std::move(key), 0, false});
  return at;
}
Steps step(Steps at, std::size_t index) {
  at.push_back({{}, index, true});
  return at;
}

/// The walk over a polygon file's document.
class PolygonReader {
 public:
  PolygonReader(const json::Document& doc, const PolygonLoadOptions& options) : doc_(doc), options_(options) {}

  void read(PolygonFile& file) {
    const Value root = doc_.root();
    if (root.kind() != json::Kind::object) doc_.fail({}, "expected a JSON object, got " + root.describe());
    bool seen_polygons = false;
    for (const Value::Member m : root.members()) {
      const Steps at = step({}, std::string(m.key));
      if (m.key == "polygons") {
        seen_polygons = true;
        polygons(m.value, at, file);
      } else if (m.key == "points") {
        points(m.value, at, file);
      } else if (m.key == "bounds") {
        bounds(m.value, at, file);
      } else {
        doc_.fail({}, "unknown key " + quoted(std::string(m.key)) + " (expected polygons, points or bounds)", &at);
      }
    }
    if (!seen_polygons) doc_.fail({}, "missing key \"polygons\"");
  }

 private:
  void list(const Value& v, const Steps& at, const char* what) const {
    if (v.kind() != json::Kind::array) doc_.fail(at, std::string("expected ") + what + ", got " + v.describe());
  }

  void polygons(const Value& list_value, const Steps& at, PolygonFile& file) const {
    list(list_value, at, "a list of polygons");
    if (list_value.size() > options_.max_polygons)
      doc_.fail(at, count_limit("polygons", options_.max_polygons, "max_polygons"));
    std::size_t total = 0;
    std::size_t index = 0;
    for (const Value poly : list_value.items()) {
      const Steps here = step(at, index);
      list(poly, here, "a polygon (a list of [x, y] vertices)");
      if (poly.size() > options_.max_polygon_vertices)
        doc_.fail(here, count_limit("vertices in one polygon", options_.max_polygon_vertices, "max_polygon_vertices"));
      total += poly.size();
      if (total > options_.max_vertices) doc_.fail(here, count_limit("vertices", options_.max_vertices, "max_vertices"));
      std::vector<Vec2> polygon;
      polygon.reserve(poly.size());
      std::size_t k = 0;
      for (const Value vertex : poly.items()) polygon.push_back(pair(vertex, step(here, k++), "a vertex"));
      if (const auto problem = visibility::polygon_problem(polygon)) {
        const Steps line_at = problem->vertex < polygon.size() ? step(here, problem->vertex) : here;
        doc_.fail(here, problem->reason, &line_at);
      }
      file.obstacles.polygons.push_back(std::move(polygon));
      file.polygon_lines.push_back(poly.line());
      ++index;
    }
  }

  void points(const Value& list_value, const Steps& at, PolygonFile& file) const {
    list(list_value, at, "a list of points");
    if (list_value.size() > options_.max_points) doc_.fail(at, count_limit("points", options_.max_points, "max_points"));
    std::size_t index = 0;
    for (const Value p : list_value.items()) {
      file.obstacles.points.push_back(pair(p, step(at, index++), "a point"));
      file.point_lines.push_back(p.line());
    }
  }

  void bounds(const Value& v, const Steps& at, PolygonFile& file) const {
    constexpr const char* shape = "bounds [minx, miny, maxx, maxy]";
    list(v, at, shape);
    if (v.size() != 4)
      doc_.fail(at, std::string("expected ") + shape + ", got a list of " + number_text(v.size()) + " values");
    std::array<double, 4> b{};
    std::size_t i = 0;
    for (const Value n : v.items()) {
      b[i] = number(n, step(at, i));
      ++i;
    }
    if (!(b[0] < b[2] && b[1] < b[3])) doc_.fail(at, "must be [minx, miny, maxx, maxy] with min < max");
    file.bounds_line = v.line();
    file.obstacles.bounds = Aabb2{{b[0], b[1]}, {b[2], b[3]}};
  }

  /// `[x, y]`, `noun` saying what it is ("a vertex").
  Vec2 pair(const Value& v, const Steps& at, const std::string& noun) const {
    if (v.kind() != json::Kind::array || v.size() != 2) {
      const std::string what =
          v.kind() == json::Kind::array ? "a list of " + number_text(v.size()) + " values" : v.describe();
      doc_.fail(at, "expected " + noun + " [x, y], got " + what);
    }
    auto it = v.items().begin();
    const Value x = *it, y = *++it;
    return {number(x, step(at, 0)), number(y, step(at, 1))};
  }

  /// A number within ±max_abs_coordinate.
  double number(const Value& v, const Steps& at) const {
    if (!v.is_number()) doc_.fail(at, "expected a number, got " + v.describe());
    const double x = v.number();
    if (!(std::abs(x) <= visibility::max_abs_coordinate)) {
      doc_.fail(at, "must lie within ±" + number_text(visibility::max_abs_coordinate) + ", got " + v.describe());
    }
    return x;
  }

  const json::Document& doc_;
  const PolygonLoadOptions& options_;
};

}  // namespace

LoadError PolygonFile::error(const visibility::InputError& e) const {
  using Item = visibility::InputError::Item;
  std::size_t line = 0;
  if (e.item() == Item::polygon && e.index() < polygon_lines.size()) line = polygon_lines[e.index()];
  if (e.item() == Item::point && e.index() < point_lines.size()) line = point_lines[e.index()];
  if (e.item() == Item::bounds) line = bounds_line;
  return LoadError(name, line, e.what());
}

PolygonFile parse_polygons(std::istream& in, const std::string& name, const PolygonLoadOptions& options) {
  json::Limits limits;
  limits.max_values = polygon_file_values(options);
  limits.max_bytes = std::max(json::Limits::default_max_bytes, bytes_per_value * limits.max_values);
  const json::Document doc(json::read_text(in, name, limits.max_bytes), name, limits);
  PolygonFile file;
  file.name = name;
  PolygonReader(doc, options).read(file);
  return file;
}

PolygonFile load_polygons(const std::string& path, const PolygonLoadOptions& options) {
  return load_file(path, [&](std::istream& in) { return parse_polygons(in, path, options); });
}

}  // namespace waymark::io
