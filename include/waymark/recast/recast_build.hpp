#pragma once
/// @file Navigation meshes built by Recast (Debian librecast-dev, linked, not copied) from raw
/// level geometry: the engine-built navmesh a level editor bakes, as RecastDemo builds it.
/// The optional `recast` component: find_package(waymark COMPONENTS recast), waymark::recast.

#include <chrono>
#include <cstddef>
#include <memory>

#include "waymark/core/errors.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/build_params.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

struct rcPolyMesh;
struct rcPolyMeshDetail;

namespace waymark::recast {

namespace detail {
struct MeshesMaker;
}

// Recast's own limits (Debian's Recast 1.5.1): each is checked before Recast runs, and the
// BuildError names it and what to change. docs/navmesh.md, "Recast's limits", says why each is
// where it is.

/// The most cells (width × depth) of the solo build's heightfield: Recast's compact heightfield
/// indexes its spans in 24 bits, so a flat floor of more cells wraps and loses its spans.
/// Checked before Recast allocates; raise cell_size or build in tiles. [Limit: 2^24 cells]
inline constexpr std::size_t max_heightfield_cells = std::size_t{1} << 24;
/// The most walkable spans a heightfield (solo, or one tile with its border) may hold, stacked
/// floors included: the same 24-bit index. Checked after the filters, before compacting.
/// [Limit: 2^24 - 1 spans]
inline constexpr std::size_t max_heightfield_spans = (std::size_t{1} << 24) - 1;
/// The most walkable spans stacked over one cell: Recast links a span to the neighbour span of
/// that index in its column in 6 bits (0x3f: none). [Limit: 63 floors over one cell]
inline constexpr int max_column_spans = 63;
/// The most cells along x or z of the solo build: its polygon corners are unsigned shorts in
/// cells. [Limit: 65535 cells a side]
inline constexpr int max_heightfield_side = 65535;
/// The most cell heights (cell_height) from the level's lowest point to its highest: Recast's
/// spans keep heights in 13 bits and clamp the rest, merging higher floors into one.
/// [Limit: 8191 cell heights]
inline constexpr int max_level_height_cells = 8191;
/// The most cells a level may reach along x or z from the point Recast's coordinates start at
/// (RecastMeshes::origin: 0 near the world's origin, else a multiple of a power of two near the
/// level's low corner), which bounds the level's extent. Recast works in floats; the
/// build moves the level near Recast's origin, so it keeps the precision of a level at the
/// world's origin however far it lies. Past this a float's step nears a cell, and Recast's
/// rasteriser overruns its clipping buffers (as it did, a stack smash, on a quad at 10^7 units
/// with 0.3-unit cells before the build was relative). [Limit: 2^19 cells, float steps of at
/// most 1/16 cell]
inline constexpr double max_level_extent_cells = 524288;
/// The farthest, in cells (cell_size in x and z, cell_height in y), that a level's coordinate
/// may lie from the world's origin: the build places cell lines and heights in double, and past
/// this a double's step passes 1/8 cell (a level at 10^300 collapsed to a point, refused as
/// "narrower than half a cell"). [Limit: 2^48 cells]
inline constexpr double max_world_cells = 281474976710656.0;
/// The widest and the tallest cell: with the level within max_level_extent_cells of Recast's
/// origin, every coordinate Recast is given (and every spacing derived from a cell) then fits a
/// float. [Limit: 10^6 world units]
inline constexpr double max_cell_size = 1e6;
/// The widest agent, in cells (ceil(agent_radius / cell_size)): Recast erodes by twice the
/// radius in an 8-bit distance, so 128 cells would erode nothing. [Limit: 127 cells]
inline constexpr int max_radius_cells = 127;
/// The tallest agent, in cell heights (ceil(agent_height / cell_height)): Recast keeps a span's
/// clearance in 8 bits. [Limit: 255 cell heights]
inline constexpr int max_agent_height_cells = 255;
/// The highest climb, in cell heights (floor(agent_max_climb / cell_height)): no step is
/// higher than the level. [Limit: max_level_height_cells]
inline constexpr int max_climb_cells = max_level_height_cells;
/// The longest contour edge, in cells (edge_max_len / cell_size): Recast squares it in an int.
/// [Limit: 46340 cells]
inline constexpr int max_edge_len_cells = 46340;
/// The largest contour error, in cells: the detail mesh searches this many cells around for a
/// missing height, (2r + 1)^2 cells a sample. [Limit: 64 cells]
inline constexpr double max_edge_error_cells = 64;
/// The smallest detail sample spacing that samples, in cells: below it Recast's detail mesh
/// takes no samples (only the polygons' own heights), as RecastDemo does. 0 means none.
/// [Limit: 0, or at least 0.9 cells]
inline constexpr double min_detail_sample_dist = 0.9;
/// The largest region_min_size and region_merge_size, in cells (each is squared into Recast's
/// int region areas). [Limit: below 10000 cells]
inline constexpr double max_region_size = 1e4;
/// The most watershed regions of one heightfield: Recast's region ids are 16 bits, the top bit
/// marking border regions. Checked after the regions are built. [Limit: 32767 regions]
inline constexpr int max_regions = 0x7fff;
/// The most corners of one region's outline (a contour, its holes joined in, after
/// simplification): Recast's polygon step triangulates and merges each contour in time cubic
/// in its corners (measured: 701 corners 1.5 s, 1,166 5.6 s, 1,887 23 s; docs/navmesh.md).
/// Checked after the contours are built, before that step. Tiles split outlines; so do a
/// larger region_min_size and agent radius. [Limit: 1024 corners]
inline constexpr int max_contour_vertices = 1024;

/// Recast's build parameters, with RecastDemo's defaults (one definition, shared with what a
/// bake records: navmesh/build_params.hpp).
using RecastParams = navmesh::RecastBuildParams;

/// What Recast built: its polygon mesh and detail mesh, in Recast's own types (Detour builds
/// its navmesh from these). Walkable polygons get area 0 and flag navmesh::walk_flag. Their
/// coordinates are relative to origin(): the level's low corner rounded to the nearest multiple
/// of 2^k, the largest power of two at most cell_size × max_level_extent_cells / 2 (65,536 at
/// cell size 0.3; cell_height for y). So a level within 2^(k-1) of the world's origin has origin
/// (0, 0, 0) and builds as it always did, a level far away keeps the precision of one near it,
/// and a level moved by a multiple of 2^k builds bit for bit the same, moved (to_nav_mesh adds
/// origin() back, in double; Detour takes `bmin` and the detail vertices plus origin()).
class RecastMeshes {
 public:
  RecastMeshes(RecastMeshes&&) noexcept;
  RecastMeshes& operator=(RecastMeshes&&) noexcept;
  ~RecastMeshes();

