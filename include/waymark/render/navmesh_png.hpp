#pragma once
/// @file Draws a navmesh from above and paths across it, to a PNG or an SVG (cairo), with a legend.
/// (The file's name is older than SVG: write_navmesh_picture writes either format; only the
/// write_navmesh_png shorthand is PNG alone.)

#include <span>
#include <string>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
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

/// What write_navmesh_picture draws over the mesh, under the paths; each kind drawn gets a key
/// in the legend. Refers to the caller's spans: keep them alive for the call.
struct NavMeshOverlays {
  /// Tiles' plan squares (x, z as Vec2's x, y), drawn as thin dashed borders: e.g. each
  /// non-empty tile's recast::TileLayout tile_min … tile_max. Empty: none.
  std::span<const Aabb2> tiles;
  /// The mesh's off-mesh links (nav.data().links), each an arc from its start to its end with
  /// an arrowhead at the end (and one at the start too when it is two-way), its ends dotted.
  bool links = true;
  /// Obstacles, filled in plan (a cylinder's disc, a box's rectangle, a prism's polygon).
  std::span<const navmesh::NavObstacle> obstacles;
};

/// The shapes write_navmesh_picture draws for `nav` (each polygon and each of its edges): more
/// than max_svg_shapes and it writes no SVG.
[[nodiscard]] std::size_t picture_shapes(const navmesh::NavMesh& nav);

/// Writes `file` (PNG or SVG by `format`; by_name: by its extension): the mesh seen from above
/// (x to the right, z down), each polygon shaded by its height (low blue, high sand; higher
/// polygons drawn over lower ones), portals as thin grey lines and walls dark; then each path of
/// `paths` (corner lists, in 3D) in its own colour (orange, blue, purple, then again; the first
/// on top), with a green start and a red goal; then the legend. Returns false when the style
/// breaks its limits, an SVG would hold more than max_svg_shapes shapes, or cairo cannot
/// create or write the file. The mesh's off-mesh links are
/// drawn as NavMeshOverlays{} draws them.
bool write_navmesh_picture(const navmesh::NavMesh& nav, std::span<const std::vector<Vec3>> paths,
                           const std::string& file, const NavMeshPictureStyle& style = {},
                           PictureFormat format = PictureFormat::by_name);
/// The same with `overlays` (tile borders, links, obstacles) drawn over the mesh, under the paths.
bool write_navmesh_picture(const navmesh::NavMesh& nav, std::span<const std::vector<Vec3>> paths,
                           const NavMeshOverlays& overlays, const std::string& file, const NavMeshPictureStyle& style = {},
                           PictureFormat format = PictureFormat::by_name);

/// write_navmesh_picture() as a PNG.
bool write_navmesh_png(const navmesh::NavMesh& nav, std::span<const std::vector<Vec3>> paths, const std::string& file,
                       const NavMeshPictureStyle& style = {});

}  // namespace waymark::render
