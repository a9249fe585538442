// The polygon file reader: a small JSON reader for exactly this schema, so that every value
// carries its line, limits are checked before a list grows, and nesting is fixed (no
// recursion a hostile file could deepen).
#include "waymark/io/polygons.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string_view>
#include <utility>

#include "text_lines.hpp"
#include "waymark/core/binary_io.hpp"
#include "waymark/core/text.hpp"

namespace waymark::io {
namespace {

/// Longest number and key accepted, characters (JSON allows more; coordinates need far less).
constexpr std::size_t max_token = 64;

class Reader {
 public:
  Reader(std::istream& in, const std::string& name) : buf_(in.rdbuf()), name_(name) {
    if (buf_ == nullptr) fail("cannot read");
    static constexpr std::array<unsigned char, 3> bom{0xef, 0xbb, 0xbf};
    if (peek() == bom[0]) {
      for (const unsigned char b : bom) {
        if (peek() != b) fail("unexpected byte " + byte_text());
        take();
      }
    }
  }

  [[noreturn]] void fail(const std::string& reason, std::size_t line = 0) const {
    throw LoadError(name_, line == 0 ? line_ : line, reason);
  }
  [[nodiscard]] std::size_t line() const { return line_; }

  /// The next byte after white space, without taking it; -1 at the end.
  int next() {
    for (;;) {
      const int c = peek();
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
      take();
    }
  }
  void expect(char c, std::string_view what) {
    if (next() != static_cast<unsigned char>(c)) fail("expected " + std::string(what) + ", got " + byte_text());
    take();
  }
  /// After an element: true when another follows (a comma), false at `close`.
  bool more(char close, const char* what) {
    const int c = next();
    if (c == ',') {
      take();
      return true;
    }
    if (c == static_cast<unsigned char>(close)) {
      take();
      return false;
    }
    fail(std::string("expected ',' or '") + close + "' " + what + ", got " + byte_text());
  }
  /// `open`, then elements separated by commas (none at all allowed), then `close`: `element()`
  /// reads each. `what` names the expected `open`, `in` the list, in messages.
  template <class F>
  void list(char open, char close, std::string_view what, const char* in, F&& element) {
    expect(open, what);
    if (next() == static_cast<unsigned char>(close)) {
      take();
      return;
    }
    do {
      element();
    } while (more(close, in));
  }

  std::string key() {
    if (next() != '"') fail("expected a key in double quotes, got " + byte_text());
    take();
    std::string k;
    for (;;) {
      const int c = take();
      if (c < 0) fail("unterminated string");
      if (c == '"') return k;
      if (c < 0x20) fail("control byte in a string");
      if (c == '\\') {
        const int e = take();
        if (e < 0) fail("unterminated string");
        k.push_back('\\');
        k.push_back(static_cast<char>(e));
      } else {
        k.push_back(static_cast<char>(c));
      }
      if (k.size() > max_token) fail("key longer than " + std::to_string(max_token) + " characters");
    }
  }

  /// A JSON number within ±max_abs_coordinate.
  double number() {
    next();
    std::array<char, max_token + 1> text{};
    std::size_t n = 0;
    for (int c = peek(); c >= 0 && (std::isalnum(c) || c == '-' || c == '+' || c == '.'); c = peek()) {
      if (n == max_token) fail("number longer than " + std::to_string(max_token) + " characters");
      text[n++] = static_cast<char>(take());
    }
    const std::string_view token(text.data(), n);
    if (n == 0) fail("expected a number, got " + byte_text());
    if (!json_number(token)) fail("expected a number, got " + quoted(token));
    double v = 0;
    if (!detail::parse_number(token, v) || !std::isfinite(v)) fail("number " + quoted(token) + " is out of range");
    if (std::abs(v) > visibility::max_abs_coordinate) {
      std::ostringstream limit;
      limit << visibility::max_abs_coordinate;
      fail("number " + quoted(token) + " lies outside ±" + limit.str());
    }
    return v;
  }

  /// `[x, y]`, `noun` saying what it is ("a vertex").
  Vec2 pair(const std::string& noun) {
    expect('[', "'[' (" + noun + " [x, y])");
    const double x = number();
    expect(',', "',' between x and y");
    const double y = number();
    if (next() != ']') fail(noun + " has more than two numbers");
    take();
    return {x, y};
  }

  bool at_end() { return next() < 0; }

