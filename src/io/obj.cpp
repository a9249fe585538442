#include "waymark/io/obj.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

namespace {

/// Records that carry nothing a walkable surface needs: texture and normal vertices, free-form
/// parameters, object, group, smoothing and material names, lines and points.
constexpr std::array<std::string_view, 10> ignored_records = {"vt", "vn", "vp", "o", "g", "s", "usemtl", "mtllib", "l", "p"};

bool is_ignored(std::string_view keyword) {
  for (std::string_view r : ignored_records) {
    if (keyword == r) return true;
  }
  return false;
}

/// The most fields a `v` line may have after the keyword: X Y Z, then W or an R G B colour.
constexpr std::size_t max_vertex_fields = 6;

/// The vertex a face corner names, given `count` vertices read so far.
std::uint32_t corner_vertex(const LineReader& r, std::string_view corner, std::size_t count) {
  const std::string_view v = corner.substr(0, corner.find('/'));
  std::int64_t index = 0;
  if (!parse_number(v, index) || index == 0) {
    r.fail("a face corner must start with a vertex number (1 is the first, -1 the last), got " + waymark::quoted(corner));
  }
  const auto n = static_cast<std::int64_t>(count);
  const std::int64_t resolved = index > 0 ? index - 1 : n + index;
  if (resolved < 0 || resolved >= n) {
    r.fail("face corner " + waymark::quoted(corner) + " names vertex " + number_text(index) + ", but " +
           number_text(count) + " vertices are defined before this line");
  }
  return static_cast<std::uint32_t>(resolved);
}

}  // namespace

TriangleMesh parse_obj(std::istream& in, const std::string& name, const ObjLoadOptions& options) {
  TriangleMesh mesh;
  LineReader r(in, name);
  std::string line;
  std::vector<std::uint32_t> corners;
  while (r.next(line)) {
    const auto f = split_fields(std::string_view(line).substr(0, line.find('#')));
    if (f.empty()) continue;
    if (f[0] == "v") {
      if (f.size() < 4 || f.size() > 1 + max_vertex_fields) {
        r.fail("expected 'v X Y Z' (optionally W, or R G B), got " + waymark::quoted(line));
      }
      if (mesh.vertices.size() >= options.max_vertices) {
        r.fail("more than " + number_text(options.max_vertices) +
               " vertices (the limit ObjLoadOptions::max_vertices; raise it for larger models)");
      }
      std::array<double, 3> xyz{};
      for (std::size_t i = 0; i < 3; ++i) {
        if (!parse_number(f[i + 1], xyz[i]) || !std::isfinite(xyz[i])) {
          r.fail("vertex coordinate must be a finite number, got " + waymark::quoted(f[i + 1]));
        }
      }
      mesh.vertices.push_back({xyz[0], xyz[1], xyz[2]});
    } else if (f[0] == "f") {
      if (f.size() < 4) r.fail("a face needs at least 3 corners, got " + number_text(f.size() - 1));
      const std::size_t triangles = f.size() - 3;
      if (triangles > options.max_triangles - mesh.triangles.size()) {
        r.fail("more than " + number_text(options.max_triangles) +
               " triangles (the limit ObjLoadOptions::max_triangles; raise it for larger models)");
      }
      corners.clear();
      for (std::size_t i = 1; i < f.size(); ++i) corners.push_back(corner_vertex(r, f[i], mesh.vertices.size()));
      for (std::size_t i = 1; i + 1 < corners.size(); ++i) mesh.triangles.push_back({corners[0], corners[i], corners[i + 1]});
    } else if (!is_ignored(f[0])) {
      r.fail("unknown record " + waymark::quoted(f[0]) +
             " (expected v or f; vt, vn, vp, o, g, s, usemtl, mtllib, l and p are ignored)");
    }
  }
  if (mesh.triangles.empty()) r.fail_at(0, "no faces in the file");
  return mesh;
}

namespace {

/// A query flag mask (detail::parse_flag_mask).
std::uint16_t parse_flags(const LineReader& r, std::string_view field) { return detail::parse_flag_mask(r, field, "query flags"); }

}  // namespace

std::vector<NavQueryLine> parse_nav_queries(std::istream& in, const std::string& name) {
  std::vector<NavQueryLine> queries;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const auto f = split_fields(line);
    if (f.empty() || f[0] != "pf") continue;
    if (f.size() != 9) r.fail("expected 'pf SX SY SZ EX EY EZ INCLUDE EXCLUDE', got " + waymark::quoted(line));
    std::array<double, 6> c{};
    for (std::size_t i = 0; i < 6; ++i) {
      if (!parse_number(f[i + 1], c[i]) || !std::isfinite(c[i])) {
        r.fail("query coordinate must be a finite number, got " + waymark::quoted(f[i + 1]));
      }
    }
    queries.push_back({{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, parse_flags(r, f[7]), parse_flags(r, f[8]), r.number()});
  }
  return queries;
}

std::vector<NavQueryLine> load_nav_queries(const std::string& path) {
  std::ifstream in = open_input_file(path);
  return parse_nav_queries(in, path);
}

TriangleMesh load_obj(const std::string& path, const ObjLoadOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_obj(in, path, options);
}

}  // namespace waymark::io
