#include "waymark/recast/recast_build.hpp"

#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace waymark::recast {

namespace {

using navmesh::NavMesh;
using navmesh::NavMeshData;

/// Keeps Recast's last error message for the BuildError.
class Context : public rcContext {
 public:
  Context() : rcContext(true) {}
  std::string last_error;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    if (category == RC_LOG_ERROR) last_error.assign(msg, static_cast<std::size_t>(std::max(len, 0)));
  }
};

/// Frees the scratch Recast allocates while it builds.
struct Release {
  void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
  void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
  void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
};

/// Owns what a Recast allocator returned; bad_alloc when it returned nothing.
template <class T>
std::unique_ptr<T, Release> owned(T* p) {
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T, Release>(p);
}

void require(bool ok, const char* what) {
  if (!ok) throw BuildError(std::string("Recast parameter ") + what);
}

void check(const RecastParams& p) {
  const auto fin = [](double v) { return std::isfinite(v); };
  require(fin(p.cell_size) && p.cell_size > 0, "cell_size must be finite and > 0");
  require(fin(p.cell_height) && p.cell_height > 0, "cell_height must be finite and > 0");
  require(fin(p.agent_height) && p.agent_height >= 0, "agent_height must be finite and >= 0");
  require(fin(p.agent_radius) && p.agent_radius >= 0, "agent_radius must be finite and >= 0");
  require(fin(p.agent_max_climb) && p.agent_max_climb >= 0, "agent_max_climb must be finite and >= 0");
  require(p.agent_max_slope >= 0 && p.agent_max_slope < 90, "agent_max_slope must be from 0 to below 90 degrees");
  require(fin(p.region_min_size) && p.region_min_size >= 0 && p.region_min_size < 1e4, "region_min_size must be from 0 to below 10000");
  require(fin(p.region_merge_size) && p.region_merge_size >= 0 && p.region_merge_size < 1e4,
          "region_merge_size must be from 0 to below 10000");
  require(fin(p.edge_max_len) && p.edge_max_len >= 0, "edge_max_len must be finite and >= 0");
  require(fin(p.edge_max_error) && p.edge_max_error >= 0, "edge_max_error must be finite and >= 0");
  require(p.verts_per_poly >= 3 && p.verts_per_poly <= 6, "verts_per_poly must be from 3 to 6");
  require(fin(p.detail_sample_dist) && p.detail_sample_dist >= 0, "detail_sample_dist must be finite and >= 0");
  require(fin(p.detail_sample_max_error) && p.detail_sample_max_error >= 0,
          "detail_sample_max_error must be finite and >= 0");
  // Voxel counts Recast keeps in ints and shorts.
  require(p.agent_height / p.cell_height < 1e4 && p.agent_max_climb / p.cell_height < 1e4 &&
              p.agent_radius / p.cell_size < 1e4 && p.edge_max_len / p.cell_size < 1e6,
          "lengths must be below 10000 cells");
}

}  // namespace

RecastMeshes::RecastMeshes(rcPolyMesh* poly, rcPolyMeshDetail* detail, const RecastParams& params)
    : poly_(poly), detail_(detail), params_(params) {}
RecastMeshes::RecastMeshes(RecastMeshes&&) noexcept = default;
RecastMeshes& RecastMeshes::operator=(RecastMeshes&&) noexcept = default;
RecastMeshes::~RecastMeshes() = default;
void RecastMeshes::Free::operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
void RecastMeshes::Free::operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }

