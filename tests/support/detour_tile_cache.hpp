#pragma once
// Detour's TileCache (librecast-dev) on the same level and Recast parameters as waymark: the
// peer that obstacle carving is measured against. Built as RecastDemo's "Temp Obstacles"
// sample builds it: each tile rasterised with a border, eroded by the agent radius, cut into
// heightfield layers, kept (here without compression); the navmesh tiles are made from the
// layers, and an obstacle marks its area in the layers it touches and has those tiles rebuilt
// by dtTileCache::update. Written here from Detour's headers; nothing is copied.

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/DetourTileCache.h>
#include <recastnavigation/DetourTileCacheBuilder.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::test {

class DetourTileCache {
 public:
  /// Layers a tile may have (the sample's EXPECTED_LAYERS_PER_TILE).
  static constexpr int layers_per_tile = 4;

  DetourTileCache(const TriangleMesh& mesh, const recast::RecastParams& params, int tile_size, int max_obstacles = 1024)
      : params_(params), tile_size_(tile_size) {
    for (const Vec3& v : mesh.vertices) {
      verts_.insert(verts_.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
    }
    for (const auto& t : mesh.triangles) {
      tris_.insert(tris_.end(), {static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])});
    }
    const int nv = static_cast<int>(mesh.vertices.size()), nt = static_cast<int>(mesh.triangles.size());
    rcCalcBounds(verts_.data(), nv, bmin_, bmax_);
    walkable_.assign(static_cast<std::size_t>(nt), 0);
    rcMarkWalkableTriangles(&ctx_, static_cast<float>(params.agent_max_slope), verts_.data(), nv, tris_.data(), nt,
                            walkable_.data());
    const auto cs = static_cast<float>(params.cell_size);
    int gw = 0, gh = 0;
    rcCalcGridSize(bmin_, bmax_, cs, &gw, &gh);
    tiles_x_ = (gw + tile_size - 1) / tile_size;
    tiles_z_ = (gh + tile_size - 1) / tile_size;

    dtTileCacheParams tcp{};
    rcVcopy(tcp.orig, bmin_);
    tcp.cs = cs;
    tcp.ch = static_cast<float>(params.cell_height);
    tcp.width = tile_size;
    tcp.height = tile_size;
    tcp.walkableHeight = static_cast<float>(params.agent_height);
    tcp.walkableRadius = static_cast<float>(params.agent_radius);
    tcp.walkableClimb = static_cast<float>(params.agent_max_climb);
    tcp.maxSimplificationError = static_cast<float>(params.edge_max_error);
    tcp.maxTiles = tiles_x_ * tiles_z_ * layers_per_tile;
    tcp.maxObstacles = max_obstacles;
    cache_ = dtAllocTileCache();
    if (!cache_ || dtStatusFailed(cache_->init(&tcp, &alloc_, &compressor_, &process_))) {
      throw std::runtime_error("dtTileCache::init failed");
    }

    // Tile and polygon bits of a 32-bit polygon reference, as the sample chooses them.
    int tile_bits = 0;
    while ((1 << tile_bits) < tcp.maxTiles) ++tile_bits;
    tile_bits = std::min(tile_bits, 14);
    dtNavMeshParams np{};
    rcVcopy(np.orig, bmin_);
    np.tileWidth = static_cast<float>(tile_size) * cs;
    np.tileHeight = static_cast<float>(tile_size) * cs;
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    mesh_ = dtAllocNavMesh();
    if (!mesh_ || dtStatusFailed(mesh_->init(&np))) throw std::runtime_error("dtNavMesh::init (tiled) failed");
    query_ = dtAllocNavMeshQuery();
    if (!query_ || dtStatusFailed(query_->init(mesh_, 65535))) throw std::runtime_error("dtNavMeshQuery::init failed");

