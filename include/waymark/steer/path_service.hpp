#pragma once
/// @file Where a simulation's agents get their paths: time-sliced searches on some world
/// (search::PathRequestQueue), answered as points in the simulation's plane. GridPathService
/// plans on a GridMap (cells; the plane is the map's world coordinates); NavMeshPathService
/// plans on a NavMesh (the plane is the mesh's plan, x and z, Y being up). add_navmesh_walls
/// gives an ObstacleWorld the mesh's outline, so agents stay on the mesh.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/status.hpp"
#include "waymark/grid/clearance.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer {

/// Where a planned path takes an off-mesh link (navmesh worlds: navmesh::OffMeshLink):
/// points[point] is the link's start and points[point + 1] its end.
struct PathLink {
  std::size_t point = 0;
  std::uint32_t link = 0;     ///< index into the mesh's NavMeshData::links
  std::uint32_t user_id = 0;  ///< the link's OffMeshLink::user_id
  double length = 0;          ///< the 3D distance between its ends: what an agent travels
};

/// Why a path service refused a request (PathService::submit returned an invalid id) or found
/// no path (take() answered failed): PathService::last_failure().
enum class PlanFailure : std::uint8_t {
  none,           ///< no failure: the last submit was accepted, the last take found a path
  queue_full,     ///< submit: every request slot is held (PathService::full): ask again later
  start_outside,  ///< the start lies outside the world (off the map, no polygon of the mesh near it)
  goal_outside,   ///< the goal lies outside the world
  start_closed,   ///< no place of the size class at or near the start: walls, a shut door, the cells colliders
                  ///< close, or a disc too wide for every cell near it
  goal_closed,    ///< the goal lies in a closed place (a wall, a shut door, a collider's cells), or no place of
                  ///< the size class lies near it
  no_path,        ///< the search found no way from start to goal
  search_failed,  ///< the search ended without a path for another reason (its node limit, a world that kept
                  ///< changing, a query the search refused), or a service that does not say why refused it
};
/// "none", "queue_full", "start_outside", "goal_outside", "start_closed", "goal_closed", "no_path" or
/// "search_failed".
[[nodiscard]] std::string_view to_string(PlanFailure failure);

class PathService {
 public:
  enum class Answer : std::uint8_t { pending, found, failed };

  virtual ~PathService() = default;
  /// The size class that plans for agents of `radius` (world units): its paths keep to where
  /// such a disc fits. nullopt when no class of the world fits the radius. Called when an
  /// agent is added; may allocate (a new class).
  [[nodiscard]] virtual std::optional<std::size_t> size_class(double radius) = 0;
  /// Asks for a path from `from` to `to` in `size_class`; an invalid id when refused (the
  /// queue is full, or a point is off the world or not in a place of that class).
  virtual search::RequestId submit(Vec2 from, Vec2 to, std::size_t size_class) = 0;
  /// Brings every planner up to date after the world it plans on was edited (requests on a
  /// stale world wait for this). Nothing to do for worlds that do not change.
  virtual void sync() {}
  /// Warms the request queue's searches up for the size classes in use now
  /// (PathRequestQueue::reserve: node tables, open lists, paths), the pool shared evenly
  /// between them, so that no update() pays for making one. Allocates: call it at load time.
  virtual void reserve() = 0;
  /// Spends one tick's budget on the searches in flight.
  virtual void update(const search::Budget& budget) = 0;
  [[nodiscard]] virtual std::size_t in_flight() const = 0;
  /// Whether submit() would be refused for want of a free request slot (the queue is full):
  /// callers with many requests to make stop asking until take() or release() frees one.
  [[nodiscard]] virtual bool full() const { return false; }
  /// pending while the search runs; otherwise writes the path's points (`points` cleared
  /// first; cell centres or mesh corners between the two ends, which are given exactly as
  /// asked) and the off-mesh links it takes (`links` cleared first: none on worlds without
  /// links; from the world's own result, NavPath::links) for found, and frees the request
  /// either way. Both vectors' capacity is reused.
  virtual Answer take(search::RequestId id, std::vector<Vec2>& points, std::vector<PathLink>& links) = 0;
  /// take() for a caller that does not travel links (the links are dropped). A class that
  /// overrides the form above says `using PathService::take;` to keep this one.
  Answer take(search::RequestId id, std::vector<Vec2>& points) { return take(id, points, dropped_links_); }
  /// Frees a request that is no longer wanted (cancelling it when it runs).
  virtual void release(search::RequestId id) = 0;
  /// The version of the world it plans on, for worlds that change on their own (a tiled or
  /// carved navmesh: TiledNavMesh::version()); a simulation that sees it change calls sync()
  /// and re-plans. 0 for worlds that never change and for worlds whose owner reports their
  /// edits (a simulation's grid map).
  [[nodiscard]] virtual std::uint64_t world_version() const { return 0; }
  /// Why the last submit() returned an invalid id, or the last take() answered failed; none
  /// after an accepted submit or a found take (a pending take changes nothing). A service that
  /// does not say says search_failed for every refusal but a full queue.
  [[nodiscard]] virtual PlanFailure last_failure() const { return full() ? PlanFailure::queue_full : PlanFailure::search_failed; }

