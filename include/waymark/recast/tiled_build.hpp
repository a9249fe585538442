#pragma once
/// @file Recast's tiled pipeline (RecastDemo's Sample_TileMesh): the level cut into square
/// tiles of tile_size × tile_size voxels, each rasterised from only the triangles that overlap
/// it and its border, built independently on all cores into one navmesh::NavTile. A level far
/// larger than max_heightfield_cells builds this way in memory bounded by the tile size times
/// the threads (besides the level and the tiles built). navmesh::TiledNavMesh stitches the tiles.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_tile.hpp"
#include "waymark/recast/recast_build.hpp"

struct rcCompactHeightfield;

namespace waymark::recast {

/// The most tiles a level may be cut into, empty ones included: the per-tile triangle lists
/// stay small, and tile indices fit Detour's tile bits with room for polygons. [Limit: 2^20 tiles]
inline constexpr std::size_t max_tiles = std::size_t{1} << 20;
/// The fewest voxels a tile's side may have: Recast's watershed leaves the inside of a tile of
/// 2 × 2 voxels in no region and outlines no region of one voxel, so such tiles get no polygons
/// (on nav_test.obj: none at all in tiles of 1; at 2, 19 of RecastDemo's 21 queries failed;
/// from 3 every one succeeds). [Limit: 3]
inline constexpr int min_tile_size = 3;
/// The most voxels a tile's side may have: with its border, its vertices fit Recast's
/// unsigned-short polygon-mesh coordinates. [Limit: 4096]
inline constexpr int max_tile_size = 4096;
/// The most cells (with its border) of one tile's heightfield: Recast's compact heightfield
/// indexes its spans in 24 bits. [Limit: 2^24 cells]
inline constexpr std::size_t max_tile_cells = std::size_t{1} << 24;
/// The most spans one tile's heightfield may hold (Recast's 24-bit span index), checked after
/// rasterising, before compacting. [Limit: 2^24 - 1 spans]
inline constexpr std::size_t max_tile_spans = (std::size_t{1} << 24) - 1;
/// The most polygons and vertices of one tile: Recast's polygon mesh and Detour's tile index
/// them in unsigned shorts, 0xffff meaning none. [Limit: 65534]
inline constexpr std::size_t max_tile_polys = 0xfffe;

/// How to cut the level and how many threads build it.
struct TiledParams {
  RecastParams recast{};
  /// A tile's side in voxels (Recast's tileSize; RecastDemo: 32 to 128). [min_tile_size, max_tile_size]
  int tile_size = 64;
  /// Threads building tiles; 0: std::thread::hardware_concurrency(). [>= 0]
  unsigned threads = 0;
  /// A budget for build_tiles and CarvedNavMesh's first build: no tile is begun after this
  /// time (those under way finish), and the build then throws BuildError saying how many were
  /// begun. A level may hold up to max_tiles tiles of 128² cells: about an hour and a quarter
  /// at the large level's rate (docs/levels.md). Default: none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// Where the tiles lie: tile (x, z) covers global cells x × tile_size … (x + 1) × tile_size − 1
/// (and the same in z), cell (i, k) starting at origin + (i, k) × cell_size. Every coordinate
/// on a grid line is computed by cell_x / cell_z, in double, so neighbouring tiles agree
/// bit for bit on their shared border.
struct TileLayout {
  Vec3 origin;  ///< the level's low corner (Recast's bmin, as floats, plus TiledInput::recast_origin())
  Vec3 top;     ///< the level's high corner (Recast's bmax)
  double cell_size = 0;
  double cell_height = 0;
  int tile_size = 0;
  int border_size = 0;  ///< cells of padding around each tile (walkable radius + 3, as RecastDemo)
  int tiles_x = 0;
  int tiles_z = 0;

  [[nodiscard]] std::size_t tile_count() const { return static_cast<std::size_t>(tiles_x) * static_cast<std::size_t>(tiles_z); }
  /// The tiles as a grid in plan (x, z as Vec2's x, y): its cell (x, z) is tile (x, z), its
  /// index() the tile index.
  [[nodiscard]] UniformGrid grid() const {
    return {{origin.x, origin.z}, cell_size * tile_size, tiles_x, tiles_z};
  }
  /// The tile of index i (row by row: i = z × tiles_x + x).
  [[nodiscard]] navmesh::TileCoord coord(std::size_t i) const {
    return {static_cast<std::int32_t>(i % static_cast<std::size_t>(tiles_x)), static_cast<std::int32_t>(i / static_cast<std::size_t>(tiles_x))};
  }
  /// World x of global cell line i, world z of global cell line k.
  [[nodiscard]] double cell_x(std::int64_t i) const { return origin.x + static_cast<double>(i) * cell_size; }
  [[nodiscard]] double cell_z(std::int64_t k) const { return origin.z + static_cast<double>(k) * cell_size; }
  /// The tile's plan bounds (x, z), without its border.
  [[nodiscard]] Vec2 tile_min(navmesh::TileCoord t) const {
    return {cell_x(std::int64_t{t.x} * tile_size), cell_z(std::int64_t{t.z} * tile_size)};
  }
  [[nodiscard]] Vec2 tile_max(navmesh::TileCoord t) const {
    return {cell_x(std::int64_t{t.x + 1} * tile_size), cell_z(std::int64_t{t.z + 1} * tile_size)};
  }
};

/// The level prepared for tile builds: its triangles in Recast's arrays, which are walkable,
/// and, per tile, the triangles whose plan bounds meet the tile and its border (a uniform-grid
/// broad phase over the tiles). Read-only after construction: tiles may build from it on
/// several threads at once.
class TiledInput {
 public:
  /// Throws BuildError when `params` break their limits (named above) or Recast's
  /// (recast_build.hpp), the level needs more than max_tiles tiles, is taller than
  /// max_level_height_cells or wider than max_level_extent_cells, or a coordinate is not finite.
  TiledInput(const TriangleMesh& mesh, const TiledParams& params);
  TiledInput(TiledInput&&) noexcept;
  TiledInput& operator=(TiledInput&&) noexcept;
  ~TiledInput();

