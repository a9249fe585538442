#include "waymark/recast/recast_build.hpp"

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <string>

#include "recast_steps.hpp"
#include "waymark/core/text.hpp"

namespace waymark::recast {

RecastMeshes::RecastMeshes(rcPolyMesh* poly, rcPolyMeshDetail* detail, const RecastParams& params, Vec3 origin)
    : poly_(poly), detail_(detail), params_(params), origin_(origin) {}
RecastMeshes::RecastMeshes(RecastMeshes&&) noexcept = default;
RecastMeshes& RecastMeshes::operator=(RecastMeshes&&) noexcept = default;
RecastMeshes::~RecastMeshes() = default;
void RecastMeshes::Free::operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
void RecastMeshes::Free::operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }

RecastMeshes build_recast_meshes(const TriangleMesh& mesh, const RecastParams& params,
                                 std::chrono::steady_clock::time_point deadline) {
  detail::check(params);
  const detail::RecastInput in = detail::recast_input(mesh, params);
  const double width = std::floor((static_cast<double>(in.bmax[0]) - in.bmin[0]) / params.cell_size + 0.5);
  const double depth = std::floor((static_cast<double>(in.bmax[2]) - in.bmin[2]) / params.cell_size + 0.5);
  if (!(width * depth <= static_cast<double>(max_heightfield_cells))) {
    throw BuildError("the heightfield would have " + number_text(width) + " x " + number_text(depth) + " cells, more than Recast indexes (recast::max_heightfield_cells = " +
                     number_text(max_heightfield_cells) + "; raise cell_size or build in tiles, --tile-size)");
  }
  if (!(std::max(width, depth) <= max_heightfield_side)) {
    throw BuildError("the heightfield would be " + number_text(std::max(width, depth)) + " cells across, more than Recast's polygon corners hold (recast::max_heightfield_side = " +
                     number_text(max_heightfield_side) + "; raise cell_size or build in tiles, --tile-size)");
  }
  const auto cs = static_cast<float>(params.cell_size), ch = static_cast<float>(params.cell_height);
  int w = 0, h = 0;
  rcCalcGridSize(in.bmin, in.bmax, cs, &w, &h);
  if (w < 1 || h < 1) {  // Recast's rasteriser would read outside an empty grid
    throw BuildError("no walkable area: the geometry is narrower than half a cell in plan");
  }

  detail::Context ctx(deadline);
  const detail::Owned<rcHeightfield> solid(rcAllocHeightfield());
  if (!solid) throw std::bad_alloc();
  ctx.begin("create its heightfield");
  ctx.step(rcCreateHeightfield(&ctx, *solid, w, h, in.bmin, in.bmax, cs, ch), "create its heightfield");
  ctx.begin("rasterise the triangles");
  ctx.step(rcRasterizeTriangles(&ctx, in.verts.data(), in.vertex_count, in.tris.data(), in.areas.data(), in.triangle_count,
                                *solid, detail::voxels(params).walkable_climb),
           "rasterise the triangles");
  if (std::none_of(in.areas.begin(), in.areas.end(), [](unsigned char a) { return a != RC_NULL_AREA; }))
    throw detail::no_polygons(detail::Reached::nothing, params, false);
  if (rcGetHeightFieldSpanCount(&ctx, *solid) == 0) throw detail::no_polygons(detail::Reached::walkable_triangle, params, false);
  const auto chf = detail::compact_walkable(ctx, *solid, params);
  std::unique_ptr<rcPolyMesh, detail::MeshesMaker::Free> poly(rcAllocPolyMesh());
  std::unique_ptr<rcPolyMeshDetail, detail::MeshesMaker::Free> detail_mesh(rcAllocPolyMeshDetail());
  if (!poly || !detail_mesh) throw std::bad_alloc();
  detail::build_polygons(ctx, *chf, params, 0, *poly, *detail_mesh);
  if (poly->npolys == 0) throw detail::no_polygons(detail::reached_by(*chf), params, false);
  return detail::MeshesMaker::make(poly.release(), detail_mesh.release(), params, in.origin);
}

navmesh::NavMesh to_nav_mesh(const RecastMeshes& meshes) {
  const rcPolyMesh& pm = meshes.poly_mesh();
  const Vec3 o = meshes.origin();
  return navmesh::NavMesh(detail::poly_mesh_data(pm, meshes.detail_mesh(), meshes.params().agent_max_climb, o,
                                                 [&pm, o](const unsigned short* v) {
                                                   // As Detour places them (dtCreateNavMeshData), then moved to the world.
                                                   return o + Vec3{static_cast<double>(pm.bmin[0] + v[0] * pm.cs),
                                                                   static_cast<double>(pm.bmin[1] + v[1] * pm.ch),
                                                                   static_cast<double>(pm.bmin[2] + v[2] * pm.cs)};
                                                 }));
}

navmesh::NavMesh build_nav_mesh(const TriangleMesh& mesh, const RecastParams& params,
                                std::chrono::steady_clock::time_point deadline) {
  return to_nav_mesh(build_recast_meshes(mesh, params, deadline));
}

}  // namespace waymark::recast
