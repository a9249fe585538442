#pragma once
/// @file Draws a navmesh from above and paths across it, to a PNG or an SVG (cairo), with a legend.

#include <span>
#include <string>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/render/picture.hpp"

namespace waymark::render {

struct NavMeshPictureStyle {
  /// Size of the longer image side, pixels. [Limit: > 2 × margin_px]
  int target_size_px = 1024;
  double margin_px = 12;          ///< empty border around the mesh, pixels. [Limit: >= 0]
  double path_width_px = 3;       ///< path line width, pixels. [Limit: > 0]
  double endpoint_radius_px = 6;  ///< start/goal dot radius, pixels. [Limit: > 0]
  /// A strip of colour keys below the mesh (the picture is then at least 360 px wide).
  bool legend = true;
};

/// Writes `file` (PNG or SVG by `format`; by_name: by its extension): the mesh seen from above
/// (x to the right, z down), each polygon shaded by its height (low blue, high sand; higher
/// polygons drawn over lower ones), portals as thin grey lines and walls dark; then each path of
/// `paths` (corner lists, in 3D) in its own colour (orange, blue, purple, then again; the first
/// on top), with a green start and a red goal; then the legend. Returns false when the style
/// breaks its limits or cairo cannot create or write the file.
bool write_navmesh_picture(const navmesh::NavMesh& nav, std::span<const std::vector<Vec3>> paths,
                           const std::string& file, const NavMeshPictureStyle& style = {},
                           PictureFormat format = PictureFormat::by_name);

/// write_navmesh_picture() as a PNG.
bool write_navmesh_png(const navmesh::NavMesh& nav, std::span<const std::vector<Vec3>> paths, const std::string& file,
                       const NavMeshPictureStyle& style = {});

}  // namespace waymark::render