    for (int z = 0; z < tiles_z_; ++z) {
      for (int x = 0; x < tiles_x_; ++x) add_layers(x, z);
    }
    for (int z = 0; z < tiles_z_; ++z) {
      for (int x = 0; x < tiles_x_; ++x) {
        if (dtStatusFailed(cache_->buildNavMeshTilesAt(x, z, mesh_))) throw std::runtime_error("buildNavMeshTilesAt failed");
      }
    }
  }
  DetourTileCache(const DetourTileCache&) = delete;
  DetourTileCache& operator=(const DetourTileCache&) = delete;
  ~DetourTileCache() {
    dtFreeNavMeshQuery(query_);
    dtFreeNavMesh(mesh_);
    dtFreeTileCache(cache_);
  }

  /// A cylinder standing on `foot` (Detour's addObstacle); 0 when the cache refuses it.
  dtObstacleRef add_cylinder(Vec3 foot, double radius, double height) {
    const float pos[3] = {static_cast<float>(foot.x), static_cast<float>(foot.y), static_cast<float>(foot.z)};
    dtObstacleRef ref = 0;
    if (dtStatusFailed(cache_->addObstacle(pos, static_cast<float>(radius), static_cast<float>(height), &ref))) return 0;
    return ref;
  }
  /// An axis-aligned box (Detour's addBoxObstacle); 0 when the cache refuses it.
  dtObstacleRef add_box(Vec3 min, Vec3 max) {
    const float lo[3] = {static_cast<float>(min.x), static_cast<float>(min.y), static_cast<float>(min.z)};
    const float hi[3] = {static_cast<float>(max.x), static_cast<float>(max.y), static_cast<float>(max.z)};
    dtObstacleRef ref = 0;
    if (dtStatusFailed(cache_->addBoxObstacle(lo, hi, &ref))) return 0;
    return ref;
  }
  bool remove(dtObstacleRef ref) { return dtStatusSucceed(cache_->removeObstacle(ref)); }
  /// dtTileCache::update until the cache is up to date; the number of calls it took.
  int update_all() {
    int calls = 0;
    bool done = false;
    while (!done) {
      if (dtStatusFailed(cache_->update(0, mesh_, &done))) throw std::runtime_error("dtTileCache::update failed");
      ++calls;
    }
    return calls;
  }

  [[nodiscard]] dtNavMesh* nav_mesh() const { return mesh_; }
  [[nodiscard]] dtNavMeshQuery* nav_query() const { return query_; }
  [[nodiscard]] int tiles_x() const { return tiles_x_; }
  [[nodiscard]] int tiles_z() const { return tiles_z_; }
  /// Bytes the cache keeps for its layers (uncompressed here).
  [[nodiscard]] std::size_t layer_bytes() const { return layer_bytes_; }

 private:
  /// Keeps the layers, byte for byte (the sample compresses them with FastLZ).
  struct Copying : dtTileCacheCompressor {
    int maxCompressedSize(const int size) override { return size; }
    dtStatus compress(const unsigned char* in, const int size, unsigned char* out, const int room, int* written) override {
      if (size > room) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
      std::memcpy(out, in, static_cast<std::size_t>(size));
      *written = size;
      return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char* in, const int size, unsigned char* out, const int room, int* written) override {
      return compress(in, size, out, room, written);
    }
  };
  /// Bump allocation from one buffer, reset before each tile (as the sample's LinearAllocator).
  struct Linear : dtTileCacheAlloc {
    std::vector<unsigned char> buffer = std::vector<unsigned char>(std::size_t{64} << 20);
    std::size_t used = 0;
    void reset() override { used = 0; }
    void* alloc(const size_t size) override {
      const std::size_t at = (used + 15) & ~std::size_t{15};
      if (at + size > buffer.size()) return nullptr;
      used = at + size;
      return buffer.data() + at;
    }
    void free(void*) override {}
  };
  /// Walkable layers become area 0 with the walk flag, as waymark's meshes have them.
  struct Process : dtTileCacheMeshProcess {
    void process(dtNavMeshCreateParams* p, unsigned char* areas, unsigned short* flags) override {
      for (int i = 0; i < p->polyCount; ++i) {
        const bool walkable = areas[i] == DT_TILECACHE_WALKABLE_AREA;
        areas[i] = 0;
        flags[i] = walkable ? 0x01 : 0;
      }
    }
  };
  struct Free {
    void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
    void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
    void operator()(rcHeightfieldLayerSet* p) const { rcFreeHeightfieldLayerSet(p); }
  };

  /// Rasterises tile (x, z) with its border and adds its layers to the cache.
  void add_layers(int x, int z) {
    rcConfig cfg{};
    cfg.cs = static_cast<float>(params_.cell_size);
    cfg.ch = static_cast<float>(params_.cell_height);
    cfg.walkableSlopeAngle = static_cast<float>(params_.agent_max_slope);
    cfg.walkableHeight = static_cast<int>(std::ceil(params_.agent_height / params_.cell_height));
    cfg.walkableClimb = static_cast<int>(std::floor(params_.agent_max_climb / params_.cell_height));
    cfg.walkableRadius = static_cast<int>(std::ceil(params_.agent_radius / params_.cell_size));
    cfg.tileSize = tile_size_;
    cfg.borderSize = cfg.walkableRadius + 3;
    cfg.width = cfg.tileSize + 2 * cfg.borderSize;
    cfg.height = cfg.width;
    rcVcopy(cfg.bmin, bmin_);
    rcVcopy(cfg.bmax, bmax_);
    const float tile_width = static_cast<float>(tile_size_) * cfg.cs, border = static_cast<float>(cfg.borderSize) * cfg.cs;
    cfg.bmin[0] = bmin_[0] + static_cast<float>(x) * tile_width - border;
    cfg.bmin[2] = bmin_[2] + static_cast<float>(z) * tile_width - border;
    cfg.bmax[0] = bmin_[0] + static_cast<float>(x + 1) * tile_width + border;
    cfg.bmax[2] = bmin_[2] + static_cast<float>(z + 1) * tile_width + border;

    const std::unique_ptr<rcHeightfield, Free> solid(rcAllocHeightfield());
    if (!solid || !rcCreateHeightfield(&ctx_, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch)) {
      throw std::runtime_error("rcCreateHeightfield failed");
    }
    // The triangles whose plan bounds meet the tile's (a linear scan: the peer's build time is not measured).
    std::vector<int> tris;
    std::vector<unsigned char> areas;
    for (std::size_t t = 0; t < walkable_.size(); ++t) {
      float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
      for (int k = 0; k < 3; ++k) {
        const float* v = &verts_[3 * static_cast<std::size_t>(tris_[3 * t + static_cast<std::size_t>(k)])];
        lo[0] = std::min(lo[0], v[0]), hi[0] = std::max(hi[0], v[0]);
        lo[1] = std::min(lo[1], v[2]), hi[1] = std::max(hi[1], v[2]);
      }
      if (hi[0] < cfg.bmin[0] || lo[0] > cfg.bmax[0] || hi[1] < cfg.bmin[2] || lo[1] > cfg.bmax[2]) continue;
      tris.insert(tris.end(), tris_.begin() + static_cast<std::ptrdiff_t>(3 * t), tris_.begin() + static_cast<std::ptrdiff_t>(3 * t + 3));
      areas.push_back(walkable_[t]);
    }
    if (tris.empty()) return;
    const int nv = static_cast<int>(verts_.size() / 3), nt = static_cast<int>(areas.size());
    if (!rcRasterizeTriangles(&ctx_, verts_.data(), nv, tris.data(), areas.data(), nt, *solid, cfg.walkableClimb)) {
      throw std::runtime_error("rcRasterizeTriangles failed");
    }
    rcFilterLowHangingWalkableObstacles(&ctx_, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx_, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx_, cfg.walkableHeight, *solid);
    const std::unique_ptr<rcCompactHeightfield, Free> chf(rcAllocCompactHeightfield());
    if (!chf || !rcBuildCompactHeightfield(&ctx_, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) ||
        !rcErodeWalkableArea(&ctx_, cfg.walkableRadius, *chf)) {
      throw std::runtime_error("compact heightfield failed");
    }
    const std::unique_ptr<rcHeightfieldLayerSet, Free> layers(rcAllocHeightfieldLayerSet());
    if (!layers || !rcBuildHeightfieldLayers(&ctx_, *chf, cfg.borderSize, cfg.walkableHeight, *layers)) {
      throw std::runtime_error("rcBuildHeightfieldLayers failed");
    }
    for (int i = 0; i < std::min(layers->nlayers, layers_per_tile); ++i) {
      const rcHeightfieldLayer& layer = layers->layers[i];
      dtTileCacheLayerHeader header{};
      header.magic = DT_TILECACHE_MAGIC;
      header.version = DT_TILECACHE_VERSION;
      header.tx = x;
      header.ty = z;
      header.tlayer = i;
      rcVcopy(header.bmin, layer.bmin);
      rcVcopy(header.bmax, layer.bmax);
      header.width = static_cast<unsigned char>(layer.width);
      header.height = static_cast<unsigned char>(layer.height);
      header.minx = static_cast<unsigned char>(layer.minx);
      header.maxx = static_cast<unsigned char>(layer.maxx);
      header.miny = static_cast<unsigned char>(layer.miny);
      header.maxy = static_cast<unsigned char>(layer.maxy);
      header.hmin = static_cast<unsigned short>(layer.hmin);
      header.hmax = static_cast<unsigned short>(layer.hmax);
      unsigned char* data = nullptr;
      int size = 0;
      if (dtStatusFailed(dtBuildTileCacheLayer(&compressor_, &header, layer.heights, layer.areas, layer.cons, &data, &size)) ||
          dtStatusFailed(cache_->addTile(data, size, DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
        dtFree(data);
        throw std::runtime_error("adding a tile cache layer failed");
      }
      layer_bytes_ += static_cast<std::size_t>(size);
    }
  }

  recast::RecastParams params_;
  int tile_size_;
  rcContext ctx_{false};
  std::vector<float> verts_;
  std::vector<int> tris_;
  std::vector<unsigned char> walkable_;
  float bmin_[3]{}, bmax_[3]{};
  int tiles_x_ = 0, tiles_z_ = 0;
  std::size_t layer_bytes_ = 0;
  Copying compressor_;
  Linear alloc_;
  Process process_;
  dtTileCache* cache_ = nullptr;
  dtNavMesh* mesh_ = nullptr;
  dtNavMeshQuery* query_ = nullptr;
};

}  // namespace waymark::test