 private:
  std::vector<PathLink> dropped_links_;  ///< take(id, points)'s
};

/// What the two services share: a request queue over one world, and for each request slot the
/// two ends asked for (a path begins and ends exactly there).
template <class Node, class WorldResult = void>
class QueuedPathService : public PathService {
 public:
  using PathService::take;
  void update(const search::Budget& budget) override { queue_.update(budget); }
  [[nodiscard]] std::size_t in_flight() const override { return queue_.in_flight(); }
  [[nodiscard]] bool full() const override { return queue_.full(); }
  void release(search::RequestId id) override { queue_.release(id); }
  [[nodiscard]] PlanFailure last_failure() const override { return failure_; }
  void reserve() override {
    const std::size_t worlds = world_count();
    const std::size_t share = std::max<std::size_t>(1, queue_.options().max_searches / std::max<std::size_t>(worlds, 1));
    for (std::size_t k = 0; k < worlds; ++k) queue_.reserve(world(k), {}, share);
  }
  Answer take(search::RequestId id, std::vector<Vec2>& points, std::vector<PathLink>& links) override {
    const search::RequestState state = queue_.state(id);
    if (state == search::RequestState::queued || state == search::RequestState::running) return Answer::pending;
    points.clear();
    links.clear();
    // A partial path (the goal out of reach) is no path to the goal.
    const bool found = queue_.copy_result(id, result_) && result_.status.succeeded() &&
                       !result_.status.has(StatusDetail::partial_result) && !result_.path.nodes.empty();
    const Ends ends = id.slot < ends_.size() ? ends_[id.slot] : Ends{};
    if (found) {
      if constexpr (!std::is_void_v<WorldResult>) {
        if (const WorldResult* world = queue_.world_result(id)) links_of(*world, links);
      }
    }
    queue_.release(id);
    if (!found) {
      failure_ = failure_of(result_.status);
      return Answer::failed;
    }
    failure_ = PlanFailure::none;
    points.push_back(ends.from);
    for (std::size_t i = 1; i + 1 < result_.path.nodes.size(); ++i) points.push_back(point(result_.path.nodes[i]));
    points.push_back(ends.to);
    return Answer::found;
  }

 protected:
  explicit QueuedPathService(const search::RequestQueueOptions& queue) : queue_(queue), ends_(queue.max_requests) {}
  /// Submits on `world` and keeps the ends.
  search::RequestId submit_on(const search::SearchSource<Node>& world, Node start, Node goal, Vec2 from, Vec2 to) {
    const search::RequestId id = queue_.submit(world, start, goal);
    if (id.valid()) ends_[id.slot] = {from, to};
    failure_ = id.valid() ? PlanFailure::none : PlanFailure::queue_full;
    return id;
  }
  /// A refusal of submit(): records why and returns the invalid id.
  search::RequestId refuse(PlanFailure why) {
    failure_ = why;
    return {};
  }
  /// Why a finished search found no path (a partial path is none).
  [[nodiscard]] static PlanFailure failure_of(const Status& status) {
    switch (status.reason()) {
      case FailureReason::none:         // succeeded with a partial path: the goal is out of reach
      case FailureReason::unreachable: return PlanFailure::no_path;
      case FailureReason::start_blocked: return PlanFailure::start_closed;
      case FailureReason::goal_blocked: return PlanFailure::goal_closed;
      default: return PlanFailure::search_failed;
    }
  }
  /// A path node as a point of the plane.
  [[nodiscard]] virtual Vec2 point(const Node& node) const = 0;
  /// The links a found path's world result says it takes, as PathLinks (`links` is empty).
  virtual void links_of(const std::conditional_t<std::is_void_v<WorldResult>, char, WorldResult>& world,
                        std::vector<PathLink>& links) const {
    (void)world;
    (void)links;
  }
  /// The worlds requests are submitted on (one per size class), for reserve().
  [[nodiscard]] virtual std::size_t world_count() const = 0;
  [[nodiscard]] virtual const search::SearchSource<Node>& world(std::size_t k) const = 0;

