#pragma once
/// @file Polygon obstacle files (JSON) for visibility graphs:
/// `{"polygons": [[[x,y], …], …], "points": [[x,y], …], "bounds": [minx, miny, maxx, maxy]}`,
/// "points" and "bounds" optional, no other key. See docs/visibility.md. The loader throws
/// LoadError (file, line, reason) on malformed input and on any polygon that
/// visibility::polygon_problem() refuses.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::io {

/// The default limits of a polygon file, each counted while reading, so a file over one is
/// refused before anything grows past it.
inline constexpr std::size_t max_polygon_count = std::size_t{1} << 16;
inline constexpr std::size_t max_polygon_file_vertices = std::size_t{1} << 20;
/// Per polygon: the simplicity check is quadratic in it.
inline constexpr std::size_t max_polygon_vertices = 4096;
inline constexpr std::size_t max_polygon_file_points = std::size_t{1} << 16;

struct PolygonLoadOptions {
  std::size_t max_polygons = max_polygon_count;           ///< polygons in the file. [Limit: >= 0]
  std::size_t max_vertices = max_polygon_file_vertices;   ///< vertices of all polygons together
  std::size_t max_polygon_vertices = io::max_polygon_vertices;  ///< vertices of one polygon
  std::size_t max_points = max_polygon_file_points;       ///< hand-placed points
};

/// A parsed file: the obstacles, and the line each polygon, point and the bounds start on (for
/// messages about them, e.g. a visibility::InputError from a build).
struct PolygonFile {
  std::string name;
  visibility::Obstacles obstacles;
  std::vector<std::size_t> polygon_lines;
  std::vector<std::size_t> point_lines;
  std::size_t bounds_line = 0;

  /// A build's refusal as a LoadError at the line of the polygon, point or bounds it names
  /// (line 0 for the parameters).
  [[nodiscard]] LoadError error(const visibility::InputError& e) const;
};

/// Reads a polygon file from `in`; `name` is used in error messages. Numbers are JSON numbers
/// (no NaN, Infinity or quoted numbers) within ±visibility::max_abs_coordinate; a UTF-8 byte
/// order mark is skipped.
[[nodiscard]] PolygonFile parse_polygons(std::istream& in, const std::string& name,
                                         const PolygonLoadOptions& options = {});
[[nodiscard]] PolygonFile load_polygons(const std::string& path, const PolygonLoadOptions& options = {});

}  // namespace waymark::io
