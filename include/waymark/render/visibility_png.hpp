#pragma once
/// @file Draws polygon obstacles, their visibility graph and a path among them, to a PNG or an
/// SVG (cairo), with a legend. (The file's name is older than SVG: write_visibility_picture
/// writes either format.)

#include <span>
#include <string>

#include "waymark/core/geometry.hpp"
#include "waymark/render/picture.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::render {

struct PlanePictureStyle {
  /// Size of the longer side of the drawn area, pixels. [Limit: > 2 × margin_px]
  int target_size_px = 1024;
  double margin_px = 12;          ///< empty border around the world, pixels. [Limit: >= 0]
  double path_width_px = 3;       ///< path line width, pixels. [Limit: > 0]
  double endpoint_radius_px = 6;  ///< start/goal dot radius, pixels. [Limit: > 0]
  bool edges = true;              ///< draw the visibility edges (thin lines between points)
  /// A strip of colour keys below the world (the picture is then at least 360 px wide).
  bool legend = true;
};

/// The shapes write_visibility_picture draws for `graph` (its edges, points and polygons):
/// more than max_svg_shapes and it writes no SVG.
[[nodiscard]] std::size_t picture_shapes(const visibility::VisibilityGraph& graph);

/// Writes `file` (PNG or SVG by `format`; by_name: by its extension): the world of `graph` seen
/// with y down (the bounds, or the box around everything, framed), the input polygons dark,
/// their inflation by the agent radius lighter around them, the visibility edges as thin lines
/// between the points of visibility, and `path` (world points) in orange with a green start and
/// a red goal; then the legend. Returns false when the style breaks its limits, an SVG would hold
/// more than max_svg_shapes shapes, or cairo cannot create or write the file.
bool write_visibility_picture(const visibility::VisibilityGraph& graph, std::span<const Vec2> path,
                              const std::string& file, const PlanePictureStyle& style = {},
                              PictureFormat format = PictureFormat::by_name);

}  // namespace waymark::render
