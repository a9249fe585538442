// Navmesh pictures from above, PNG or SVG from one drawing code (detail::Canvas, canvas.hpp).
// The file's name is older than SVG.
#include "waymark/render/navmesh_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <variant>

#include "canvas.hpp"

namespace waymark::render {

using detail::Rgb;
using navmesh::NavMesh;
namespace {

constexpr Rgb mesh_background_color{0.12, 0.12, 0.14};
constexpr Rgb low_color{0.55, 0.72, 0.92};
constexpr Rgb high_color{0.96, 0.86, 0.62};
constexpr Rgb portal_color{0.55, 0.55, 0.55};
constexpr Rgb wall_color{0.10, 0.10, 0.12};
constexpr double portal_width_px = 0.5;
constexpr double wall_width_px = 1.5;
constexpr std::array<Rgb, 3> path_colors{palette::path, Rgb{0.15, 0.40, 0.85}, Rgb{0.55, 0.20, 0.65}};
constexpr std::array<const char*, 3> path_names{"path", "2nd path", "3rd path"};
constexpr double tile_width_px = 1;
constexpr std::array<double, 2> tile_dash_px{5, 4};
constexpr double link_width_px = 2;
constexpr double link_bend = 0.3;        ///< the arc's bulge, times the link's length in plan
constexpr double arrow_length_px = 9;
constexpr double arrow_half_angle = 0.45;  ///< radians

/// An arrowhead whose tip is `tip`, pointing along `direction` (pixels).
void arrowhead(cairo_t* cr, Vec2 tip, Vec2 direction) {
  const double len = std::hypot(direction.x, direction.y);
  if (!(len > 0)) return;
  const double ux = direction.x / len, uy = direction.y / len;
  const double c = std::cos(arrow_half_angle), s = std::sin(arrow_half_angle);
  cairo_move_to(cr, tip.x, tip.y);
  cairo_line_to(cr, tip.x - arrow_length_px * (ux * c - uy * s), tip.y - arrow_length_px * (uy * c + ux * s));
  cairo_line_to(cr, tip.x - arrow_length_px * (ux * c + uy * s), tip.y - arrow_length_px * (uy * c - ux * s));
  cairo_close_path(cr);
  cairo_fill(cr);
}

/// A link from a to b (pixels): a quadratic arc bulging to its left, arrowheads, end dots.
void draw_link(cairo_t* cr, Vec2 a, Vec2 b, bool two_way) {
  detail::set_color(cr, palette::link);
  const Vec2 d{b.x - a.x, b.y - a.y};
  const Vec2 bend{(a.x + b.x) / 2 - d.y * link_bend, (a.y + b.y) / 2 + d.x * link_bend};  // the control point
  cairo_set_line_width(cr, link_width_px);
  cairo_move_to(cr, a.x, a.y);
  // The quadratic's control point as a cubic's two.
  cairo_curve_to(cr, a.x + 2.0 / 3 * (bend.x - a.x), a.y + 2.0 / 3 * (bend.y - a.y), b.x + 2.0 / 3 * (bend.x - b.x),
                 b.y + 2.0 / 3 * (bend.y - b.y), b.x, b.y);
  cairo_stroke(cr);
  arrowhead(cr, b, {b.x - bend.x, b.y - bend.y});
  if (two_way) arrowhead(cr, a, {a.x - bend.x, a.y - bend.y});
  for (const Vec2 end : {a, b}) {
    cairo_arc(cr, end.x, end.y, link_width_px * 1.5, 0, 2 * std::numbers::pi);
    cairo_fill(cr);
  }
}


}  // namespace

std::size_t picture_shapes(const NavMesh& nav) {
  std::size_t shapes = 0;
  for (std::uint32_t i = 0; i < nav.poly_count(); ++i) shapes += 1 + nav.corners(PolyId{i}).size();
  return shapes + nav.data().links.size();
}

bool write_navmesh_picture(const NavMesh& nav, std::span<const std::vector<Vec3>> paths, const std::string& file,
                           const NavMeshPictureStyle& style, PictureFormat format) {
  return write_navmesh_picture(nav, paths, NavMeshOverlays{}, file, style, format);
}

bool write_navmesh_picture(const NavMesh& nav, std::span<const std::vector<Vec3>> paths, const NavMeshOverlays& overlays,
                           const std::string& file, const NavMeshPictureStyle& style, PictureFormat format) {
  if (!(style.margin_px >= 0) || style.target_size_px <= 2 * style.margin_px || !(style.path_width_px > 0) ||
      !(style.endpoint_radius_px > 0) || nav.poly_count() == 0) {
    return false;
  }
  if (detail::is_svg(format, file) && picture_shapes(nav) > max_svg_shapes) return false;
  const Aabb3& box = nav.bounds();
  const double span_x = box.max.x - box.min.x, span_z = box.max.z - box.min.z, span_y = box.max.y - box.min.y;
  const double scale = (style.target_size_px - 2 * style.margin_px) / std::max({span_x, span_z, 1e-9});
  const auto pixel = [&](Vec3 p) {
    return Vec2{style.margin_px + (p.x - box.min.x) * scale, style.margin_px + (p.z - box.min.z) * scale};
  };
  const int mesh_w = static_cast<int>(span_x * scale + 2 * style.margin_px) + 1;
  const int mesh_h = static_cast<int>(span_z * scale + 2 * style.margin_px) + 1;
  std::vector<detail::LegendEntry> keys;
  if (style.legend) {
    keys = {{low_color, "low floor"}, {high_color, "high floor"}, {wall_color, "wall", detail::Swatch::line},
            {portal_color, "portal", detail::Swatch::line}};
    const auto& links = nav.data().links;
    if (!overlays.tiles.empty()) keys.push_back({palette::tile_border, "tile border", detail::Swatch::line});
    if (overlays.links && std::any_of(links.begin(), links.end(), [](const auto& l) { return !l.bidirectional; }))
      keys.push_back({palette::link, "link (one-way)", detail::Swatch::line});
    if (overlays.links && std::any_of(links.begin(), links.end(), [](const auto& l) { return l.bidirectional; }))
      keys.push_back({palette::link, "link (two-way)", detail::Swatch::line});
    if (!overlays.obstacles.empty()) keys.push_back({palette::obstacle, "obstacle"});
    for (std::size_t i = 0; i < std::min(paths.size(), path_colors.size()); ++i)
      keys.push_back({path_colors[i], path_names[i], detail::Swatch::line});
    if (!paths.empty()) {
      keys.push_back({palette::start, "start", detail::Swatch::dot});
      keys.push_back({palette::goal, "goal", detail::Swatch::dot});
    }
  }
  const int width = keys.empty() ? mesh_w : std::max(mesh_w, detail::legend_min_width_px);
  const detail::Legend legend(std::move(keys), width);
  detail::Canvas canvas(file, format, width, mesh_h + legend.height_px(), mesh_background_color);
  if (!canvas.ok()) return false;
  cairo_t* cr = canvas.cr();

  // Lower polygons first, so an upper floor covers what lies under it.
  std::vector<std::uint32_t> order(nav.poly_count());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return nav.centroid(PolyId{a}).y < nav.centroid(PolyId{b}).y; });
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  for (const std::uint32_t i : order) {
    const PolyId p{i};
    const auto corners = nav.corners(p);
    for (const std::uint32_t v : corners) {
      const Vec2 q = pixel(nav.vertex(v));
      cairo_line_to(cr, q.x, q.y);
    }
    cairo_close_path(cr);
    const double height = span_y > 0 ? (nav.centroid(p).y - box.min.y) / span_y : 0;
    detail::set_color(cr, detail::mix(low_color, high_color, height));
    cairo_fill(cr);
    const auto neighbors = nav.neighbors(p);
    for (std::size_t k = 0; k < corners.size(); ++k) {
      const Vec2 a = pixel(nav.vertex(corners[k])), b = pixel(nav.vertex(corners[(k + 1) % corners.size()]));
      const bool wall = !neighbors[k].valid();
      detail::set_color(cr, wall ? wall_color : portal_color);
      cairo_set_line_width(cr, wall ? wall_width_px : portal_width_px);
      cairo_move_to(cr, a.x, a.y);
      cairo_line_to(cr, b.x, b.y);
      cairo_stroke(cr);
    }
  }
  // Tile borders, obstacles, links: over the mesh, under the paths.
  detail::set_color(cr, palette::tile_border);
  cairo_set_line_width(cr, tile_width_px);
  cairo_set_dash(cr, tile_dash_px.data(), static_cast<int>(tile_dash_px.size()), 0);
  for (const Aabb2& t : overlays.tiles) {
    const Vec2 lo = pixel({t.min.x, 0, t.min.y}), hi = pixel({t.max.x, 0, t.max.y});
    cairo_rectangle(cr, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  for (const navmesh::NavObstacle& o : overlays.obstacles) {
    if (const auto* c = std::get_if<navmesh::CylinderObstacle>(&o)) {
      const Vec2 q = pixel(c->foot);
      cairo_arc(cr, q.x, q.y, c->radius * scale, 0, 2 * std::numbers::pi);
    } else if (const auto* b = std::get_if<navmesh::BoxObstacle>(&o)) {
      const Vec2 lo = pixel(b->min), hi = pixel(b->max);
      cairo_rectangle(cr, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y);
    } else if (const auto* prism = std::get_if<navmesh::PrismObstacle>(&o)) {
      for (const Vec2 c2 : prism->corners) {
        const Vec2 q = pixel({c2.x, 0, c2.y});
        cairo_line_to(cr, q.x, q.y);
      }
      cairo_close_path(cr);
    }
    detail::set_color(cr, palette::obstacle);
    cairo_fill_preserve(cr);
    detail::set_color(cr, wall_color);
    cairo_set_line_width(cr, wall_width_px);
    cairo_stroke(cr);
  }
  if (overlays.links)
    for (const navmesh::OffMeshLink& link : nav.data().links) draw_link(cr, pixel(link.start), pixel(link.end), link.bidirectional);

  std::vector<Vec2> points;
  for (std::size_t i = paths.size(); i-- > 0;) {  // the first path on top
    points.clear();
    for (const Vec3 c : paths[i]) points.push_back(pixel(c));
    detail::path_with_ends(cr, std::span<const Vec2>(points), style.path_width_px, style.endpoint_radius_px,
                           path_colors[i % path_colors.size()]);
  }
  legend.draw(cr, mesh_h, width);
  return canvas.write();
}

bool write_navmesh_png(const NavMesh& nav, std::span<const std::vector<Vec3>> paths, const std::string& file,
                       const NavMeshPictureStyle& style) {
  return write_navmesh_picture(nav, paths, file, style, PictureFormat::png);
}

}  // namespace waymark::render
