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
class TiledNavPlanner final : public search::PlannerBase<TiledNavPlanner, Vec3, NavMode> {
 public:
  using PlannerBase::make_search;

  /// Synced to the world's snapshot now (stitched if it must be).
  explicit TiledNavPlanner(const TiledNavMesh& world, const NavQueryOptions& options = {}, const QueryFilter& filter = {})
      : world_(&world), options_(options), filter_(filter), snapshot_(world.snapshot()) {}
  explicit TiledNavPlanner(const TiledNavMesh&&, const NavQueryOptions& = {}, const QueryFilter& = {}) = delete;  // would dangle

  /// What make_search() and plan() use when not told, as NavPlanner's.
  [[nodiscard]] NavMode default_algorithm() const { return options_.mode; }
  [[nodiscard]] search::QueryOptions<Vec3> default_query() const { return options_.query.with_events<Vec3>(nullptr); }

  /// A search in `mode` with these query options (make_search() and make_search(query): the
  /// defaults above). Allocates. plan(from, to[, mode[, query]]) runs one query to its end on a
  /// search made for it (stale_world when stale); allocates.
  [[nodiscard]] search::SearchHandle<Vec3> make_search(NavMode mode, const search::QueryOptions<Vec3>& query) const;

  [[nodiscard]] std::uint64_t world_version() const override { return world_->version(); }
  [[nodiscard]] bool stale() const override { return world_->version() != snapshot_->version; }
  /// Takes the world's snapshot at its version now (stitching it when no one has: O(whole
  /// world)); returns that version, and 1 recomputed when a new snapshot was taken.
  /// @warning Not thread-safe: no search of the planner may run meanwhile.
  search::SyncReport sync() {
    const bool was_stale = stale();
    snapshot_ = world_->snapshot();
    return {snapshot_->version, was_stale ? 1u : 0u};
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
  const TiledNavMesh* world_;
  NavQueryOptions options_;
  QueryFilter filter_;
  std::shared_ptr<const TiledSnapshot> snapshot_;
};

static_assert(search::Planner<TiledNavPlanner>);

}  // namespace waymark::navmesh
