#pragma once
// Detour (librecast-dev) on the polygon mesh Recast built: the independent reference the
// navmesh tests (tests/recast) and the benchmark (bench/navmesh_bench.cpp) compare waymark with. Runs as RecastDemo's "Solo Mesh" sample
// does: findNearestPoly with the pick extents, findPath, findStraightPath.

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_tile.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::test {

/// How waymark's path lengths compare with Detour's, query by query: equal within
/// 1e-3 + 0.5 % (heights come from slightly different places), else shorter or longer.
struct LengthTally {
  int compared = 0, equal = 0, shorter = 0, longer = 0;
  double most_shorter_by = 0;     ///< 1 - waymark / Detour, the largest
  double worst_longer_ratio = 1;  ///< waymark / Detour, the largest

  void add(double ours, double detour) {
    ++compared;
    if (std::abs(ours - detour) <= 1e-3 + 0.005 * detour) {
      ++equal;
    } else if (ours < detour) {
      ++shorter;
      most_shorter_by = std::max(most_shorter_by, 1 - ours / detour);
    } else {
      ++longer;
      worst_longer_ratio = std::max(worst_longer_ratio, ours / detour);
    }
  }
};

class DetourReference {
 public:
  /// Room for this many polygons in a path and nodes in a search (RecastDemo: 256 and 2048).
  static constexpr int max_polys = 2048;
  static constexpr int max_nodes = 65535;

  /// Detour's mesh of `meshes`, with `links` as its off-mesh connections (offMeshCon*: ends,
  /// radius, direction, area, flags, user id).
  explicit DetourReference(const recast::RecastMeshes& meshes, std::span<const navmesh::OffMeshLink> links = {}) {
    unsigned char* data = nullptr;
    int size = 0;
    tile_data(meshes, 0, 0, data, size, links);
    mesh_ = dtAllocNavMesh();
    if (dtStatusFailed(mesh_->init(data, size, DT_TILE_FREE_DATA))) throw std::runtime_error("dtNavMesh::init failed");
    init_query();
  }
  /// Detour's own tiled mesh (RecastDemo's Sample_TileMesh): one Detour tile per Recast tile
  /// (tileX, tileY its coordinates), tiles `side` world units wide from `origin`.
  DetourReference(const std::vector<std::pair<navmesh::TileCoord, const recast::RecastMeshes*>>& tiles, Vec3 origin,
                  double side, std::size_t tile_count) {
    dtNavMeshParams params{};
    params.orig[0] = static_cast<float>(origin.x);
    params.orig[1] = static_cast<float>(origin.y);
    params.orig[2] = static_cast<float>(origin.z);
    params.tileWidth = params.tileHeight = static_cast<float>(side);
    int tile_bits = 0;
    while ((std::size_t{1} << tile_bits) < tile_count) ++tile_bits;
    tile_bits = std::min(tile_bits, 14);  // as RecastDemo
    params.maxTiles = 1 << tile_bits;
    params.maxPolys = 1 << (22 - tile_bits);
    mesh_ = dtAllocNavMesh();
    if (dtStatusFailed(mesh_->init(&params))) throw std::runtime_error("dtNavMesh::init failed");
    for (const auto& [coord, meshes] : tiles) {
      unsigned char* data = nullptr;
      int size = 0;
      tile_data(*meshes, coord.x, coord.z, data, size);
      if (dtStatusFailed(mesh_->addTile(data, size, DT_TILE_FREE_DATA, 0, nullptr))) {
        dtFree(data);
        throw std::runtime_error("dtNavMesh::addTile failed");
      }
    }
    init_query();
  }
  DetourReference(const DetourReference&) = delete;
  DetourReference& operator=(const DetourReference&) = delete;
  /// Detour's own objects, for peers that drive Detour themselves (the dtCrowd benchmark).
  [[nodiscard]] dtNavMesh* nav_mesh() const { return mesh_; }
  [[nodiscard]] dtNavMeshQuery* nav_query() const { return query_; }
  ~DetourReference() {
    dtFreeNavMeshQuery(query_);
    dtFreeNavMesh(mesh_);
  }

  struct Result {
    bool found = false;    // both ends on the mesh and a path (maybe partial)
    bool partial = false;
    std::vector<Vec3> corners;
    double length = 0;
  };

  Result find_path(Vec3 from, Vec3 to, unsigned short include = 0xffff, unsigned short exclude = 0) {
    Result r;
    find_path(from, to, include, exclude, r);
    return r;
  }
  /// The same into `r`, reusing its capacity (what a benchmark times: no allocation).
  void find_path(Vec3 from, Vec3 to, unsigned short include, unsigned short exclude, Result& r) {
    dtQueryFilter filter;
    filter.setIncludeFlags(include);
    filter.setExcludeFlags(exclude);
    const float ext[3] = {2, 4, 2};
    const float s[3] = {float(from.x), float(from.y), float(from.z)}, e[3] = {float(to.x), float(to.y), float(to.z)};
    dtPolyRef start = 0, end = 0;
    float sp[3], ep[3];
    r.found = r.partial = false;
    r.corners.clear();
    r.length = 0;
    query_->findNearestPoly(s, ext, &filter, &start, sp);
    query_->findNearestPoly(e, ext, &filter, &end, ep);
    if (!start || !end) return;
    int count = 0;
    const dtStatus st = query_->findPath(start, end, sp, ep, &filter, polys_, &count, max_polys);
    if (dtStatusFailed(st) || count == 0) return;
    r.found = true;
    r.partial = dtStatusDetail(st, DT_PARTIAL_RESULT);
    float target[3] = {ep[0], ep[1], ep[2]};
    if (polys_[count - 1] != end) query_->closestPointOnPoly(polys_[count - 1], ep, target, nullptr);
    int n = 0;
    query_->findStraightPath(sp, target, polys_, count, straight_, nullptr, nullptr, &n, max_polys);
    for (int i = 0; i < n; ++i) r.corners.push_back({straight_[3 * i], straight_[3 * i + 1], straight_[3 * i + 2]});
    for (std::size_t i = 1; i < r.corners.size(); ++i) r.length += distance(r.corners[i - 1], r.corners[i]);
  }

  struct Ray {
    bool ok = false;   // the start polygon was valid
    bool hit = false;  // a wall stopped the ray
    double t = 1;      // fraction travelled (1 when it reached the end)
    Vec3 normal;
    std::vector<std::uint32_t> polys;  // polygon indices crossed (one tile: the ref's poly index)
  };
  /// Detour's raycast from polygon `start` (an index into Recast's polygon mesh).
  Ray raycast(std::uint32_t start, Vec3 from, Vec3 to) {
    Ray r;
    dtQueryFilter filter;
    const float s[3] = {float(from.x), float(from.y), float(from.z)}, e[3] = {float(to.x), float(to.y), float(to.z)};
    float t = 0, normal[3] = {0, 0, 0};
    int count = 0;
    const dtMeshTile* tile = static_cast<const dtNavMesh*>(mesh_)->getTile(0);
    const dtPolyRef ref = mesh_->getPolyRefBase(tile) | start;
    if (dtStatusFailed(query_->raycast(ref, s, e, &filter, &t, normal, polys_, &count, max_polys))) return r;
    r.ok = true;
    r.hit = t <= 1;  // FLT_MAX when the end was reached
    r.t = r.hit ? t : 1;
    r.normal = {normal[0], normal[1], normal[2]};
    for (int i = 0; i < count; ++i) r.polys.push_back(mesh_->decodePolyIdPoly(polys_[i]));
    return r;
  }

 private:
  /// Detour's tile data for Recast's meshes at tile (x, y).
  static void tile_data(const recast::RecastMeshes& meshes, int x, int y, unsigned char*& data, int& size,
                        std::span<const navmesh::OffMeshLink> links = {}) {
    const rcPolyMesh& pm = meshes.poly_mesh();
    const rcPolyMeshDetail& dm = meshes.detail_mesh();
    dtNavMeshCreateParams p{};
    p.verts = pm.verts;
    p.vertCount = pm.nverts;
    p.polys = pm.polys;
    p.polyAreas = pm.areas;
    p.polyFlags = pm.flags;
    p.polyCount = pm.npolys;
    p.nvp = pm.nvp;
    p.detailMeshes = dm.meshes;
    // Recast built relative to the level's low corner (RecastMeshes::origin): Detour takes world
    // coordinates.
    const Vec3 o = meshes.origin();
    std::vector<float> detail_verts(dm.verts, dm.verts + 3 * dm.nverts);
    for (std::size_t i = 0; i < detail_verts.size(); ++i) {
      detail_verts[i] = static_cast<float>((i % 3 == 0 ? o.x : i % 3 == 1 ? o.y : o.z) + detail_verts[i]);
    }
    p.detailVerts = detail_verts.data();
    p.detailVertsCount = dm.nverts;
    p.detailTris = dm.tris;
    p.detailTriCount = dm.ntris;
    p.walkableHeight = static_cast<float>(meshes.params().agent_height);
    p.walkableRadius = static_cast<float>(meshes.params().agent_radius);
    p.walkableClimb = static_cast<float>(meshes.params().agent_max_climb);
    p.tileX = x;
    p.tileY = y;
    const float shift[3] = {static_cast<float>(o.x), static_cast<float>(o.y), static_cast<float>(o.z)};
    rcVadd(p.bmin, pm.bmin, shift);
    rcVadd(p.bmax, pm.bmax, shift);
    p.cs = pm.cs;
    p.ch = pm.ch;
    p.buildBvTree = true;
    std::vector<float> con_verts, con_rad;
    std::vector<unsigned short> con_flags;
    std::vector<unsigned char> con_areas, con_dir;
    std::vector<unsigned int> con_ids;
    for (const navmesh::OffMeshLink& l : links) {
      for (const Vec3 v : {l.start, l.end}) con_verts.insert(con_verts.end(), {float(v.x), float(v.y), float(v.z)});
      con_rad.push_back(float(l.radius));
      con_flags.push_back(l.flags);
      con_areas.push_back(l.area);
      con_dir.push_back(l.bidirectional ? DT_OFFMESH_CON_BIDIR : 0);
      con_ids.push_back(l.user_id);
    }
    p.offMeshConVerts = con_verts.data();
    p.offMeshConRad = con_rad.data();
    p.offMeshConFlags = con_flags.data();
    p.offMeshConAreas = con_areas.data();
    p.offMeshConDir = con_dir.data();
    p.offMeshConUserID = con_ids.data();
    p.offMeshConCount = static_cast<int>(links.size());
    if (!dtCreateNavMeshData(&p, &data, &size)) throw std::runtime_error("dtCreateNavMeshData failed");
  }
  void init_query() {
    query_ = dtAllocNavMeshQuery();
    if (dtStatusFailed(query_->init(mesh_, max_nodes))) throw std::runtime_error("dtNavMeshQuery::init failed");
  }

  dtNavMesh* mesh_ = nullptr;
  dtNavMeshQuery* query_ = nullptr;
  dtPolyRef polys_[max_polys];
  float straight_[3 * max_polys];
};

}  // namespace waymark::test
