// Grid and region pictures, PNG or SVG from one drawing code (detail::Canvas, canvas.hpp). The
// file's name is older than SVG.
#include "waymark/render/grid_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

#include "canvas.hpp"

namespace waymark::render {

using grid::CellCoord;
using grid::GridMap;
namespace {

using detail::Canvas;
using detail::LegendEntry;
using detail::Swatch;
/// How much darker a cell gets per unit of cost multiplier above 1 (terrain shading).
constexpr double terrain_shade_per_unit = 0.08;
constexpr double max_terrain_shade = 0.5;
/// Shades of expansion order: cells are grouped into this many steps from early to late (one
/// filled path per step keeps an SVG small).
constexpr std::uint32_t expansion_shades = 48;
constexpr double open_outline_cells = 0.2;  ///< open-set outline width, in cells (at least 1 px)
constexpr double raw_path_width_factor = 1.6;  ///< the grey raw path is this much wider than the smoothed one
constexpr double trail_width_cells = 0.15;  ///< agent trail width, in cells (at least 1 px)
constexpr double trail_end_cells = 0.35;    ///< radius of a trail's start ring and end dot, in cells (at least 2 px)
constexpr std::array<Rgb, 6> trail_colors{Rgb{0.85, 0.33, 0.10}, Rgb{0.12, 0.47, 0.71}, Rgb{0.58, 0.40, 0.74},
                                          Rgb{0.17, 0.63, 0.17}, Rgb{0.89, 0.47, 0.76}, Rgb{0.55, 0.34, 0.29}};
/// A cell key meaning "leave as is" for fill_cells.
constexpr std::uint32_t no_fill = 0xffffffffu;


/// Fills every cell by a colour key: `key_of(cell)` is a key (no_fill: skip), `color_of(key)`
/// its colour. The cells of one key are merged into runs along rows and filled as one path:
/// one SVG element per colour, no seams between cells.
template <class KeyOf, class ColorOf>
void fill_cells(cairo_t* cr, const GridMap& map, double px, KeyOf&& key_of, ColorOf&& color_of) {
  struct Run {
    int x, y, length;
  };
  std::map<std::uint32_t, std::vector<Run>> runs;  // ordered: the same file for the same input
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width();) {
      const std::uint32_t key = key_of(map.cell(x, y));
      int end = x + 1;
      while (end < map.width() && key_of(map.cell(end, y)) == key) ++end;
      if (key != no_fill) runs[key].push_back({x, y, end - x});
      x = end;
    }
  }
  for (const auto& [key, list] : runs) {
    cairo_new_path(cr);
    for (const Run& r : list) cairo_rectangle(cr, r.x * px, r.y * px, r.length * px, px);
    detail::set_color(cr, color_of(key));
    cairo_fill(cr);
  }
}

/// Pixels per cell: square cells, the longer side near the target size, at least 1.
double cell_px(const GridMap& map, const GridPictureStyle& style) {
  return std::max(1, style.target_size_px / std::max(map.width(), map.height()));
}

/// A picture of the map in cells of `px` pixels over a strip for `legend`; at least
/// legend_min_width_px wide when there is a legend.
struct GridCanvas {
  GridCanvas(const GridMap& map, double px, std::vector<LegendEntry> entries, const std::string& file,
             PictureFormat format, Rgb background)
      : map_w(static_cast<int>(map.width() * px)),
        map_h(static_cast<int>(map.height() * px)),
        width(entries.empty() ? map_w : std::max(map_w, detail::legend_min_width_px)),
        legend(std::move(entries), width),
        canvas(file, format, width, map_h + legend.height_px(), background) {}
  /// Draws the legend; an area right of a narrow map gets the legend's background.
  void finish() {
    if (legend.height_px() == 0) return;
    if (width > map_w) {
      detail::set_color(canvas.cr(), palette::legend_background);
      cairo_rectangle(canvas.cr(), map_w, 0, width - map_w, map_h);
      cairo_fill(canvas.cr());
    }
    legend.draw(canvas.cr(), map_h, width);
  }
  int map_w, map_h, width;
  detail::Legend legend;
  Canvas canvas;
};

/// Terrain shade key of a passable cell: 0 for multiplier 1, positive thousandths of darkening
/// for dearer cells, and cheaper cells above cheap_key_base.
constexpr std::uint32_t cheap_key_base = 1u << 20;
constexpr double key_scale = 1000;

std::uint32_t terrain_key(double multiplier) {
  if (multiplier >= 1) {
    const double shade = std::min(max_terrain_shade, (multiplier - 1.0) * terrain_shade_per_unit);
    return static_cast<std::uint32_t>(std::lround(shade * key_scale));
  }
  return cheap_key_base + static_cast<std::uint32_t>(std::lround(std::clamp(1 - multiplier, 0.0, 1.0) * key_scale));
}