  [[nodiscard]] const TileLayout& layout() const { return layout_; }
  [[nodiscard]] const TiledParams& params() const { return params_; }
  /// The world point of (0, 0, 0) in the tiles' Recast heightfields and meshes (RecastMeshes::origin).
  [[nodiscard]] Vec3 recast_origin() const;
  /// The triangles (indices into the mesh) that tile t rasterises.
  [[nodiscard]] std::span<const std::uint32_t> triangles_of(navmesh::TileCoord t) const;
  /// Whether triangle `triangle` (an index into the mesh) faces up within the agent's slope:
  /// Recast rasterises it as floor.
  [[nodiscard]] bool walkable(std::uint32_t triangle) const;

 private:
  friend class CompactTile;
  struct Level;
  std::unique_ptr<Level> level_;
  TileLayout layout_;
  TiledParams params_;
  CellLists tile_triangles_;
};

/// Step 1 of a tile: its eroded compact heightfield (Recast's rcCompactHeightfield), with the
/// tile's border. What an obstacle that carves would mark areas on (rcMarkCylinderArea …)
/// before building the tile's polygons again.
class CompactTile {
 public:
  CompactTile(CompactTile&&) noexcept;
  CompactTile& operator=(CompactTile&&) noexcept;
  ~CompactTile();

  /// Rasterises tile `t` from the triangles overlapping it and its border, filters ledges and
  /// low spans, compacts and erodes by the agent radius. nullopt when no walkable span lies in
  /// the tile and its border (no triangle overlaps it, or none that faces up). Throws
  /// BuildError when `t` is outside the layout, the tile has more than
  /// max_tile_spans spans (or, filtered, more than max_column_spans over one cell), or a
  /// Recast step fails.
  [[nodiscard]] static std::optional<CompactTile> rasterize(const TiledInput& input, navmesh::TileCoord t);

  [[nodiscard]] navmesh::TileCoord coord() const { return coord_; }
  [[nodiscard]] rcCompactHeightfield& heightfield() { return *chf_; }
  [[nodiscard]] const rcCompactHeightfield& heightfield() const { return *chf_; }

  /// Step 2 in Recast's types: regions, contours, polygons and detail mesh (as Detour builds
  /// its tile from). Rewrites only the heightfield's regions and distances, so it may run again
  /// after areas are marked. nullopt when the tile has no polygons; BuildError when a step
  /// fails, the tile has more than max_regions regions or more than max_tile_polys polygons.
  [[nodiscard]] std::optional<RecastMeshes> build_meshes(const TiledInput& input);

 private:
  struct Free {
    void operator()(rcCompactHeightfield* p) const;
  };
  CompactTile(navmesh::TileCoord t, rcCompactHeightfield* chf) : coord_(t), chf_(chf) {}
  navmesh::TileCoord coord_;
  std::unique_ptr<rcCompactHeightfield, Free> chf_;
};

/// Step 2 done: Recast's polygons of tile `t` as a NavTile, vertices placed by the layout's
/// global cell lines (so shared borders are bit-identical), edges on the tile border walls.
[[nodiscard]] navmesh::NavTile to_nav_tile(const RecastMeshes& meshes, const TiledInput& input, navmesh::TileCoord t);

/// Both steps for tile `t`: nullopt when it has no polygons.
[[nodiscard]] std::optional<navmesh::NavTile> build_tile(const TiledInput& input, navmesh::TileCoord t);

/// Every non-empty tile of the level, built on params.threads threads (each holds one tile's
/// heightfields at a time), in tile order (z, then x). Throws BuildError as TiledInput does,
/// or the first tile's error, or when no tile has a polygon, or when params.deadline passes
/// before every tile was begun.
[[nodiscard]] std::vector<navmesh::NavTile> build_tiles(const TiledInput& input);
[[nodiscard]] std::vector<navmesh::NavTile> build_tiles(const TriangleMesh& mesh, const TiledParams& params = {});

}  // namespace waymark::recast
