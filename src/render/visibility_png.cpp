// Visibility pictures (obstacles, the graph, a path), PNG or SVG from one drawing code
// (detail::Canvas, canvas.hpp). The file's name is older than SVG.
#include "waymark/render/visibility_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "canvas.hpp"

namespace waymark::render {

using visibility::VisibilityGraph;
namespace {

using detail::LegendEntry;
using detail::Swatch;
constexpr Rgb background_color = palette::passable;
constexpr Rgb outside_color{0.82, 0.82, 0.80};  ///< beyond the bounds
constexpr Rgb obstacle_color = palette::wall;
constexpr Rgb inflated_color{0.62, 0.62, 0.66};  ///< obstacles grown by the agent radius
constexpr Rgb edge_color{0.45, 0.60, 0.85};
constexpr Rgb point_color{0.20, 0.35, 0.70};
constexpr double edge_width_px = 0.6;
constexpr double point_radius_px = 2;

void polygon(cairo_t* cr, std::span<const Vec2> corners, const auto& pixel) {
  cairo_new_sub_path(cr);
  for (const Vec2 c : corners) {
    const Vec2 q = pixel(c);
    cairo_line_to(cr, q.x, q.y);
  }
  cairo_close_path(cr);
}

}  // namespace

std::size_t picture_shapes(const VisibilityGraph& graph) {
  return graph.edge_count() + graph.point_count() + graph.part_count() + graph.obstacle_count();
}

bool write_visibility_picture(const VisibilityGraph& graph, std::span<const Vec2> path, const std::string& file,
                              const PlanePictureStyle& style, PictureFormat format) {
  if (!(style.margin_px >= 0) || style.target_size_px <= 2 * style.margin_px || !(style.path_width_px > 0) ||
      !(style.endpoint_radius_px > 0)) {
    return false;
  }
  if (detail::is_svg(format, file) && picture_shapes(graph) > max_svg_shapes) return false;
  // The box drawn: the bounds, or everything there is.
  Aabb2 box{{std::numeric_limits<double>::max(), std::numeric_limits<double>::max()},
            {std::numeric_limits<double>::lowest(), std::numeric_limits<double>::lowest()}};
  const auto grow = [&](Vec2 p) {
    box.min = {std::min(box.min.x, p.x), std::min(box.min.y, p.y)};
    box.max = {std::max(box.max.x, p.x), std::max(box.max.y, p.y)};
  };
  if (graph.bounds()) {
    grow(graph.bounds()->min);
    grow(graph.bounds()->max);
  }
  for (std::uint32_t i = 0; i < graph.part_count(); ++i)
    for (const Vec2 p : graph.part(i)) grow(p);
  for (const Vec2 p : graph.points()) grow(p);
  for (const Vec2 p : path) grow(p);
  if (box.min.x > box.max.x) box = {{0, 0}, {1, 1}};  // nothing at all
  const double span_x = box.max.x - box.min.x, span_y = box.max.y - box.min.y;
  const double scale = (style.target_size_px - 2 * style.margin_px) / std::max({span_x, span_y, 1e-9});
  const auto pixel = [&](Vec2 p) {
    return Vec2{style.margin_px + (p.x - box.min.x) * scale, style.margin_px + (p.y - box.min.y) * scale};
  };
  const int world_w = static_cast<int>(span_x * scale + 2 * style.margin_px) + 1;
  const int world_h = static_cast<int>(span_y * scale + 2 * style.margin_px) + 1;
  const bool inflated = graph.params().radius > 0;
  std::vector<LegendEntry> keys;
  if (style.legend) {
    keys.push_back({obstacle_color, "obstacle"});
    if (inflated) keys.push_back({inflated_color, "agent radius"});
    if (style.edges) keys.push_back({edge_color, "visibility edge", Swatch::line});
    keys.push_back({point_color, "point", Swatch::dot});
    if (!path.empty()) {
      keys.push_back({palette::path, "path", Swatch::line});
      keys.push_back({palette::start, "start", Swatch::dot});
      keys.push_back({palette::goal, "goal", Swatch::dot});
    }
  }
  const int width = keys.empty() ? world_w : std::max(world_w, detail::legend_min_width_px);
  const detail::Legend legend(std::move(keys), width);
  detail::Canvas canvas(file, format, width, world_h + legend.height_px(),
                        graph.bounds() ? outside_color : background_color);
  if (!canvas.ok()) return false;
  cairo_t* cr = canvas.cr();
  if (graph.bounds()) {
    const Vec2 a = pixel(graph.bounds()->min), b = pixel(graph.bounds()->max);
    detail::set_color(cr, background_color);
    cairo_rectangle(cr, a.x, a.y, b.x - a.x, b.y - a.y);
    cairo_fill(cr);
  }
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  if (inflated) {
    cairo_new_path(cr);
    for (std::uint32_t i = 0; i < graph.part_count(); ++i) polygon(cr, graph.part(i), pixel);
    detail::set_color(cr, inflated_color);
    cairo_fill(cr);
  }
  cairo_new_path(cr);
  for (std::uint32_t i = 0; i < graph.obstacle_count(); ++i) polygon(cr, graph.obstacle(i), pixel);
  detail::set_color(cr, obstacle_color);
  cairo_fill(cr);
  if (style.edges) {
    // Stroked a batch at a time: cairo's stroker slows down far faster than linearly with the
    // segments of one path (a million edges in one stroke took over ten minutes).
    detail::set_color(cr, edge_color);
    cairo_set_line_width(cr, edge_width_px);
    cairo_new_path(cr);
    std::size_t in_path = 0;
    for (std::uint32_t i = 0; i < graph.point_count(); ++i) {
      for (const visibility::VisibilityArc& arc : graph.arcs(i)) {
        if (arc.to < i) continue;  // each edge once
        const Vec2 a = pixel(graph.point(i)), b = pixel(graph.point(arc.to));
        cairo_move_to(cr, a.x, a.y);
        cairo_line_to(cr, b.x, b.y);
        if (++in_path == detail::segments_per_stroke) {
          cairo_stroke(cr);
          in_path = 0;
        }
      }
    }
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
  for (const Vec2 p : graph.points()) {
    const Vec2 q = pixel(p);
    cairo_new_sub_path(cr);
    cairo_arc(cr, q.x, q.y, point_radius_px, 0, 2 * std::numbers::pi);
  }
  detail::set_color(cr, point_color);
  cairo_fill(cr);
  std::vector<Vec2> points;
  for (const Vec2 p : path) points.push_back(pixel(p));
  detail::path_with_ends(cr, std::span<const Vec2>(points), style.path_width_px, style.endpoint_radius_px);
  legend.draw(cr, world_h, width);
  return canvas.write();
}

}  // namespace waymark::render
