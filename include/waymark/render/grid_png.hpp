#pragma once
/// @file Draws a grid, the cells a search expanded, and a path, to a PNG (cairo).

#include <cstdint>
#include <span>
#include <string>

#include "waymark/grid/grid_map.hpp"

namespace waymark::render {

struct GridPictureStyle {
  /// Target size of the longer image side, pixels; cells are square and at least 1 px.
  int target_size_px = 1024;
  double path_width_cells = 0.6;  ///< path line width, in cells. [Limit: > 0]
  double endpoint_radius_cells = 1.2;  ///< start/goal dot radius, in cells. [Limit: > 0]
};

/// Writes `file` (PNG). Blocked cells dark, passable light, terrain darker with its
/// multiplier, `expanded` cells tinted, `path` as a polyline with start (green) and goal (red).
/// Returns false (and writes nothing useful) when cairo cannot create or write the image.
bool write_grid_png(const grid::GridMap& map, std::span<const CellId> path, std::span<const CellId> expanded,
                    const std::string& file, const GridPictureStyle& style = {});

/// A cell label meaning "in no region" for write_region_png.
inline constexpr std::uint32_t no_label = 0xffffffffu;

/// Writes `file` (PNG): a region map. `labels` has one label per cell (row-major, as CellId);
/// each label gets its own colour (hues spread by the golden angle), blocked cells are black,
/// passable cells labelled no_label light grey, and each of `seeds` is a white dot ringed in
/// black (endpoint_radius_cells). Returns false when `labels` has the wrong size or cairo
/// cannot create or write the image.
bool write_region_png(const grid::GridMap& map, std::span<const std::uint32_t> labels, std::span<const CellId> seeds,
                      const std::string& file, const GridPictureStyle& style = {});

}  // namespace waymark::render