Rgb terrain_color(std::uint32_t key) {
  if (key >= cheap_key_base) return detail::mix(palette::passable, palette::cheap, (key - cheap_key_base) / key_scale);
  const double k = 1.0 - key / key_scale;
  return {palette::passable.r * k, palette::passable.g * k, palette::passable.b * k};
}

std::vector<Vec2> cell_centres(const GridMap& map, std::span<const CellId> cells, double px) {
  std::vector<Vec2> points;
  points.reserve(cells.size());
  for (const CellId c : cells) {
    const CellCoord p = map.coord(c);
    points.push_back({(p.x + 0.5) * px, (p.y + 0.5) * px});
  }
  return points;
}

bool all_in(const GridMap& map, std::span<const CellId> cells) {
  return std::all_of(cells.begin(), cells.end(), [&](CellId c) { return c.value < map.cell_count(); });
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

bool write_grid_picture(const GridMap& map, const GridLayers& layers, const std::string& file,
                        const GridPictureStyle& style, PictureFormat format) {
  if (!all_in(map, layers.path) || !all_in(map, layers.smoothed) || !all_in(map, layers.expanded) ||
      !all_in(map, layers.open) || (layers.start.valid() && layers.start.value >= map.cell_count()) ||
      (layers.goal.valid() && layers.goal.value >= map.cell_count())) {
    return false;
  }
  const double px = cell_px(map, style);
  // The terrain keys once: they fill the map and say whether the legend shows terrain.
  std::vector<std::uint32_t> shade(map.cell_count(), no_fill);
  bool dearer = false, cheaper = false;
  for (std::uint32_t i = 0; i < map.cell_count(); ++i) {
    if (!map.passable(CellId{i})) continue;
    shade[i] = terrain_key(map.cost_multiplier(CellId{i}));
    dearer = dearer || (shade[i] > 0 && shade[i] < cheap_key_base);
    cheaper = cheaper || shade[i] > cheap_key_base;
  }
  // Expansion order, as a shade step per cell (the last expansion of a cell wins).
  std::vector<std::uint32_t> order;
  if (!layers.expanded.empty()) {
    order.assign(map.cell_count(), no_fill);
    const std::size_t n = layers.expanded.size();
    for (std::size_t i = 0; i < n; ++i) {  // the first expansion gets step 0, the last the last step
      order[layers.expanded[i].value] = n == 1 ? 0 : static_cast<std::uint32_t>(i * (expansion_shades - 1) / (n - 1));
    }
  }
  const bool smoothed = !layers.smoothed.empty();
  std::vector<LegendEntry> keys;
  if (style.legend) {
    keys.push_back({palette::wall, "wall"});
    keys.push_back({palette::passable, "free"});
    if (dearer) keys.push_back({terrain_color(terrain_key(5)), "terrain (dearer)"});
    if (cheaper) keys.push_back({palette::cheap, "cheaper (zone)"});
    if (!layers.expanded.empty()) {
      keys.push_back({palette::expanded_early, "expanded early"});
      keys.push_back({palette::expanded_late, "expanded late"});
    }
    if (!layers.open.empty()) keys.push_back({palette::open_set, "open set", Swatch::outline});
    if (!layers.path.empty()) keys.push_back({smoothed ? palette::raw_path : palette::path, "path", Swatch::line});
    if (smoothed) keys.push_back({palette::path, "smoothed path", Swatch::line});
    if (!layers.trails.empty()) {
      keys.push_back({trail_colors[0], "agent trail (ring: start)", Swatch::line});
      keys.push_back({trail_colors[0], "agent at the end", Swatch::dot});
    }
    const bool markers = !layers.path.empty() || smoothed || layers.start.valid() || layers.goal.valid();
    if (markers) {
      keys.push_back({palette::start, "start", Swatch::dot});
      keys.push_back({palette::goal, "goal", Swatch::dot});
    }
  }
  GridCanvas picture(map, px, std::move(keys), file, format, palette::wall);
  if (!picture.canvas.ok()) return false;
  cairo_t* cr = picture.canvas.cr();
  fill_cells(cr, map, px, [&](CellId c) { return shade[c.value]; }, terrain_color);
  if (!order.empty()) {
    fill_cells(cr, map, px, [&](CellId c) { return order[c.value]; }, [](std::uint32_t step) {
      return detail::mix(palette::expanded_early, palette::expanded_late,
                 expansion_shades > 1 ? static_cast<double>(step) / (expansion_shades - 1) : 0.0);
    });
  }
  if (!layers.open.empty()) {
    const double w = std::max(1.0, open_outline_cells * px);
    cairo_new_path(cr);
    for (const CellId c : layers.open) {
      const CellCoord p = map.coord(c);
      cairo_rectangle(cr, p.x * px + w / 2, p.y * px + w / 2, px - w, px - w);
    }
    detail::set_color(cr, palette::open_set);
    cairo_set_line_width(cr, w);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_stroke(cr);
  }

  const double width = std::max(1.0, style.path_width_cells * px);
  const std::vector<Vec2> raw = cell_centres(map, layers.path, px);
  const std::vector<Vec2> smooth = cell_centres(map, layers.smoothed, px);
  if (smoothed) {
    detail::polyline(cr, std::span<const Vec2>(raw), width * raw_path_width_factor, palette::raw_path);
    detail::polyline(cr, std::span<const Vec2>(smooth), width, palette::path);
  } else {
    detail::polyline(cr, std::span<const Vec2>(raw), width, palette::path);
  }
  if (!layers.trails.empty()) {
    const grid::GridMapParams& where = map.params();
    const auto pixel = [&](Vec2 w) {
      return Vec2{(w.x - where.origin.x) / where.cell_size * px, (w.y - where.origin.y) / where.cell_size * px};
    };
    const double trail_width = std::max(1.0, trail_width_cells * px);
    const double end_radius = std::max(2.0, trail_end_cells * px);
    std::vector<Vec2> points;
    for (std::size_t i = 0; i < layers.trails.size(); ++i) {
      if (layers.trails[i].empty()) continue;
      const Rgb color = trail_colors[i % trail_colors.size()];
      points.clear();
      for (const Vec2 w : layers.trails[i]) points.push_back(pixel(w));
      detail::polyline(cr, std::span<const Vec2>(points), trail_width, color);
      cairo_new_path(cr);
      cairo_arc(cr, points.front().x, points.front().y, end_radius, 0, 2 * std::numbers::pi);
      cairo_set_line_width(cr, trail_width);
      cairo_stroke(cr);
      detail::dot(cr, points.back().x, points.back().y, end_radius, color);
    }
  }
  const std::span<const CellId> ends = smoothed ? layers.smoothed : layers.path;
  const CellId start = layers.start.valid() ? layers.start : ends.empty() ? CellId{} : ends.front();
  const CellId goal = layers.goal.valid() ? layers.goal : ends.empty() ? CellId{} : ends.back();
  const double radius = std::max(2.0, style.endpoint_radius_cells * px);
  for (const auto& [cell, color] : {std::pair{start, palette::start}, std::pair{goal, palette::goal}}) {
    if (!cell.valid()) continue;
    const CellCoord p = map.coord(cell);
    detail::dot(cr, (p.x + 0.5) * px, (p.y + 0.5) * px, radius, color);
  }
  picture.finish();
  return picture.canvas.write();
}

bool write_grid_png(const GridMap& map, std::span<const CellId> path, std::span<const CellId> expanded,
                    const std::string& file, const GridPictureStyle& style) {
  return write_grid_picture(map, {.path = path, .expanded = expanded}, file, style, PictureFormat::png);
}

bool write_region_picture(const GridMap& map, std::span<const std::uint32_t> labels, std::span<const CellId> seeds,
                          const std::string& file, const GridPictureStyle& style, PictureFormat format) {
  if (labels.size() != map.cell_count()) return false;
  const double px = cell_px(map, style);
  std::vector<LegendEntry> keys;
  if (style.legend) {
    keys = {{region_wall_color, "wall"},
            {region_color(0), "region 0"},
            {region_color(1), "region 1"},
            {region_color(2), "region 2 ..."},
            {unlabelled_color, "in no region"},
            {seed_fill_color, "seed", Swatch::dot}};
  }
  GridCanvas picture(map, px, std::move(keys), file, format, region_wall_color);
  if (!picture.canvas.ok()) return false;
  cairo_t* cr = picture.canvas.cr();
  // Region keys are labels; the unlabelled cells get the largest key.
  constexpr std::uint32_t unlabelled_key = no_label - 1;
  const auto key_of = [&](CellId c) {
    if (!map.passable(c)) return no_fill;
    return labels[c.value] == no_label ? unlabelled_key : labels[c.value];
  };
  fill_cells(cr, map, px, key_of,
             [](std::uint32_t key) { return key == unlabelled_key ? unlabelled_color : region_color(key); });
  const double radius = std::max(2.0, style.endpoint_radius_cells * px);
  for (const CellId s : seeds) {
    if (s.value >= map.cell_count()) continue;
    const CellCoord p = map.coord(s);
    cairo_new_path(cr);
    cairo_arc(cr, (p.x + 0.5) * px, (p.y + 0.5) * px, radius, 0, 2 * std::numbers::pi);
    detail::set_color(cr, seed_fill_color);
    cairo_fill_preserve(cr);
    detail::set_color(cr, seed_ring_color);
    cairo_set_line_width(cr, seed_ring_width_px);
    cairo_stroke(cr);
  }
  picture.finish();
  return picture.canvas.write();
}

bool write_region_png(const GridMap& map, std::span<const std::uint32_t> labels, std::span<const CellId> seeds,
                      const std::string& file, const GridPictureStyle& style) {
  return write_region_picture(map, labels, seeds, file, style, PictureFormat::png);
}

}  // namespace waymark::render
