#pragma once
/// @file Obstacles that carve a tiled navmesh at run time (Detour's TileCache, Unity's
/// NavMeshObstacle carving): each tile keeps its eroded compact heightfield (recast::CompactTile,
/// step 1 of the tiled build); an obstacle added or removed marks the tiles it touches, and
/// update() rebuilds only those (step 2, from the kept heightfield with every obstacle over it
/// marked unwalkable), within a budget, replacing them in the tiled world.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/tiled_build.hpp"

namespace waymark::recast {

/// The most obstacles one CarvedNavMesh holds at once. [Limit: 65536]
inline constexpr std::size_t max_carved_obstacles = std::size_t{1} << 16;

struct CarveOptions {
  /// Grow each obstacle by the agent radius in plan before carving it (as Unity's carving), so
  /// that an agent's whole disc keeps clear of it, as it keeps clear of walls. Off: the
  /// obstacle's own shape is cut out of the eroded floor (as Detour's TileCache), and only
  /// agents' centres keep out of it.
  bool grow_by_agent_radius = true;
};

/// How much one update() may do. The defaults: everything pending.
struct CarveBudget {
  /// Tiles rebuilt at most (Detour's dtTileCache::update rebuilds one). [>= 1]
  std::size_t max_tiles = std::numeric_limits<std::size_t>::max();
  /// Stops starting tiles once this much wall time has passed (a tile started is finished:
  /// one tile may overrun it). [> 0]
  double max_seconds = std::numeric_limits<double>::infinity();
};

/// What one update() did.
struct CarveUpdate {
  std::size_t rebuilt = 0;  ///< tiles rebuilt (replaced or removed in the world)
  std::size_t pending = 0;  ///< tiles still waiting for a rebuild
  std::size_t failed = 0;   ///< tiles whose rebuild Recast refused: kept as they were
  [[nodiscard]] bool up_to_date() const { return pending == 0; }
};

/// A tiled navmesh whose obstacles carve it. Obstacles are marked on every walkable span of
/// the kept heightfield inside their plan shape (grown by the agent radius unless told not
/// to) whose floor lies from the agent's height (or its climb, if more) under the obstacle's
/// bottom up to its top: every floor an agent standing on it would reach into the obstacle
/// from. An obstacle resting on a floor carves it (on a slope, the ground falling away under
/// its disc too), and not a floor above its top or more than an agent's height below its
/// bottom (docs/carving.md). Marked in double and clamped to each tile, so an obstacle of any
/// size or distance within navmesh::max_obstacle_coordinate carves what it covers.
///
/// Owned by one thread (the game's): add/remove/update are not thread-safe. Queries run on
/// the world's snapshots (navmesh::TiledNavPlanner over world()), which are immutable; a
/// planner goes stale when update() replaces a tile and answers from the new tiles after its
/// sync(). Nothing of a tile is rebuilt but by update(); a tile rebuilt with no obstacle over
/// it again is the tile first built, bit for bit.
class CarvedNavMesh {
 public:
  /// Builds every tile of the level as build_tiles does (on params.threads threads, none begun
  /// after params.deadline), keeping each tile's eroded compact heightfield. Throws BuildError
  /// as build_tiles does.
  CarvedNavMesh(const TriangleMesh& mesh, const TiledParams& params, const CarveOptions& options = {});
  CarvedNavMesh(const CarvedNavMesh&) = delete;
  CarvedNavMesh& operator=(const CarvedNavMesh&) = delete;
  ~CarvedNavMesh();

  /// Adds an obstacle; the tiles it touches wait for update(). Its id (ids are never reused),
  /// or nullopt, nothing changed, when navmesh::find_obstacle_problem finds a problem or
  /// max_carved_obstacles are held.
  std::optional<std::uint32_t> add_obstacle(const navmesh::NavObstacle& obstacle);
  /// Removes obstacle `id`; its tiles wait for update(). False when there is no such obstacle.
  bool remove_obstacle(std::uint32_t id);
  /// Rebuilds waiting tiles, in the order they started waiting, within `budget`.
  CarveUpdate update(const CarveBudget& budget = {});

  [[nodiscard]] std::size_t pending_tiles() const { return pending_.size(); }
  /// The tiled world (a planner's: navmesh::TiledNavPlanner). Not of a temporary: that world
  /// goes with it (`CarvedNavMesh(…).world()` does not compile).
  [[nodiscard]] const navmesh::TiledNavMesh& world() const& { return world_; }
  /// The world itself (e.g. to set its off-mesh links). Replacing its tiles by hand is undone
  /// by the next rebuild of those tiles.
  [[nodiscard]] navmesh::TiledNavMesh& world() & { return world_; }
  const navmesh::TiledNavMesh& world() const&& = delete;  // a temporary's: would dangle
  [[nodiscard]] const TiledInput& input() const& { return input_; }
  const TiledInput& input() const&& = delete;  // a temporary's: would dangle
  /// The obstacles held, by id.
  [[nodiscard]] const std::map<std::uint32_t, navmesh::NavObstacle>& obstacles() const& { return obstacles_; }
  const std::map<std::uint32_t, navmesh::NavObstacle>& obstacles() const&& = delete;  // a temporary's: would dangle
  /// The bytes kept to rebuild tiles: every tile's compact heightfield and its first areas.
  [[nodiscard]] std::size_t kept_bytes() const { return kept_bytes_; }
  /// Tiles kept (those with walkable spans).
  [[nodiscard]] std::size_t kept_tiles() const { return kept_tiles_; }

 private:
  struct Kept;
  /// Queues the tiles whose inside `obstacle` (grown) meets.
  void touch(const navmesh::NavObstacle& obstacle);
  /// Rebuilds tile `index` from its kept heightfield; false when Recast refused.
  bool rebuild(std::size_t index);

  TiledInput input_;
  CarveOptions options_;
  std::vector<std::unique_ptr<Kept>> kept_;  // per tile index (z × tiles_x + x); null: empty tile
  navmesh::TiledNavMesh world_;
  std::map<std::uint32_t, navmesh::NavObstacle> obstacles_;
  std::uint32_t next_id_ = 1;
  std::deque<std::size_t> pending_;
  std::vector<std::uint8_t> is_pending_;  // per tile index
  std::size_t kept_bytes_ = 0;
  std::size_t kept_tiles_ = 0;
};

}  // namespace waymark::recast
