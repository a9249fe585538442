#pragma once
/// @file TiledNavPlanner: NavPlanner's searches over a TiledNavMesh, a world whose tiles change
/// at run time: stale as a grid planner is once a tile changed, until sync().

#include <cstddef>
#include <cstdint>
#include <memory>

#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"

namespace waymark::navmesh {

/// Hands out searches (NavSearchModel's: the same begin, refusals and paths) over the
/// snapshot of a TiledNavMesh it last synced to. world_version() is the world's version();
/// stale() is true once a tile was added, replaced or removed (or the links changed) since
/// sync(). While stale, every search it handed out fails with stale_world at begin() and at
/// its next step(), as grid searches do, and request queues hold its requests until the owner
/// calls sync(); a search begun again after sync() answers from the new snapshot. A handle
/// keeps the snapshot it searches alive, so a stale one never reads freed memory.
///
/// Refers to the world and must not outlive it; handles must not outlive the planner. Any
/// number of threads may use one planner's handles; sync() may not run meanwhile.
class TiledNavPlanner final : public search::SearchSource<Vec3> {
 public:
  /// Synced to the world's snapshot now (stitched if it must be).
  explicit TiledNavPlanner(const TiledNavMesh& world, const NavQueryOptions& options = {}, const QueryFilter& filter = {})
      : world_(&world), options_(options), filter_(filter), snapshot_(world.snapshot()) {}
  explicit TiledNavPlanner(const TiledNavMesh&&, const NavQueryOptions& = {}, const QueryFilter& = {}) = delete;  // would dangle

  [[nodiscard]] search::SearchHandle<Vec3> make_search() const { return make_search(options_.mode, own_query()); }
  [[nodiscard]] search::SearchHandle<Vec3> make_search(const search::QueryOptions<Vec3>& query) const override {
    return make_search(options_.mode, query);
  }
  /// A search in `mode` with these query options. Allocates.
  [[nodiscard]] search::SearchHandle<Vec3> make_search(NavMode mode, const search::QueryOptions<Vec3>& query) const;
  /// One query to its end on a search made for it (stale_world when stale). Allocates.
  [[nodiscard]] search::SearchResult<Vec3> plan(Vec3 from, Vec3 to) const { return plan(from, to, options_.mode); }
  [[nodiscard]] search::SearchResult<Vec3> plan(Vec3 from, Vec3 to, NavMode mode) const {
    return search::run_once(make_search(mode, own_query()), from, to);
  }

  [[nodiscard]] std::uint64_t world_version() const override { return world_->version(); }
  [[nodiscard]] bool stale() const override { return world_->version() != snapshot_->version; }
  /// Takes the world's snapshot at its version now (stitching it when no one has: O(whole
  /// world)); returns that version. @warning Not thread-safe: no search of the planner may run meanwhile.
  std::uint64_t sync() {
    snapshot_ = world_->snapshot();
    return snapshot_->version;
  }
  /// The portal graph's nodes in the synced snapshot (corners, then the start and the goal).
  [[nodiscard]] std::size_t node_count() const override {
    return snapshot_->mesh.data().corners.size() + 2 + snapshot_->mesh.link_traversals().size();
  }

  /// The snapshot searches run on (shared: keep it to query it after the next sync()).
  [[nodiscard]] const std::shared_ptr<const TiledSnapshot>& snapshot() const { return snapshot_; }
  [[nodiscard]] const TiledNavMesh& world() const { return *world_; }
  [[nodiscard]] const NavQueryOptions& options() const { return options_; }
  [[nodiscard]] const QueryFilter& filter() const { return filter_; }

 private:
  [[nodiscard]] search::QueryOptions<Vec3> own_query() const {
    return {.max_nodes = options_.query.max_nodes, .partial_result = options_.query.partial_result};
  }

  const TiledNavMesh* world_;
  NavQueryOptions options_;
  QueryFilter filter_;
  std::shared_ptr<const TiledSnapshot> snapshot_;
};

}  // namespace waymark::navmesh