  /// Not of a temporary (they go with it): keep the RecastMeshes first.
  [[nodiscard]] const rcPolyMesh& poly_mesh() const& { return *poly_; }
  const rcPolyMesh& poly_mesh() const&& = delete;  // a temporary's: would dangle
  [[nodiscard]] const rcPolyMeshDetail& detail_mesh() const& { return *detail_; }
  const rcPolyMeshDetail& detail_mesh() const&& = delete;  // a temporary's: would dangle
  [[nodiscard]] const RecastParams& params() const { return params_; }
  /// The world point of Recast's (0, 0, 0).
  [[nodiscard]] Vec3 origin() const { return origin_; }

 private:
  friend struct detail::MeshesMaker;
  RecastMeshes(rcPolyMesh* poly, rcPolyMeshDetail* detail, const RecastParams& params, Vec3 origin);
  struct Free {
    void operator()(rcPolyMesh* p) const;
    void operator()(rcPolyMeshDetail* p) const;
  };
  std::unique_ptr<rcPolyMesh, Free> poly_;
  std::unique_ptr<rcPolyMeshDetail, Free> detail_;
  RecastParams params_;
  Vec3 origin_;
};

/// Runs Recast's pipeline on `mesh` as RecastDemo's solo mesh does: rasterise the walkable
/// triangles, filter ledges and low spans, erode by the agent radius, watershed regions,
/// contours, polygons, detail mesh. Throws BuildError, naming the limit and what to change,
/// when `params` break their limits or Recast's (the limits above), the heightfield would
/// exceed max_heightfield_cells or max_heightfield_side, the level max_level_height_cells,
/// max_level_extent_cells or max_world_cells, a coordinate is not finite, a step fails, or nothing is walkable.
/// No step of Recast's is begun after `deadline` (one under way finishes: a step of a level
/// near max_heightfield_cells may take half a minute): the build then throws BuildError
/// naming the step. Default: none.
[[nodiscard]] RecastMeshes build_recast_meshes(const TriangleMesh& mesh, const RecastParams& params = {},
                                               std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

/// Recast's polygon mesh as a navmesh: the same polygons and vertices (in world units, heights
/// as Detour places them), wound counter-clockwise in plan, with Recast's neighbour links.
[[nodiscard]] navmesh::NavMesh to_nav_mesh(const RecastMeshes& meshes);

/// build_recast_meshes, then to_nav_mesh.
[[nodiscard]] navmesh::NavMesh build_nav_mesh(const TriangleMesh& mesh, const RecastParams& params = {},
                                              std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

}  // namespace waymark::recast
