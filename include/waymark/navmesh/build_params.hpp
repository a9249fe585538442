#pragma once
/// @file RecastBuildParams: Recast's build parameters, defined once. recast::RecastParams is
/// this type (what recast::build_nav_mesh, build_tiles and bake take); navmesh::NavBuildParams
/// is it plus the tile size (what a bake records per class, in the navmesh module, which
/// does not depend on Recast).

namespace waymark::navmesh {

/// Recast's build parameters, with RecastDemo's defaults. Lengths are world units; the limits
/// are recast::max_* (recast_build.hpp) and navmesh::bake_limits (nav_file.hpp), the same values.
struct RecastBuildParams {
  double cell_size = 0.3;          ///< voxel width and depth (x, z). [> 0, max_cell_size]
  double cell_height = 0.2;        ///< voxel height (y). [> 0, max_cell_size]
  double agent_height = 2.0;       ///< clearance an agent needs above the floor. [0, max_agent_height_cells cell heights]
  double agent_radius = 0.6;       ///< floors are eroded this far from walls. [0, max_radius_cells cells]
  double agent_max_climb = 0.9;    ///< highest ledge an agent steps up. [0, max_climb_cells cell heights]
  double agent_max_slope = 45;     ///< steepest walkable slope, degrees. [0, 90)
  double region_min_size = 8;      ///< regions smaller than this squared (in cells) are dropped. [0, max_region_size)
  double region_merge_size = 20;   ///< regions smaller than this squared (in cells) are merged. [0, max_region_size)
  double edge_max_len = 12;        ///< longest contour edge (0: no limit). [0, max_edge_len_cells cells]
  double edge_max_error = 1.3;     ///< how far a simplified contour may stray, in cells. [0, max_edge_error_cells]
  int verts_per_poly = 6;          ///< most corners of a polygon. [3, 6]
  double detail_sample_dist = 6;   ///< detail mesh sample spacing, in cells (below min_detail_sample_dist, 0 too: none). [>= 0]
  double detail_sample_max_error = 1;  ///< detail mesh height error, in cell heights. [>= 0]

  friend bool operator==(const RecastBuildParams&, const RecastBuildParams&) = default;
};

}  // namespace waymark::navmesh