RecastMeshes build_recast_meshes(const TriangleMesh& mesh, const RecastParams& params) {
  check(params);
  if (mesh.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3) ||
      mesh.triangles.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3)) {
    throw BuildError("too many vertices or triangles for Recast");
  }
  std::vector<float> verts;
  verts.reserve(mesh.vertices.size() * 3);
  for (const Vec3& v : mesh.vertices) {
    for (const double c : {v.x, v.y, v.z}) {
      const auto f = static_cast<float>(c);
      if (!std::isfinite(f)) throw BuildError("a vertex coordinate does not fit a float, as Recast needs");
      verts.push_back(f);
    }
  }
  std::vector<int> tris;
  tris.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) {
    for (std::uint32_t v : t) {
      if (v >= mesh.vertices.size()) throw BuildError("a triangle names a vertex the mesh does not have");
      tris.push_back(static_cast<int>(v));
    }
  }
  const int nv = static_cast<int>(mesh.vertices.size()), nt = static_cast<int>(mesh.triangles.size());
  if (nt == 0) throw BuildError("no triangles to build a navmesh from");

  float bmin[3], bmax[3];
  rcCalcBounds(verts.data(), nv, bmin, bmax);
  const double width = std::floor((static_cast<double>(bmax[0]) - bmin[0]) / params.cell_size + 0.5);
  const double depth = std::floor((static_cast<double>(bmax[2]) - bmin[2]) / params.cell_size + 0.5);
  if (!(width * depth <= static_cast<double>(max_heightfield_cells))) {
    throw BuildError("the heightfield would have " + std::to_string(width) + " x " + std::to_string(depth) +
                     " cells, more than the limit of " + std::to_string(max_heightfield_cells) +
                     " (recast::max_heightfield_cells; raise the cell size)");
  }
  const auto cs = static_cast<float>(params.cell_size), ch = static_cast<float>(params.cell_height);
  const int walkable_height = static_cast<int>(std::ceil(params.agent_height / params.cell_height));
  const int walkable_climb = static_cast<int>(std::floor(params.agent_max_climb / params.cell_height));
  const int walkable_radius = static_cast<int>(std::ceil(params.agent_radius / params.cell_size));
  int w = 0, h = 0;
  rcCalcGridSize(bmin, bmax, cs, &w, &h);
  if (w < 1 || h < 1) {  // Recast's rasteriser would read outside an empty grid
    throw BuildError("no walkable area: the geometry is narrower than half a cell in plan");
  }

  Context ctx;
  const auto step = [&](bool ok, const char* what) {
    if (!ok) throw BuildError(std::string("Recast could not ") + what + (ctx.last_error.empty() ? "" : ": " + ctx.last_error));
  };
  const auto solid = owned(rcAllocHeightfield());
  step(rcCreateHeightfield(&ctx, *solid, w, h, bmin, bmax, cs, ch), "create its heightfield");
  std::vector<unsigned char> areas(static_cast<std::size_t>(nt), 0);
  rcMarkWalkableTriangles(&ctx, static_cast<float>(params.agent_max_slope), verts.data(), nv, tris.data(), nt,
                          areas.data());
  step(rcRasterizeTriangles(&ctx, verts.data(), nv, tris.data(), areas.data(), nt, *solid, walkable_climb),
       "rasterise the triangles");
  rcFilterLowHangingWalkableObstacles(&ctx, walkable_climb, *solid);
  rcFilterLedgeSpans(&ctx, walkable_height, walkable_climb, *solid);
  rcFilterWalkableLowHeightSpans(&ctx, walkable_height, *solid);

  const auto chf = owned(rcAllocCompactHeightfield());
  step(rcBuildCompactHeightfield(&ctx, walkable_height, walkable_climb, *solid, *chf), "build its compact heightfield");
  step(rcErodeWalkableArea(&ctx, walkable_radius, *chf), "erode the walkable area");
  step(rcBuildDistanceField(&ctx, *chf), "build the distance field");
  const auto squared = [](double v) { return static_cast<int>(v * v); };
  step(rcBuildRegions(&ctx, *chf, 0, squared(params.region_min_size), squared(params.region_merge_size)),
       "build regions");
  const auto contours = owned(rcAllocContourSet());
  step(rcBuildContours(&ctx, *chf, static_cast<float>(params.edge_max_error),
                       static_cast<int>(params.edge_max_len / params.cell_size), *contours),
       "build contours");
  std::unique_ptr<rcPolyMesh, RecastMeshes::Free> poly(rcAllocPolyMesh());
  std::unique_ptr<rcPolyMeshDetail, RecastMeshes::Free> detail(rcAllocPolyMeshDetail());
  if (!poly || !detail) throw std::bad_alloc();
  step(rcBuildPolyMesh(&ctx, *contours, params.verts_per_poly, *poly), "build the polygon mesh");
  const double sample = params.detail_sample_dist < 0.9 ? 0 : params.cell_size * params.detail_sample_dist;
  step(rcBuildPolyMeshDetail(&ctx, *poly, *chf, static_cast<float>(sample),
                             static_cast<float>(params.cell_height * params.detail_sample_max_error), *detail),
       "build the detail mesh");
  if (poly->npolys == 0) throw BuildError("no walkable area: Recast made no polygons");
  for (int i = 0; i < poly->npolys; ++i) {  // RecastDemo's ground area and walk flag
    if (poly->areas[i] == RC_WALKABLE_AREA) poly->areas[i] = 0;
    poly->flags[i] = navmesh::walk_flag;
  }
  return RecastMeshes(poly.release(), detail.release(), params);
}

