// What every picture writer shares: the format by file name, the legend, and the canvas that
// draws on cairo's image surface (written as a PNG) or its SVG surface (written as SVG 1.1).
#include "waymark/render/picture.hpp"

#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "canvas.hpp"

namespace waymark::render {

PictureFormat picture_format_of(std::string_view file) {
  constexpr std::string_view svg_suffix = ".svg";
  if (file.size() < svg_suffix.size()) return PictureFormat::png;
  const std::string_view tail = file.substr(file.size() - svg_suffix.size());
  const bool svg = std::equal(tail.begin(), tail.end(), svg_suffix.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
  return svg ? PictureFormat::svg : PictureFormat::png;
}

namespace detail {
namespace {

// Legend layout, in units of its text size (pixels for the size itself).
constexpr double legend_font_min_px = 12;
constexpr double legend_font_max_px = 32;
constexpr double legend_widths_per_font_px = 70;  ///< picture width / text size
constexpr double legend_padding = 0.6;            ///< around the strip
constexpr double legend_row_height = 1.7;
constexpr double legend_swatch = 1.0;             ///< square side
constexpr double legend_swatch_gap = 0.4;         ///< between a swatch and its text
constexpr double legend_entry_gap = 1.2;          ///< after an entry's text
constexpr const char* legend_font = "sans-serif";

void set_legend_font(cairo_t* cr, double font_px) {
  cairo_select_font_face(cr, legend_font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, font_px);
}

}  // namespace

Legend::Legend(std::vector<LegendEntry> entries, int width_px) : entries_(std::move(entries)) {
  if (entries_.empty()) return;
  font_px_ = std::clamp(width_px / legend_widths_per_font_px, legend_font_min_px, legend_font_max_px);
  // Text is measured on a scratch image: the picture does not exist before its size is known.
  const std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> scratch(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1), &cairo_surface_destroy);
  const std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(scratch.get()), &cairo_destroy);
  set_legend_font(cr.get(), font_px_);
  const double pad = legend_padding * font_px_;
  double x = pad;
  int row = 0;
  for (const LegendEntry& e : entries_) {
    cairo_text_extents_t ext;
    cairo_text_extents(cr.get(), e.label.c_str(), &ext);
    const double w = (legend_swatch + legend_swatch_gap) * font_px_ + ext.x_advance;
    if (x > pad && x + w > width_px - pad) {
      x = pad;
      ++row;
    }
    placed_.push_back({x, row});
    x += w + legend_entry_gap * font_px_;
  }
  height_px_ = static_cast<int>(std::ceil(2 * pad + (row + 1) * legend_row_height * font_px_));
}

void Legend::draw(cairo_t* cr, double top, int width_px) const {
  if (entries_.empty()) return;
  set_color(cr, palette::legend_background);
  cairo_rectangle(cr, 0, top, width_px, height_px_);
  cairo_fill(cr);
  set_legend_font(cr, font_px_);
  const double pad = legend_padding * font_px_, side = legend_swatch * font_px_;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const LegendEntry& e = entries_[i];
    const double x = placed_[i].x;
    const double mid = top + pad + (placed_[i].row + 0.5) * legend_row_height * font_px_;
    set_color(cr, e.color);
    cairo_new_path(cr);
    switch (e.swatch) {
      case Swatch::square:
        cairo_rectangle(cr, x, mid - side / 2, side, side);
        cairo_fill_preserve(cr);
        set_color(cr, palette::legend_text);  // a thin frame: light keys stay visible on white
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        break;
      case Swatch::outline:
        cairo_set_line_width(cr, std::max(1.5, side / 6));
        cairo_rectangle(cr, x + side / 8, mid - side * 3 / 8, side * 3 / 4, side * 3 / 4);
        cairo_stroke(cr);
        break;
      case Swatch::line:
        cairo_set_line_width(cr, std::max(2.0, side / 4));
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_move_to(cr, x, mid);
        cairo_line_to(cr, x + side, mid);
        cairo_stroke(cr);
        break;
      case Swatch::dot:
        dot(cr, x + side / 2, mid, side / 2, e.color);
        break;
    }
    set_color(cr, palette::legend_text);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, e.label.c_str(), &ext);
    cairo_move_to(cr, x + (legend_swatch + legend_swatch_gap) * font_px_, mid - ext.y_bearing - ext.height / 2);
    cairo_show_text(cr, e.label.c_str());
  }
}

Canvas::Canvas(const std::string& file, PictureFormat format, int width_px, int height_px, Rgb background)
    : file_(file),
      format_(format == PictureFormat::by_name ? picture_format_of(file) : format),
      surface_(format_ == PictureFormat::svg
                   ? cairo_svg_surface_create(file.c_str(), std::max(1, width_px), std::max(1, height_px))
                   : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width_px, height_px),
               &cairo_surface_destroy),
      context_(nullptr, &cairo_destroy) {
  if (cairo_surface_status(surface_.get()) != CAIRO_STATUS_SUCCESS) return;
  if (format_ == PictureFormat::svg) cairo_svg_surface_restrict_to_version(surface_.get(), CAIRO_SVG_VERSION_1_1);
  context_.reset(cairo_create(surface_.get()));
  set_color(cr(), background);
  cairo_paint(cr());
}

bool Canvas::write() {
  if (!ok()) return false;
  if (format_ == PictureFormat::svg) {
    context_.reset();
    cairo_surface_finish(surface_.get());  // writes the document's end and closes the file
    return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS;
  }
  cairo_surface_flush(surface_.get());
  return cairo_surface_write_to_png(surface_.get(), file_.c_str()) == CAIRO_STATUS_SUCCESS;
}

}  // namespace detail
}  // namespace waymark::render
