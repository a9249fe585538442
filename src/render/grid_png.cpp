#include "waymark/render/grid_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "canvas.hpp"

namespace waymark::render {

using grid::CellCoord;
using grid::GridMap;
namespace {

using detail::Canvas;
using detail::Rgb;
constexpr Rgb blocked_color{0.15, 0.15, 0.18};
constexpr Rgb free_color{0.96, 0.96, 0.93};
constexpr Rgb expanded_color{0.62, 0.78, 0.95};
/// How much darker a cell gets per unit of cost multiplier above 1 (terrain shading).
constexpr double terrain_shade_per_unit = 0.08;
constexpr double max_terrain_shade = 0.5;

void fill_cell(cairo_t* cr, CellCoord c, double px, Rgb color) {
  detail::set_color(cr, color);
  cairo_rectangle(cr, c.x * px, c.y * px, px, px);
  cairo_fill(cr);
}

/// Paints each passable cell in color_of(cell).
template <class ColorOf>
void fill_passable(cairo_t* cr, const GridMap& map, double px, ColorOf&& color_of) {
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const CellId c = map.cell(x, y);
      if (map.passable(c)) fill_cell(cr, {x, y}, px, color_of(c));
    }
  }
}

/// Pixels per cell: square cells, the longer side near the target size, at least 1.
double cell_px(const GridMap& map, const GridPictureStyle& style) {
  return std::max(1, style.target_size_px / std::max(map.width(), map.height()));
}

/// An image of the map's size in cells of `px` pixels.
Canvas grid_canvas(const GridMap& map, double px, Rgb background) {
  return Canvas(static_cast<int>(map.width() * px), static_cast<int>(map.height() * px), background);
}

// Region colours: hue stepped by the golden ratio per label, so neighbouring labels differ.
constexpr double region_hue_step = 0.6180339887498949;
constexpr double region_saturation = 0.55;
constexpr double region_value = 0.92;
constexpr Rgb region_wall_color{0, 0, 0};
constexpr Rgb unlabelled_color{0.80, 0.80, 0.80};
constexpr Rgb seed_fill_color{1, 1, 1};
constexpr Rgb seed_ring_color{0, 0, 0};
constexpr double seed_ring_width_px = 1.5;

Rgb region_color(std::uint32_t label) {
  double hue = static_cast<double>(label) * region_hue_step;
  hue = (hue - std::floor(hue)) * 6;  // sextant of the colour wheel
  const double c = region_value * region_saturation;
  const double x = c * (1 - std::abs(std::fmod(hue, 2.0) - 1));
  const double m = region_value - c;
  const int sextant = static_cast<int>(hue);
  const Rgb rgb = sextant == 0   ? Rgb{c, x, 0}
                  : sextant == 1 ? Rgb{x, c, 0}
                  : sextant == 2 ? Rgb{0, c, x}
                  : sextant == 3 ? Rgb{0, x, c}
                  : sextant == 4 ? Rgb{x, 0, c}
                                 : Rgb{c, 0, x};
  return {rgb.r + m, rgb.g + m, rgb.b + m};
}

}  // namespace

bool write_grid_png(const GridMap& map, std::span<const CellId> path, std::span<const CellId> expanded,
                    const std::string& file, const GridPictureStyle& style) {
  const double px = cell_px(map, style);
  const Canvas canvas = grid_canvas(map, px, blocked_color);
  if (!canvas.ok()) return false;
  cairo_t* cr = canvas.cr();
  fill_passable(cr, map, px, [&](CellId c) {
    const double shade = std::min(max_terrain_shade, (map.cost_multiplier(c) - 1.0) * terrain_shade_per_unit);
    const double k = 1.0 - std::max(0.0, shade);
    return Rgb{free_color.r * k, free_color.g * k, free_color.b * k};
  });
  for (const CellId c : expanded) fill_cell(cr, map.coord(c), px, expanded_color);

  std::vector<Vec2> points;
  points.reserve(path.size());
  for (const CellId c : path) {
    const CellCoord p = map.coord(c);
    points.push_back({(p.x + 0.5) * px, (p.y + 0.5) * px});
  }
  detail::path_with_ends(cr, std::span<const Vec2>(points), std::max(1.0, style.path_width_cells * px),
                         std::max(2.0, style.endpoint_radius_cells * px));
  return canvas.write(file);
}

bool write_region_png(const GridMap& map, std::span<const std::uint32_t> labels, std::span<const CellId> seeds,
                      const std::string& file, const GridPictureStyle& style) {
  if (labels.size() != map.cell_count()) return false;
  const double px = cell_px(map, style);
  const Canvas canvas = grid_canvas(map, px, region_wall_color);
  if (!canvas.ok()) return false;
  cairo_t* cr = canvas.cr();
  fill_passable(cr, map, px, [&](CellId c) {
    return labels[c.value] == no_label ? unlabelled_color : region_color(labels[c.value]);
  });
  const double radius = std::max(2.0, style.endpoint_radius_cells * px);
  for (const CellId s : seeds) {
    if (s.value >= map.cell_count()) continue;
    const CellCoord p = map.coord(s);
    cairo_new_sub_path(cr);
    cairo_arc(cr, (p.x + 0.5) * px, (p.y + 0.5) * px, radius, 0, 2 * std::numbers::pi);
    cairo_set_source_rgb(cr, seed_fill_color.r, seed_fill_color.g, seed_fill_color.b);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, seed_ring_color.r, seed_ring_color.g, seed_ring_color.b);
    cairo_set_line_width(cr, seed_ring_width_px);
    cairo_stroke(cr);
  }
  return canvas.write(file);
}

}  // namespace waymark::render
