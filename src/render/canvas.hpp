#pragma once
// What the PNG writers share (not installed, not public): colours, an image with its cairo
// context, dots and polylines.

#include <cairo.h>

#include <memory>
#include <numbers>
#include <span>
#include <string>

namespace waymark::render::detail {

struct Rgb {
  double r, g, b;
};
inline constexpr Rgb path_color{0.90, 0.35, 0.05};
inline constexpr Rgb start_color{0.10, 0.70, 0.20};
inline constexpr Rgb goal_color{0.85, 0.10, 0.10};

inline void set_color(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

/// An RGB image of width × height pixels, painted `background`.
class Canvas {
 public:
  Canvas(int width_px, int height_px, Rgb background)
      : surface_(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width_px, height_px), &cairo_surface_destroy),
        context_(nullptr, &cairo_destroy) {
    if (!ok()) return;
    context_.reset(cairo_create(surface_.get()));
    set_color(cr(), background);
    cairo_paint(cr());
  }
  [[nodiscard]] bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS; }
  [[nodiscard]] cairo_t* cr() const { return context_.get(); }
  bool write(const std::string& file) const {
    cairo_surface_flush(surface_.get());
    return cairo_surface_write_to_png(surface_.get(), file.c_str()) == CAIRO_STATUS_SUCCESS;
  }

 private:
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context_;
};

/// A filled disc.
inline void dot(cairo_t* cr, double x, double y, double radius, Rgb color) {
  set_color(cr, color);
  cairo_new_sub_path(cr);
  cairo_arc(cr, x, y, radius, 0, 2 * std::numbers::pi);
  cairo_fill(cr);
}

/// A round-jointed polyline through `points` (each with .x and .y in pixels), then a green dot
/// at its start and a red one at its end.
template <class Point>
void path_with_ends(cairo_t* cr, std::span<const Point> points, double width, double end_radius, Rgb color = path_color) {
  if (points.empty()) return;
  set_color(cr, color);
  cairo_set_line_width(cr, width);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  for (const Point& p : points) cairo_line_to(cr, p.x, p.y);
  cairo_stroke(cr);
  dot(cr, points.front().x, points.front().y, end_radius, start_color);
  dot(cr, points.back().x, points.back().y, end_radius, goal_color);
}

}  // namespace waymark::render::detail
