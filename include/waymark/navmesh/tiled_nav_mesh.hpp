#pragma once
/// @file TiledNavMesh: a world of navmesh tiles (recast::build_tiles, or streamed in) that may
/// be added, replaced and removed at run time, each change bumping version(); its stitched
/// snapshot is one immutable NavMesh in which the edges on shared tile borders are joined.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "waymark/core/keep_ptr.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_tile.hpp"

namespace waymark::navmesh {

/// The tiles of a world stitched into one mesh, as of one version of the world. Immutable:
/// queries on a snapshot stay valid (and memory-safe) after the world changes.
struct TiledSnapshot {
  NavMesh mesh;
  /// The tile each polygon came from (one entry per polygon).
  std::vector<TileCoord> poly_tiles;
  /// The world's version() it was stitched at.
  std::uint64_t version = 0;
  /// Edge pieces joined across tile borders (each join counted once).
  std::size_t joined_edges = 0;

  [[nodiscard]] TileCoord tile_of(PolyId p) const { return poly_tiles[p.value]; }
};

/// Stitches `tiles` into one mesh's data, tile after tile: a wall edge lying exactly on a
/// border line of its tile (both corners' coordinate equal to the tile's min or max, bit for
/// bit) is joined to each wall edge of the neighbouring tile on the same line whose plan
/// interval overlaps it by more than 1e-9 and whose height differs by at most the climb (the
/// larger of the two tiles') at both ends of the overlap. The corners across such a join
/// become one vertex (the lower tile's), and an edge is split at the other side's corners
/// (T-junctions) so each joined piece is an edge of both polygons, as NavMesh requires.
/// The tiles' own off-mesh links are kept, in tile order. `poly_tiles` receives each
/// polygon's tile; `joined` the pieces joined. Throws BuildError
/// when a polygon would have more than max_polygon_corners corners after splitting.
/// O(corners + border edges × edges facing them) time and memory: the whole world each call.
[[nodiscard]] NavMeshData stitch_tiles(std::span<const NavTile* const> tiles, std::vector<TileCoord>& poly_tiles,
                                       std::size_t& joined);

/// `tiles` stitched as a TiledNavMesh holding them stitches its snapshot: in TileCoord order
/// (whatever their order here), the same polygons with the same ids. Throws BuildError as
/// stitch_tiles does.
[[nodiscard]] NavMeshData stitch_tiles(std::span<const NavTile> tiles);

/// Tiles by their TileCoord, and the world's off-mesh links. Editing (set_tile, remove_tile,
/// set_links) and snapshot() are for one thread at a time, the owner (a planner's sync());
/// version() may be read from any thread meanwhile, and a snapshot taken is immutable and
/// shared by any threads.
class TiledNavMesh {
 public:
  TiledNavMesh() = default;
  /// Every tile of `tiles` (as set_tile), and the links.
  explicit TiledNavMesh(std::vector<NavTile> tiles, std::vector<OffMeshLink> links = {});
  TiledNavMesh(const TiledNavMesh&) = delete;
  TiledNavMesh& operator=(const TiledNavMesh&) = delete;

  /// Adds the tile at tile.coord, or replaces the one there (true when it replaced one), and
  /// bumps version(). Throws BuildError (nothing changed) when its data is not a valid NavMesh
  /// or its bounds are not finite with min < max. O(tile) to check it.
  bool set_tile(NavTile tile);
  /// Removes the tile at `coord` (false, nothing changed, when there is none); bumps version().
  bool remove_tile(TileCoord coord);
  /// Replaces the world's off-mesh links (kept in every snapshot, after the tiles' own);
  /// bumps version(). Throws BuildError (nothing changed) naming the first link that
  /// find_link_problem finds a problem with, or past max_links.
  void set_links(std::vector<OffMeshLink> links);

  /// The tile at `coord`, or null.
  [[nodiscard]] const NavTile* tile(TileCoord coord) const;
  [[nodiscard]] std::size_t tile_count() const { return tiles_.size(); }
  [[nodiscard]] const std::vector<OffMeshLink>& links() const { return links_; }
  /// Starts at 0; every change adds one.
  [[nodiscard]] std::uint64_t version() const { return version_.load(std::memory_order_acquire); }

  /// The world stitched at version(): stitched on the first call after a change (O(whole
  /// world), see stitch_tiles), then shared by every caller until the next change. The world
  /// lets go of it at the next snapshot() after a change: keep the pointer to keep it
  /// (`world.snapshot()->mesh` does not compile, as that reference would dangle).
  [[nodiscard]] KeepPtr<const TiledSnapshot> snapshot() const;
  /// snapshot()'s mesh, sharing its ownership (kept the same way).
  [[nodiscard]] KeepPtr<const NavMesh> mesh() const {
    const KeepPtr<const TiledSnapshot> s = snapshot();
    return {s, &s->mesh};
  }

 private:
  std::map<TileCoord, NavTile> tiles_;
  std::vector<OffMeshLink> links_;
  std::atomic<std::uint64_t> version_{0};
  mutable std::mutex snapshot_lock_;
  mutable std::shared_ptr<const TiledSnapshot> snapshot_;
};

}  // namespace waymark::navmesh
