#pragma once
// What the picture writers share (not installed, not public): a picture of either format with
// its cairo context, the legend strip, dots and polylines.

#include <cairo.h>

#include <cstdint>
#include <memory>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "waymark/render/picture.hpp"

namespace waymark::render::detail {

using render::Rgb;

inline void set_color(cairo_t* cr, Rgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

/// a at t = 0, b at t = 1.
[[nodiscard]] inline Rgb mix(Rgb a, Rgb b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/// How a legend entry shows its colour.
enum class Swatch : std::uint8_t { square, line, dot, outline };

struct LegendEntry {
  Rgb color;
  std::string label;
  Swatch swatch = Swatch::square;
};

/// A strip of colour keys below a picture: entries flow left to right in rows as wide as the
/// picture, the text size grows with the picture's width (readable when a large picture is
/// shown scaled down).
class Legend {
 public:
  Legend() = default;
  Legend(std::vector<LegendEntry> entries, int width_px);
  [[nodiscard]] int height_px() const { return height_px_; }
  /// Draws the strip with its top edge at `top` (pixels), across `width_px`.
  void draw(cairo_t* cr, double top, int width_px) const;

 private:
  struct Placed {
    double x;
    int row;
  };
  std::vector<LegendEntry> entries_;
  std::vector<Placed> placed_;
  double font_px_ = 0;
  int height_px_ = 0;
};

/// The smallest width of a picture with a legend, pixels (narrower maps get a wider canvas,
/// the map at its left): room for a few keys per row.
inline constexpr int legend_min_width_px = 360;

/// Segments stroked at once when a picture draws many lines (visibility edges, navmesh
/// polygons): cairo's stroker slows down far faster than linearly in the segments of one path,
/// so long paths go in batches of this many (measured in docs/viewer.md, "Pictures").
inline constexpr std::size_t segments_per_stroke = 8;

/// Whether a writer given `format` and `file` writes an SVG.
[[nodiscard]] inline bool is_svg(PictureFormat format, const std::string& file) {
  return (format == PictureFormat::by_name ? picture_format_of(file) : format) == PictureFormat::svg;
}

/// A picture of width × height pixels painted `background`, written as PNG or SVG (the same
/// drawing calls for both). An SVG picture's file is opened at construction and completed by
/// write(); a PNG is rendered in memory and saved by write().
class Canvas {
 public:
  Canvas(const std::string& file, PictureFormat format, int width_px, int height_px, Rgb background);
  [[nodiscard]] bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS && context_ &&
                                         cairo_status(context_.get()) == CAIRO_STATUS_SUCCESS; }
  [[nodiscard]] cairo_t* cr() const { return context_.get(); }
  /// Saves (PNG) or completes (SVG) the file; false when cairo could not.
  bool write();

 private:
  std::string file_;
  PictureFormat format_;
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

/// A round-jointed polyline through `points` (each with .x and .y in pixels).
template <class Point>
void polyline(cairo_t* cr, std::span<const Point> points, double width, Rgb color) {
  if (points.empty()) return;
  set_color(cr, color);
  cairo_set_line_width(cr, width);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_new_path(cr);
  for (const Point& p : points) cairo_line_to(cr, p.x, p.y);
  cairo_stroke(cr);
}

/// polyline(), then a green dot at its start and a red one at its end.
template <class Point>
void path_with_ends(cairo_t* cr, std::span<const Point> points, double width, double end_radius, Rgb color = palette::path) {
  if (points.empty()) return;
  polyline(cr, points, width, color);
  dot(cr, points.front().x, points.front().y, end_radius, palette::start);
  dot(cr, points.back().x, points.back().y, end_radius, palette::goal);
}

}  // namespace waymark::render::detail
