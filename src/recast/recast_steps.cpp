#include "recast_steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <new>

namespace waymark::recast::detail {

namespace {

void require(bool ok, const char* what) {
  if (!ok) throw BuildError(std::string("Recast parameter ") + what);
}

template <class T>
Owned<T> owned(T* p) {
  if (!p) throw std::bad_alloc();
  return Owned<T>(p);
}

}  // namespace

void Context::step(bool ok, const char* what) const {
  if (!ok) throw BuildError(std::string("Recast could not ") + what + (last_error.empty() ? "" : ": " + last_error));
}

void Context::doLog(const rcLogCategory category, const char* msg, const int len) {
  if (category == RC_LOG_ERROR) last_error.assign(msg, static_cast<std::size_t>(std::max(len, 0)));
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

RecastInput recast_input(const TriangleMesh& mesh, const RecastParams& params) {
  if (mesh.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3) ||
      mesh.triangles.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3)) {
    throw BuildError("too many vertices or triangles for Recast");
  }
  RecastInput in;
  in.verts.reserve(mesh.vertices.size() * 3);
  for (const Vec3& v : mesh.vertices) {
    for (const double c : {v.x, v.y, v.z}) {
      const auto f = static_cast<float>(c);
      if (!std::isfinite(f)) throw BuildError("a vertex coordinate does not fit a float, as Recast needs");
      in.verts.push_back(f);
    }
  }
  in.tris.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) {
    for (std::uint32_t v : t) {
      if (v >= mesh.vertices.size()) throw BuildError("a triangle names a vertex the mesh does not have");
      in.tris.push_back(static_cast<int>(v));
    }
  }
  in.vertex_count = static_cast<int>(mesh.vertices.size());
  in.triangle_count = static_cast<int>(mesh.triangles.size());
  if (in.triangle_count == 0) throw BuildError("no triangles to build a navmesh from");
  rcCalcBounds(in.verts.data(), in.vertex_count, in.bmin, in.bmax);
  in.areas.assign(static_cast<std::size_t>(in.triangle_count), 0);
  Context ctx;
  rcMarkWalkableTriangles(&ctx, static_cast<float>(params.agent_max_slope), in.verts.data(), in.vertex_count, in.tris.data(),
                          in.triangle_count, in.areas.data());
  return in;
}

Voxels voxels(const RecastParams& p) {
  return {static_cast<int>(std::ceil(p.agent_height / p.cell_height)), static_cast<int>(std::floor(p.agent_max_climb / p.cell_height)),
          static_cast<int>(std::ceil(p.agent_radius / p.cell_size))};
}

Owned<rcCompactHeightfield> compact_walkable(Context& ctx, rcHeightfield& solid, const RecastParams& params) {
  const Voxels v = voxels(params);
  rcFilterLowHangingWalkableObstacles(&ctx, v.walkable_climb, solid);
  rcFilterLedgeSpans(&ctx, v.walkable_height, v.walkable_climb, solid);
  rcFilterWalkableLowHeightSpans(&ctx, v.walkable_height, solid);
  auto chf = owned(rcAllocCompactHeightfield());
  ctx.step(rcBuildCompactHeightfield(&ctx, v.walkable_height, v.walkable_climb, solid, *chf), "build its compact heightfield");
  ctx.step(rcErodeWalkableArea(&ctx, v.walkable_radius, *chf), "erode the walkable area");
  return chf;
}

void build_polygons(Context& ctx, rcCompactHeightfield& chf, const RecastParams& params, int border_size, rcPolyMesh& poly,
                    rcPolyMeshDetail& detail) {
  ctx.step(rcBuildDistanceField(&ctx, chf), "build the distance field");
  const auto squared = [](double v) { return static_cast<int>(v * v); };
  ctx.step(rcBuildRegions(&ctx, chf, border_size, squared(params.region_min_size), squared(params.region_merge_size)),
           "build regions");
  const auto contours = owned(rcAllocContourSet());
  ctx.step(rcBuildContours(&ctx, chf, static_cast<float>(params.edge_max_error),
                           static_cast<int>(params.edge_max_len / params.cell_size), *contours),
           "build contours");
  ctx.step(rcBuildPolyMesh(&ctx, *contours, params.verts_per_poly, poly), "build the polygon mesh");
  const double sample = params.detail_sample_dist < 0.9 ? 0 : params.cell_size * params.detail_sample_dist;
  ctx.step(rcBuildPolyMeshDetail(&ctx, poly, chf, static_cast<float>(sample),
                                 static_cast<float>(params.cell_height * params.detail_sample_max_error), detail),
           "build the detail mesh");
  for (int i = 0; i < poly.npolys; ++i) {  // RecastDemo's ground area and walk flag
    if (poly.areas[i] == RC_WALKABLE_AREA) poly.areas[i] = 0;
    poly.flags[i] = navmesh::walk_flag;
  }
}

void append_poly(const rcPolyMesh& pm, const rcPolyMeshDetail& dm, int i, navmesh::NavMeshData& d) {
  const unsigned short* p = &pm.polys[i * 2 * pm.nvp];
  std::array<std::uint32_t, 16> corner_array{};  // nvp <= 6 (checked with the parameters)
  std::uint32_t* corners = corner_array.data();
  std::array<PolyId, 16> links{};
  std::size_t n = 0;
  for (int j = 0; j < pm.nvp && p[j] != RC_MESH_NULL_IDX; ++j, ++n) {
    corners[n] = p[j];
    const unsigned short nb = p[pm.nvp + j];
    // 0x8000 marks a link to another tile: a wall until a tiled world stitches it.
    links[n] = nb == RC_MESH_NULL_IDX || (nb & 0x8000) != 0 ? PolyId{} : PolyId{nb};
  }
  if (!d.detail_begin.empty()) {  // heights as Detour takes them
    const unsigned int* m = &dm.meshes[i * 4];
    for (unsigned int t = 0; t < m[3]; ++t) {
      const unsigned char* tri = &dm.tris[(m[2] + t) * 4];
      std::array<Vec3, 3>& out = d.detail.emplace_back();
      for (std::size_t c = 0; c < 3; ++c) {
        // As Detour: the first detail vertices are the polygon's own, at its heights.
        const unsigned int j = tri[c];
        if (j < n) {
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
  for (std::size_t k = 0; k < n; ++k) {
    twice_area += cross(navmesh::plan(d.vertices[corners[k]]), navmesh::plan(d.vertices[corners[(k + 1) % n]]));
  }
  if (twice_area < 0) {
    // Reversed, edge k is the old edge n - 2 - k (mod n), run backwards: the links reversed,
    // then rotated by one.
    std::reverse(corners, corners + n);
    std::reverse(links.begin(), links.begin() + static_cast<std::ptrdiff_t>(n));
    std::rotate(links.begin(), links.begin() + 1, links.begin() + static_cast<std::ptrdiff_t>(n));
  }
  d.corners.insert(d.corners.end(), corners, corners + n);
  d.neighbors.insert(d.neighbors.end(), links.begin(), links.begin() + static_cast<std::ptrdiff_t>(n));
  d.poly_begin.push_back(static_cast<std::uint32_t>(d.corners.size()));
  d.areas.push_back(pm.areas[i]);
  d.flags.push_back(pm.flags[i]);
}

}  // namespace waymark::recast::detail
