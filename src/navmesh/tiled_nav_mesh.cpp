#include "waymark/navmesh/tiled_nav_mesh.hpp"

#include <algorithm>

#include <cmath>
#include <string>
#include <utility>

#include "waymark/core/text.hpp"

namespace waymark::navmesh {

TiledNavMesh::TiledNavMesh(std::vector<NavTile> tiles, std::vector<OffMeshLink> links) : links_(std::move(links)) {
  for (NavTile& t : tiles) set_tile(std::move(t));
  version_.store(0, std::memory_order_release);
}

bool TiledNavMesh::set_tile(NavTile tile) {
  if (!finite(tile.min) || !finite(tile.max) || !(tile.min.x < tile.max.x) || !(tile.min.y < tile.max.y)) {
    throw BuildError("tile (" + number_text(tile.coord.x) + ", " + number_text(tile.coord.z) +
                     "): its bounds must be finite with min < max");
  }
  try {
    (void)NavMesh(tile.data);  // checks the polygons
  } catch (const BuildError& e) {
    throw BuildError("tile (" + number_text(tile.coord.x) + ", " + number_text(tile.coord.z) + "): " + e.what());
  }
  const TileCoord at = tile.coord;
  const bool replaced = !tiles_.insert_or_assign(at, std::move(tile)).second;
  version_.fetch_add(1, std::memory_order_acq_rel);
  return replaced;
}

bool TiledNavMesh::remove_tile(TileCoord coord) {
  if (tiles_.erase(coord) == 0) return false;
  version_.fetch_add(1, std::memory_order_acq_rel);
  return true;
}

void TiledNavMesh::set_links(std::vector<OffMeshLink> links) {
  if (links.size() > max_links) throw BuildError("tiled world: more links than max_links (" + number_text(max_links) + ")");
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (const auto why = find_link_problem(links[i])) throw BuildError("tiled world: link " + number_text(i) + ": " + *why);
  }
  links_ = std::move(links);
  version_.fetch_add(1, std::memory_order_acq_rel);
}

const NavTile* TiledNavMesh::tile(TileCoord coord) const {
  const auto it = tiles_.find(coord);
  return it == tiles_.end() ? nullptr : &it->second;
}

NavMeshData stitch_tiles(std::span<const NavTile> tiles) {
  std::vector<const NavTile*> ordered;
  ordered.reserve(tiles.size());
  for (const NavTile& t : tiles) ordered.push_back(&t);
  std::sort(ordered.begin(), ordered.end(), [](const NavTile* a, const NavTile* b) { return a->coord < b->coord; });
  std::vector<TileCoord> poly_tiles;
  std::size_t joined = 0;
  return stitch_tiles(ordered, poly_tiles, joined);
}

KeepPtr<const TiledSnapshot> TiledNavMesh::snapshot() const {
  const std::lock_guard<std::mutex> hold(snapshot_lock_);
  const std::uint64_t now = version();
  if (snapshot_ && snapshot_->version == now) return snapshot_;
  std::vector<const NavTile*> tiles;
  tiles.reserve(tiles_.size());
  for (const auto& entry : tiles_) tiles.push_back(&entry.second);
  std::vector<TileCoord> poly_tiles;
  std::size_t joined = 0;
  NavMeshData data = stitch_tiles(tiles, poly_tiles, joined);
  data.links.insert(data.links.end(), links_.begin(), links_.end());
  snapshot_ = std::make_shared<const TiledSnapshot>(TiledSnapshot{NavMesh(std::move(data)), std::move(poly_tiles), now, joined});
  return snapshot_;
}

}  // namespace waymark::navmesh