 private:
  struct Ends {
    Vec2 from;
    Vec2 to;
  };
  search::PathRequestQueue<Node, WorldResult> queue_;
  std::vector<Ends> ends_;  ///< by request slot
  search::SearchResult<Node> result_;
  PlanFailure failure_ = PlanFailure::none;
};

/// Paths on a grid map, for agents of several sizes (docs/clearance.md): class 0 plans on the
/// map itself, for every radius up to half a cell (any passable cell fits such a disc); a
/// larger radius gets a class of its own, a grid::SizeClassMap of the cells where its disc fits
/// on the cell's centre, all sharing one grid::ClearanceMap. Radii that fit the same cells share
/// a class: a cell centre's clearance takes only the values cell_size·√(a² + b²) with a and b
/// in {0, ½, 1½, 2½, …}, so a radius stands for the smallest of those at least it.
class GridPathService final : public QueuedPathService<CellId> {
 public:
  /// Size classes one service keeps; size_class() refuses more.
  static constexpr std::size_t max_size_classes = 16;
  /// The largest radius a class may have, in cells (the clearance map's cap).
  static constexpr double max_class_radius_cells = 64;

  /// Refers to `map`, which must outlive the service; edit it only between updates, then
  /// sync().
  GridPathService(const grid::GridMap& map, const grid::GridPlannerOptions& planner,
                  const search::RequestQueueOptions& queue);
  GridPathService(const grid::GridMap&&, const grid::GridPlannerOptions&, const search::RequestQueueOptions&) = delete;
  ~GridPathService() override;

  /// The class of agents of `radius`, made on first use (building its map allocates and costs
  /// a pass over the map). nullopt for a radius that is negative, not finite, or above
  /// max_class_radius_cells, or when max_size_classes are in use.
  [[nodiscard]] std::optional<std::size_t> size_class(double radius) override;
  /// Plans from `from` to `to` on the class's map. A start in a cell the class's map closes (a
  /// disc too large for it; a cell a collider closes to planning beside the agent), and a goal
  /// in a cell too narrow for the class's disc, move to the nearest cell the disc fits within
  /// (radius / cell_size + 1) cells (the path then ends at that cell's centre); refused
  /// (invalid id, last_failure() start_closed or goal_closed) when there is none, and refused
  /// for an end outside the map (start_outside, goal_outside). A goal in a cell the service's
  /// map closes stays: its search fails at once (goal_closed), and an edit that opens the cell
  /// lets it be found.
  search::RequestId submit(Vec2 from, Vec2 to, std::size_t size_class) override;
  /// Syncs every class's clearance and map with the map's edits, then its planner.
  void sync() override;

  [[nodiscard]] std::size_t size_classes() const { return classes_.size(); }
  /// The map class `k` plans on (the service's map for class 0).
  [[nodiscard]] const grid::GridMap& class_map(std::size_t k) const;
  /// The largest radius class `k` plans for, world units.
  [[nodiscard]] double class_radius(std::size_t k) const { return classes_[k].radius; }

 private:
  struct SizeClass {
    double radius;                               ///< the largest radius of the class
    std::unique_ptr<grid::SizeClassMap> sized;   ///< null for class 0 (the map itself)
    std::unique_ptr<grid::GridPlanner> planner;  ///< the queue's search source for the class
  };
  [[nodiscard]] Vec2 point(const CellId& cell) const override { return map_->cell_center(cell); }
  [[nodiscard]] std::size_t world_count() const override { return classes_.size(); }
  [[nodiscard]] const search::SearchSource<CellId>& world(std::size_t k) const override { return *classes_[k].planner; }
  const grid::GridMap* map_;
  grid::GridPlannerOptions options_;
  std::unique_ptr<grid::ClearanceMap> clearance_;
  std::vector<SizeClass> classes_;
};

/// One navmesh of a NavMeshPathService: Recast's mesh eroded by `radius`, for agents of
/// radius up to it.
struct SizedNavMesh {
  const navmesh::NavMesh* mesh = nullptr;
  double radius = 0;  ///< world units [>= 0]
};

