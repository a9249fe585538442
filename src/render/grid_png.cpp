#include "waymark/render/grid_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <memory>
#include <numbers>

namespace waymark::render {

using grid::CellCoord;
using grid::GridMap;
namespace {

struct Rgb {
  double r, g, b;
};
constexpr Rgb blocked_color{0.15, 0.15, 0.18};
constexpr Rgb free_color{0.96, 0.96, 0.93};
constexpr Rgb expanded_color{0.62, 0.78, 0.95};
constexpr Rgb path_color{0.90, 0.35, 0.05};
constexpr Rgb start_color{0.10, 0.70, 0.20};
constexpr Rgb goal_color{0.85, 0.10, 0.10};
/// How much darker a cell gets per unit of cost multiplier above 1 (terrain shading).
constexpr double terrain_shade_per_unit = 0.08;
constexpr double max_terrain_shade = 0.5;

void fill_cell(cairo_t* cr, CellCoord c, double px, Rgb color) {
  cairo_set_source_rgb(cr, color.r, color.g, color.b);
  cairo_rectangle(cr, c.x * px, c.y * px, px, px);
  cairo_fill(cr);
}

}  // namespace

bool write_grid_png(const GridMap& map, std::span<const CellId> path, std::span<const CellId> expanded,
                    const std::string& file, const GridPictureStyle& style) {
  const int longest = std::max(map.width(), map.height());
  const double px = std::max(1, style.target_size_px / longest);
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(map.width() * px),
                                 static_cast<int>(map.height() * px)),
      &cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) return false;
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context(cairo_create(surface.get()), &cairo_destroy);
  cairo_t* cr = context.get();

  cairo_set_source_rgb(cr, blocked_color.r, blocked_color.g, blocked_color.b);
  cairo_paint(cr);
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const CellId c = map.cell(x, y);
      if (!map.passable(c)) continue;
      const double shade =
          std::min(max_terrain_shade, (map.cost_multiplier(c) - 1.0) * terrain_shade_per_unit);
      const double k = 1.0 - std::max(0.0, shade);
      fill_cell(cr, {x, y}, px, {free_color.r * k, free_color.g * k, free_color.b * k});
    }
  }
  for (const CellId c : expanded) fill_cell(cr, map.coord(c), px, expanded_color);

  if (!path.empty()) {
    cairo_set_source_rgb(cr, path_color.r, path_color.g, path_color.b);
    cairo_set_line_width(cr, std::max(1.0, style.path_width_cells * px));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (const CellId c : path) {
      const CellCoord p = map.coord(c);
      cairo_line_to(cr, (p.x + 0.5) * px, (p.y + 0.5) * px);
    }
    cairo_stroke(cr);
    const double radius = std::max(2.0, style.endpoint_radius_cells * px);
    for (const auto& [cell, color] : {std::pair{path.front(), start_color}, std::pair{path.back(), goal_color}}) {
      const CellCoord p = map.coord(cell);
      cairo_set_source_rgb(cr, color.r, color.g, color.b);
      cairo_arc(cr, (p.x + 0.5) * px, (p.y + 0.5) * px, radius, 0, 2 * std::numbers::pi);
      cairo_fill(cr);
    }
  }
  cairo_surface_flush(surface.get());
  return cairo_surface_write_to_png(surface.get(), file.c_str()) == CAIRO_STATUS_SUCCESS;
}

}  // namespace waymark::render
