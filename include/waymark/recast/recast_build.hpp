#pragma once
/// @file Navigation meshes built by Recast (Debian librecast-dev, linked, not copied) from raw
/// level geometry: the engine-built navmesh a level editor bakes, as RecastDemo builds it.
/// The optional `recast` component: find_package(waymark COMPONENTS recast), waymark::recast.

#include <cstddef>
#include <memory>

#include "waymark/core/errors.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

struct rcPolyMesh;
struct rcPolyMeshDetail;

namespace waymark::recast {

namespace detail {
struct MeshesMaker;
}

/// The most cells (width × depth) Recast's heightfield may have: about 0.5 GB of span
/// pointers. Checked before Recast allocates; raise cell_size for larger levels.
inline constexpr std::size_t max_heightfield_cells = std::size_t{1} << 26;

/// Recast's build parameters, with RecastDemo's defaults. Lengths are world units.
struct RecastParams {
  double cell_size = 0.3;          ///< voxel width and depth (x, z). [> 0]
  double cell_height = 0.2;        ///< voxel height (y). [> 0]
  double agent_height = 2.0;       ///< clearance an agent needs above the floor. [>= 0]
  double agent_radius = 0.6;       ///< floors are eroded this far from walls. [>= 0]
  double agent_max_climb = 0.9;    ///< highest ledge an agent steps up. [>= 0]
  double agent_max_slope = 45;     ///< steepest walkable slope, degrees. [0, 90)
  double region_min_size = 8;      ///< regions smaller than this squared (in cells) are dropped. [>= 0]
  double region_merge_size = 20;   ///< regions smaller than this squared (in cells) are merged. [>= 0]
  double edge_max_len = 12;        ///< longest contour edge. [>= 0]
  double edge_max_error = 1.3;     ///< how far a simplified contour may stray, in cells. [>= 0]
  int verts_per_poly = 6;          ///< most corners of a polygon. [3, 6]
  double detail_sample_dist = 6;   ///< detail mesh sample spacing, in cells (below 0.9: none). [>= 0]
  double detail_sample_max_error = 1;  ///< detail mesh height error, in cell heights. [>= 0]
};

/// What Recast built: its polygon mesh and detail mesh, in Recast's own types (Detour builds
/// its navmesh from these). Walkable polygons get area 0 and flag navmesh::walk_flag.
class RecastMeshes {
 public:
  RecastMeshes(RecastMeshes&&) noexcept;
  RecastMeshes& operator=(RecastMeshes&&) noexcept;
  ~RecastMeshes();

  [[nodiscard]] const rcPolyMesh& poly_mesh() const { return *poly_; }
  [[nodiscard]] const rcPolyMeshDetail& detail_mesh() const { return *detail_; }
  [[nodiscard]] const RecastParams& params() const { return params_; }

 private:
  friend struct detail::MeshesMaker;
  RecastMeshes(rcPolyMesh* poly, rcPolyMeshDetail* detail, const RecastParams& params);
  struct Free {
    void operator()(rcPolyMesh* p) const;
    void operator()(rcPolyMeshDetail* p) const;
  };
  std::unique_ptr<rcPolyMesh, Free> poly_;
  std::unique_ptr<rcPolyMeshDetail, Free> detail_;
  RecastParams params_;
};

/// Runs Recast's pipeline on `mesh` as RecastDemo's solo mesh does: rasterise the walkable
/// triangles, filter ledges and low spans, erode by the agent radius, watershed regions,
/// contours, polygons, detail mesh. Throws BuildError when `params` break their limits, the
/// heightfield would exceed max_heightfield_cells, a coordinate does not fit a float, a step
/// fails, or nothing is walkable.
[[nodiscard]] RecastMeshes build_recast_meshes(const TriangleMesh& mesh, const RecastParams& params = {});

/// Recast's polygon mesh as a navmesh: the same polygons and vertices (in world units, heights
/// as Detour places them), wound counter-clockwise in plan, with Recast's neighbour links.
[[nodiscard]] navmesh::NavMesh to_nav_mesh(const RecastMeshes& meshes);

/// build_recast_meshes, then to_nav_mesh.
[[nodiscard]] navmesh::NavMesh build_nav_mesh(const TriangleMesh& mesh, const RecastParams& params = {});

}  // namespace waymark::recast