NavMesh to_nav_mesh(const RecastMeshes& meshes) {
  const rcPolyMesh& pm = meshes.poly_mesh();
  NavMeshData d;
  d.vertices.reserve(static_cast<std::size_t>(pm.nverts));
  for (int i = 0; i < pm.nverts; ++i) {
    const unsigned short* v = &pm.verts[i * 3];
    // As Detour places them (dtCreateNavMeshData).
    d.vertices.push_back({static_cast<double>(pm.bmin[0] + v[0] * pm.cs), static_cast<double>(pm.bmin[1] + v[1] * pm.ch),
                          static_cast<double>(pm.bmin[2] + v[2] * pm.cs)});
  }
  d.climb = meshes.params().agent_max_climb;
  const rcPolyMeshDetail& dm = meshes.detail_mesh();
  const bool has_detail = dm.nmeshes >= pm.npolys;  // else heights come from the polygons
  if (has_detail) d.detail_begin.push_back(0);
  std::vector<std::uint32_t> corners;
  std::vector<PolyId> links;
  for (int i = 0; i < pm.npolys; ++i) {
    const unsigned short* p = &pm.polys[i * 2 * pm.nvp];
    corners.clear();
    links.clear();
    for (int j = 0; j < pm.nvp && p[j] != RC_MESH_NULL_IDX; ++j) {
      corners.push_back(p[j]);
      const unsigned short n = p[pm.nvp + j];
      // 0x8000 marks a link to another tile: a solo mesh has none, so it is a wall.
      links.push_back(n == RC_MESH_NULL_IDX || (n & 0x8000) != 0 ? PolyId{} : PolyId{n});
    }
    if (has_detail) {  // heights as Detour takes them
      const unsigned int* m = &dm.meshes[i * 4];
      for (unsigned int t = 0; t < m[3]; ++t) {
        const unsigned char* tri = &dm.tris[(m[2] + t) * 4];
        std::array<Vec3, 3>& out = d.detail.emplace_back();
        for (std::size_t c = 0; c < 3; ++c) {
          // As Detour: the first detail vertices are the polygon's own, at its heights.
          const unsigned int j = tri[c];
          if (j < corners.size()) {
            out[c] = d.vertices[corners[j]];
          } else {
            const float* v = &dm.verts[(m[0] + j) * 3];
            out[c] = {v[0], v[1], v[2]};
          }
        }
      }
      d.detail_begin.push_back(static_cast<std::uint32_t>(d.detail.size()));
    }
    double twice_area = 0;
    for (std::size_t k = 0; k < corners.size(); ++k) {
      twice_area += cross(navmesh::plan(d.vertices[corners[k]]), navmesh::plan(d.vertices[corners[(k + 1) % corners.size()]]));
    }
    if (twice_area < 0) {
      // Reversed, edge k is the old edge n - 2 - k (mod n), run backwards: the links reversed,
      // then rotated by one.
      std::reverse(corners.begin(), corners.end());
      std::reverse(links.begin(), links.end());
      std::rotate(links.begin(), links.begin() + 1, links.end());
    }
    d.corners.insert(d.corners.end(), corners.begin(), corners.end());
    d.neighbors.insert(d.neighbors.end(), links.begin(), links.end());
    d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
    d.areas.push_back(pm.areas[i]);
    d.flags.push_back(pm.flags[i]);
  }
  return NavMesh(std::move(d));
}

NavMesh build_nav_mesh(const TriangleMesh& mesh, const RecastParams& params) {
  return to_nav_mesh(build_recast_meshes(mesh, params));
}

}  // namespace waymark::recast
