#pragma once
/// @file What every picture writer shares: the file format (PNG or SVG, one drawing code for
/// both) and the palette its pictures and legends use.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace waymark::render {

/// The kind of file a picture writer writes.
enum class PictureFormat : std::uint8_t {
  by_name,  ///< SVG when the file name ends in ".svg" (any case), PNG otherwise
  png,      ///< a raster image (cairo's image surface)
  svg,      ///< a vector image (cairo's SVG surface): the same drawing, as <path> elements
};

/// The format `file` asks for: svg for a name ending in ".svg" (any case), png otherwise.
[[nodiscard]] PictureFormat picture_format_of(std::string_view file);

/// Most shapes (filled polygons, stroked lines, dots) a writer puts in an SVG: cairo's SVG
/// surface keeps every drawing call in memory until the file is written, about 1 KB a navmesh
/// polygon's shape (a 250,632-triangle mesh: 1.27 GB and a 197 MB file; a million: 4.9 GB).
/// The writers refuse an SVG of more (each header's picture_shapes() counts them); a PNG has
/// no such limit (the same mesh: 84 MB).
inline constexpr std::size_t max_svg_shapes = 250'000;

/// A colour, each component from 0 to 1.
struct Rgb {
  double r, g, b;
};

/// The colours of the pictures (and their legends). A PNG stores each component in 8 bits:
/// compare read-back pixels with a tolerance of 1/255.
namespace palette {
inline constexpr Rgb wall{0.15, 0.15, 0.18};            ///< blocked grid cells
inline constexpr Rgb passable{0.96, 0.96, 0.93};        ///< passable cells of multiplier 1
inline constexpr Rgb cheap{0.78, 0.93, 0.74};           ///< passable cells cheaper than 1 (zones), fully
inline constexpr Rgb expanded_early{0.78, 0.90, 0.99};  ///< the first cell a search expanded
inline constexpr Rgb expanded_late{0.33, 0.42, 0.86};   ///< the last one (shades in between by order)
inline constexpr Rgb open_set{0.80, 0.15, 0.65};        ///< outline of the cells left in the open set
inline constexpr Rgb path{0.90, 0.35, 0.05};            ///< the path (the smoothed one when both are drawn)
inline constexpr Rgb raw_path{0.55, 0.55, 0.55};        ///< the search's path under a smoothed one
inline constexpr Rgb start{0.10, 0.70, 0.20};           ///< start marker
inline constexpr Rgb goal{0.85, 0.10, 0.10};            ///< goal marker
inline constexpr Rgb tile_border{0.92, 0.92, 0.95};     ///< a navmesh tile's dashed border
inline constexpr Rgb link{0.0, 0.62, 0.62};              ///< an off-mesh link's arc and arrowheads
inline constexpr Rgb obstacle{0.55, 0.33, 0.18};         ///< an obstacle on a navmesh, filled
inline constexpr Rgb legend_background{1, 1, 1};
inline constexpr Rgb legend_text{0.10, 0.10, 0.12};
}  // namespace palette

}  // namespace waymark::render
