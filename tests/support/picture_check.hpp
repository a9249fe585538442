#pragma once
// Golden-image-free checks of written pictures: a PNG read back with cairo and its pixels
// compared with palette colours, and the text of an SVG.

#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "waymark/render/picture.hpp"

namespace waymark::test {

/// A PNG read back (cairo_image_surface_create_from_png); ok() is false when it could not be.
class PngPixels {
 public:
  explicit PngPixels(const std::string& file)
      : surface_(cairo_image_surface_create_from_png(file.c_str()), &cairo_surface_destroy) {
    if (ok()) cairo_surface_flush(surface_.get());
  }
  [[nodiscard]] bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS; }
  [[nodiscard]] int width() const { return cairo_image_surface_get_width(surface_.get()); }
  [[nodiscard]] int height() const { return cairo_image_surface_get_height(surface_.get()); }
  /// The pixel at (x, y) as 0xRRGGBB (opaque images; cairo stores native-endian ARGB words).
  [[nodiscard]] std::uint32_t at(int x, int y) const {
    const unsigned char* row = cairo_image_surface_get_data(surface_.get()) +
                               static_cast<std::ptrdiff_t>(y) * cairo_image_surface_get_stride(surface_.get());
    std::uint32_t word;
    std::memcpy(&word, row + static_cast<std::ptrdiff_t>(x) * 4, sizeof word);
    return word & 0xffffffu;
  }

 private:
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
};

/// A palette colour as 0xRRGGBB, rounded as cairo stores it.
inline std::uint32_t rgb_of(render::Rgb c) {
  const auto byte = [](double v) { return static_cast<std::uint32_t>(std::lround(v * 255)); };
  return byte(c.r) << 16 | byte(c.g) << 8 | byte(c.b);
}

/// Whether two 0xRRGGBB colours differ by at most `tolerance` in each component.
inline bool near_color(std::uint32_t a, std::uint32_t b, int tolerance = 2) {
  for (int shift : {0, 8, 16}) {
    const int d = static_cast<int>((a >> shift) & 0xffu) - static_cast<int>((b >> shift) & 0xffu);
    if (std::abs(d) > tolerance) return false;
  }
  return true;
}

inline std::string hex(std::uint32_t c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%06x", c);
  return buf;
}

/// The pixel at (x, y) is `expected` (within 2/255 per component).
inline ::testing::AssertionResult pixel_is(const PngPixels& png, int x, int y, render::Rgb expected) {
  if (x < 0 || y < 0 || x >= png.width() || y >= png.height())
    return ::testing::AssertionFailure() << "(" << x << "," << y << ") is outside the picture";
  const std::uint32_t got = png.at(x, y), want = rgb_of(expected);
  if (near_color(got, want)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "pixel (" << x << "," << y << ") is #" << hex(got) << ", expected #"
                                       << hex(want);
}

/// The whole text of a file.
inline std::string file_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// `file` is a complete SVG document (its first element, after an XML declaration, is <svg)
/// with <path> or <rect> elements.
inline ::testing::AssertionResult is_svg_with_shapes(const std::string& file) {
  const std::string text = file_text(file);
  std::size_t first = text.find('<');
  if (first != std::string::npos && text.compare(first, 5, "<?xml") == 0) {
    first = text.find('<', text.find("?>", first));
  }
  if (first == std::string::npos || text.compare(first, 4, "<svg") != 0)
    return ::testing::AssertionFailure() << file << " does not start with an <svg element";
  if (text.find("<path") == std::string::npos && text.find("<rect") == std::string::npos)
    return ::testing::AssertionFailure() << file << " has no <path> or <rect> element";
  if (text.find("</svg>") == std::string::npos) return ::testing::AssertionFailure() << file << " is not complete";
  return ::testing::AssertionSuccess();
}

}  // namespace waymark::test