class NavMeshPathService final : public QueuedPathService<Vec3, navmesh::NavPath> {
 public:
  /// One mesh for every agent: refers to `mesh`, which must outlive the service; agents of any
  /// radius plan on it. Plane points are lifted to the mesh's middle height and found with a
  /// box tall enough for the whole mesh, so the simulation is planar: on a mesh with floors
  /// above each other, a point takes the nearest floor.
  NavMeshPathService(const navmesh::NavMesh& mesh, const navmesh::NavQueryOptions& query,
                     const search::RequestQueueOptions& queue);
  NavMeshPathService(const navmesh::NavMesh&&, const navmesh::NavQueryOptions&, const search::RequestQueueOptions&) = delete;
  /// One mesh per radius class (Recast's walkableRadius, one build each): an agent plans on
  /// the mesh of the smallest radius at least its own, so it keeps to passages its disc fits.
  /// Throws BuildError for an empty list, a null mesh or a negative radius.
  NavMeshPathService(std::span<const SizedNavMesh> meshes, const navmesh::NavQueryOptions& query,
                     const search::RequestQueueOptions& queue);
  /// A world whose tiles change (streamed tiles, or recast::CarvedNavMesh::world() as obstacles
  /// carve it): one class, every agent radius, as the one-mesh form; plans on the snapshot
  /// its TiledNavPlanner last synced to. When the world's version() moves on, requests wait
  /// until sync() (which takes the new snapshot, stitching it if no one has) and are then
  /// answered on the world as it is. The box that finds ends is as tall as the world was
  /// when the service was made. Refers to `world`, which must outlive the service.
  NavMeshPathService(const navmesh::TiledNavMesh& world, const navmesh::NavQueryOptions& query,
                     const search::RequestQueueOptions& queue);
  NavMeshPathService(const navmesh::TiledNavMesh&&, const navmesh::NavQueryOptions&, const search::RequestQueueOptions&) = delete;

  /// The class of the smallest mesh radius >= `radius` (the one-mesh form: always 0).
  [[nodiscard]] std::optional<std::size_t> size_class(double radius) override;
  /// Refused (last_failure() start_outside, goal_outside) for an end with no polygon of the
  /// class's mesh within the query's half extents; an end whose polygons the filter excludes
  /// fails its search (start_closed, goal_closed).
  search::RequestId submit(Vec2 from, Vec2 to, std::size_t size_class) override;
  /// A tiled world: takes its new snapshot when it changed. Nothing for fixed meshes.
  void sync() override;
  /// A tiled world's version(); 0 for fixed meshes.
  [[nodiscard]] std::uint64_t world_version() const override { return tiled_ ? tiled_->version() : 0; }
  /// The mesh class `k` plans on now (a tiled world's: its synced snapshot's, valid until the
  /// next sync()).
  [[nodiscard]] const navmesh::NavMesh& class_mesh(std::size_t k) const;

 private:
  /// The path's NavPath::links, their ends points[corner] and points[corner + 1].
  void links_of(const navmesh::NavPath& path, std::vector<PathLink>& links) const override;
  [[nodiscard]] Vec2 point(const Vec3& corner) const override { return navmesh::plan(corner); }
  [[nodiscard]] std::size_t world_count() const override { return classes_.size(); }
  [[nodiscard]] const search::SearchSource<Vec3>& world(std::size_t k) const override { return classes_[k].source(); }
  [[nodiscard]] static navmesh::NavQueryOptions tall(const navmesh::NavMesh& mesh, navmesh::NavQueryOptions query);
  struct Class {
    double radius;  ///< infinity for the one-mesh and tiled forms
    double height;
    std::unique_ptr<navmesh::NavPlanner> fixed;       ///< a mesh that never changes, or
    std::unique_ptr<navmesh::TiledNavPlanner> tiled;  ///< a tiled world's snapshots
    [[nodiscard]] const search::SearchSource<Vec3>& source() const {
      return fixed ? static_cast<const search::SearchSource<Vec3>&>(*fixed) : *tiled;
    }
    [[nodiscard]] const navmesh::NavQueryOptions& options() const { return fixed ? fixed->options() : tiled->options(); }
  };
  std::vector<Class> classes_;  ///< by increasing radius
  const navmesh::TiledNavMesh* tiled_ = nullptr;
};

/// Every boundary edge of `mesh` (an edge with no polygon beyond it) as a segment in plan
/// (x, z), in corner order.
[[nodiscard]] std::vector<Segment2> navmesh_outline(const navmesh::NavMesh& mesh);
/// Adds navmesh_outline(mesh) to `world`, each segment on `layer`. Returns how many it added.
std::size_t add_navmesh_walls(ObstacleWorld& world, const navmesh::NavMesh& mesh, int layer = 0);

}  // namespace waymark::steer