 private:
  int peek() { return buf_->sgetc() == std::char_traits<char>::eof() ? -1 : static_cast<unsigned char>(buf_->sgetc()); }
  int take() {
    const int c = peek();
    if (c < 0) return c;
    buf_->sbumpc();
    if (c == '\n') ++line_;
    return c;
  }
  std::string byte_text() {
    const int c = peek();
    if (c < 0) return "the end of the file";
    return quoted(std::string(1, static_cast<char>(c)));
  }
  /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  static bool json_number(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&] {
      const std::size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      return i > start;
    };
    if (i < s.size() && s[i] == '-') ++i;
    if (i < s.size() && s[i] == '0') {
      ++i;
    } else if (!digits()) {
      return false;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (!digits()) return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (!digits()) return false;
    }
    return i == s.size();
  }

  std::streambuf* buf_;
  const std::string& name_;
  std::size_t line_ = 1;
};

std::string count_limit(const char* what, std::size_t limit, const char* option) {
  return "more than " + std::to_string(limit) + " " + what + " (limit " + option + ")";
}

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
  PolygonFile file;
  file.name = name;
  Reader r(in, name);
  if (r.at_end()) r.fail("empty file: expected a JSON object");
  bool seen_polygons = false, seen_points = false, seen_bounds = false;
  std::size_t total_vertices = 0;
  std::vector<std::size_t> vertex_lines;
  r.list('{', '}', "'{' (a JSON object)", "in the object", [&] {
    r.next();
    const std::size_t key_line = r.line();
    const std::string key = r.key();
    r.expect(':', "':' after a key");
    const auto once = [&](bool& seen) {
      if (seen) r.fail("key \"" + key + "\" appears twice", key_line);
      seen = true;
    };
    if (key == "polygons") {
      once(seen_polygons);
      r.list('[', ']', "'[' (the list of polygons)", "in the list of polygons", [&] {
        if (file.obstacles.polygons.size() == options.max_polygons)
          r.fail(count_limit("polygons", options.max_polygons, "max_polygons"));
        r.next();
        const std::size_t polygon_line = r.line();
        std::vector<Vec2> polygon;
        vertex_lines.clear();
        r.list('[', ']', "'[' (a polygon: a list of [x, y] vertices)", "in a polygon", [&] {
          if (polygon.size() == options.max_polygon_vertices)
            r.fail(count_limit("vertices in one polygon", options.max_polygon_vertices, "max_polygon_vertices"));
          if (total_vertices == options.max_vertices) r.fail(count_limit("vertices", options.max_vertices, "max_vertices"));
          r.next();
          vertex_lines.push_back(r.line());
          polygon.push_back(r.pair("a vertex"));
          ++total_vertices;
        });
        const std::size_t index = file.obstacles.polygons.size();
        if (const auto problem = visibility::polygon_problem(polygon)) {
          const std::size_t line = problem->vertex < vertex_lines.size() ? vertex_lines[problem->vertex] : polygon_line;
          r.fail("polygon " + std::to_string(index) + ": " + problem->reason, line);
        }
        file.obstacles.polygons.push_back(std::move(polygon));
        file.polygon_lines.push_back(polygon_line);
      });
    } else if (key == "points") {
      once(seen_points);
      r.list('[', ']', "'[' (the list of points)", "in the list of points", [&] {
        if (file.obstacles.points.size() == options.max_points) r.fail(count_limit("points", options.max_points, "max_points"));
        r.next();
        file.point_lines.push_back(r.line());
        file.obstacles.points.push_back(r.pair("a point"));
      });
    } else if (key == "bounds") {
      once(seen_bounds);
      r.next();
      file.bounds_line = r.line();
      r.expect('[', "'[' (bounds [minx, miny, maxx, maxy])");
      std::array<double, 4> b{};
      for (std::size_t i = 0; i < b.size(); ++i) {
        if (i > 0) r.expect(',', "',' between the four numbers of bounds");
        b[i] = r.number();
      }
      r.expect(']', "']' after the four numbers of bounds");
      if (!(b[0] < b[2] && b[1] < b[3])) r.fail("bounds must be [minx, miny, maxx, maxy] with min < max", file.bounds_line);
      file.obstacles.bounds = Aabb2{{b[0], b[1]}, {b[2], b[3]}};
    } else {
      r.fail("unknown key " + quoted(key) + " (expected polygons, points or bounds)", key_line);
    }
  });
  if (!seen_polygons) r.fail("missing key \"polygons\"");
  if (!r.at_end()) r.fail("unexpected text after the object");
  return file;
}

PolygonFile load_polygons(const std::string& path, const PolygonLoadOptions& options) {
  return load_file(path, [&](std::istream& in) { return parse_polygons(in, path, options); });
}

}  // namespace waymark::io
