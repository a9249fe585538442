#include "waymark/render/navmesh_png.hpp"

#include <cairo.h>

#include <algorithm>
#include <array>
#include <numeric>

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


}  // namespace

bool write_navmesh_picture(const NavMesh& nav, std::span<const std::vector<Vec3>> paths, const std::string& file,
                           const NavMeshPictureStyle& style, PictureFormat format) {
  if (!(style.margin_px >= 0) || style.target_size_px <= 2 * style.margin_px || !(style.path_width_px > 0) ||
      !(style.endpoint_radius_px > 0) || nav.poly_count() == 0) {
    return false;
  }
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
