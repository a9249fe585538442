#pragma once
/// @file Draws a grid, the cells a search expanded, its open set and paths, or a region map,
/// to a PNG or an SVG (cairo), with a legend. (The file's name is older than SVG: every
/// write_*_picture writes either format; only the write_*_png shorthands are PNG alone.)

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "waymark/grid/grid_map.hpp"
#include "waymark/render/picture.hpp"

namespace waymark::render {

struct GridPictureStyle {
  /// Target size of the longer side of the map, pixels; cells are square, a whole number of
  /// pixels and at least 1 (so a map larger than this gets a larger picture).
  int target_size_px = 1024;
  double path_width_cells = 0.6;  ///< path line width, in cells (at least 1 px). [Limit: > 0]
  double endpoint_radius_cells = 1.2;  ///< start/goal dot radius, in cells (at least 2 px). [Limit: > 0]
  /// A strip of colour keys below the map (the picture is then at least legend_min_width_px
  /// wide, the map at its left).
  bool legend = true;
};

/// What a grid picture shows over the map; every part may be empty.
struct GridLayers {
  std::span<const CellId> path;      ///< the search's path: orange, or grey under `smoothed`
  std::span<const CellId> smoothed;  ///< waypoints of the smoothed path, orange over a grey `path`
  /// Cells in the order a search expanded them: shaded from palette::expanded_early to
  /// palette::expanded_late (a cell expanded twice gets its later shade).
  std::span<const CellId> expanded;
  std::span<const CellId> open;  ///< cells left in the open set: outlined (palette::open_set)
  /// Agent trails, world units (cell (x,y) covers origin + [x,x+1)·cell_size, as in GridMap):
  /// each a polyline in its own colour, a ring where it starts and a dot where it ends.
  std::span<const std::vector<Vec2>> trails;
  CellId start{};  ///< green marker; invalid: the first cell of `smoothed`, else of `path`
  CellId goal{};   ///< red marker; invalid: the last cell of `smoothed`, else of `path`
};

/// Writes `file` (PNG or SVG by `format`; by_name: by its extension). Blocked cells dark,
/// passable light, terrain darker with its multiplier (cheaper than 1, e.g. a zone: greener),
/// then `layers` (expanded cells, open set, raw path, smoothed path, trails, start and goal),
/// then the legend. Returns false (and writes nothing useful) when a cell of
/// `layers` is outside the map or cairo cannot create or write the file.
bool write_grid_picture(const grid::GridMap& map, const GridLayers& layers, const std::string& file,
                        const GridPictureStyle& style = {}, PictureFormat format = PictureFormat::by_name);

/// write_grid_picture() as a PNG of `path` (orange, green start, red goal) and `expanded`.
bool write_grid_png(const grid::GridMap& map, std::span<const CellId> path, std::span<const CellId> expanded,
                    const std::string& file, const GridPictureStyle& style = {});

/// A cell label meaning "in no region" for write_region_picture.
inline constexpr std::uint32_t no_label = 0xffffffffu;

/// Writes `file` (PNG or SVG by `format`): a region map. `labels` has one label per cell
/// (row-major, as CellId); each label gets its own colour (hues spread by the golden angle),
/// blocked cells are black, passable cells labelled no_label light grey, and each of `seeds`
/// is a white dot ringed in black (endpoint_radius_cells). Returns false when `labels` has the
/// wrong size or cairo cannot create or write the file.
bool write_region_picture(const grid::GridMap& map, std::span<const std::uint32_t> labels,
                          std::span<const CellId> seeds, const std::string& file, const GridPictureStyle& style = {},
                          PictureFormat format = PictureFormat::by_name);

/// write_region_picture() as a PNG.
bool write_region_png(const grid::GridMap& map, std::span<const std::uint32_t> labels, std::span<const CellId> seeds,
                      const std::string& file, const GridPictureStyle& style = {});

}  // namespace waymark::render
