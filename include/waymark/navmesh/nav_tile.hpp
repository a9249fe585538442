#pragma once
/// @file NavTile: one tile of a tiled navmesh (Recast's tiled pipeline, Detour's dtMeshTile):
/// its place in the grid of tiles, its exact plan bounds, and its polygons in world
/// coordinates. Tiles are built independently; a tiled world stitches the edges that lie on
/// a shared border line to the polygons of the tile beyond.

#include <compare>
#include <cstdint>

#include "waymark/core/geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::navmesh {

/// A tile's place in the grid of tiles: tile (x, z) covers plan x from origin.x + x × width
/// on, and plan z from origin.z + z × width on.
struct TileCoord {
  std::int32_t x = 0;
  std::int32_t z = 0;
  friend auto operator<=>(const TileCoord&, const TileCoord&) = default;
};

/// One tile. `data` holds its polygons in world coordinates; their neighbours are within the
/// tile, and an edge on the tile's border is a wall here (invalid neighbour) until a tiled
/// world joins it to the tile beyond. Border coordinates are computed the same way in every
/// tile (origin + cell index × cell size, in double), so the corners on a shared border line
/// are bit-identical on both sides.
struct NavTile {
  TileCoord coord;
  /// The tile's plan bounds (x, z); an edge lying exactly on one of its four lines may join
  /// the neighbouring tile.
  Vec2 min;
  Vec2 max;
  NavMeshData data;
};

}  // namespace waymark::navmesh
