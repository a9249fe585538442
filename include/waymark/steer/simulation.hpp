#pragma once
/// @file Simulation: agents in a plane — a grid map's, or a navmesh's plan — that plan with a
/// time-sliced request queue, follow their paths, steer around obstacles and avoid each other,
/// one fixed step at a time.
/// Deterministic: the same agents, map and seed give bit-identical states on every run (one
/// thread, fixed orders, the seeded Random). See docs/steering.md.

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/steer/agent.hpp"
#include "waymark/steer/behaviours.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/orca.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/scene.hpp"
#include "waymark/steer/spatial_hash.hpp"

namespace waymark::steer {

using AgentId = StrongId<struct AgentTag>;

struct SimulationParams {
  std::uint64_t seed = 1;
  /// Weights of the blended behaviours.
  double path_weight = 1.0;
  double avoidance_weight = 1.0;
  AvoidanceParams avoidance{};
  /// Agents avoid each other (ORCA, docs/steering.md); off: they only push apart on contact.
  bool agent_avoidance = true;
  OrcaParams orca{};
  /// Each tick, every preferred velocity turns by a seeded random angle of at most this many
  /// radians: perfectly symmetric crowds (agents swapping on a circle) otherwise meet in a
  /// reciprocal deadlock that ORCA keeps forever. [rad, ≥ 0]
  double preferred_jitter = 0.02;
  /// Path planning: the planner's options, the queue's, and the budget spent on it per tick.
  grid::GridPlannerOptions planner{};
  search::RequestQueueOptions queue{};
  // 10,000 expansions or 80,000 scanned cells: A* as before, jump searches bounded (issue 30).
  search::Budget planning_budget{.expansions = 10'000, .scanned = 80'000};
  /// A planned path is string-pulled for the agent's disc looking this many waypoints ahead.
  std::size_t smoothing_window = 32;
  /// An agent following a path that has stayed within stuck_distance of one spot for
  /// stuck_time plans again from where it is (an agent whose goal proved unreachable does not
  /// try again: the worlds of a simulation do not change). [s, world units]
  double stuck_time = 3.0;
  double stuck_distance = 0.5;
  /// The obstacle world's walls already keep the agents' radius off, as a navmesh Recast
  /// eroded by the agent radius does (Detour's convention): agents then meet walls with their
  /// centre (radius 0) and keep their radius for each other only.
  bool walls_eroded = false;
  /// Passes that push overlapping agents apart after they moved.
  int separation_passes = 2;
  /// An overlap counts as a collision when deeper than this share of the (smaller) radius.
  double collision_tolerance = 0.01;
  /// Clearances are measured up to this far from an agent's disc; min_clearance never
  /// reports more. [world units]
  double clearance_cap = 2.0;

  /// Every limit above holds (the planner's and queue's are checked by their owners).
  [[nodiscard]] bool valid() const;
};

struct SimulationStats {
  std::uint64_t ticks = 0;
  std::size_t arrived = 0;          ///< agents that reached their goal (once reached, counted)
  std::uint64_t collisions = 0;     ///< agent–agent and agent–solid overlaps, per pair and tick
  double min_clearance = std::numeric_limits<double>::infinity();
  std::uint64_t plans = 0;          ///< paths planned, re-plans included
  std::uint64_t replans = 0;        ///< of those, because an agent could not progress
  std::uint64_t failed_plans = 0;   ///< searches that found no path
  std::uint64_t wall_pushes = 0;    ///< moves that were cut short or pushed out by a solid
  std::chrono::nanoseconds tick_time{};  ///< Σ wall time of step()
  [[nodiscard]] double mean_tick_us() const {
    return ticks == 0 ? 0.0 : std::chrono::duration<double, std::micro>(tick_time).count() / static_cast<double>(ticks);
  }
};

/// The largest coordinate an agent's start, goal or waypoint may have, in world units: beyond
/// it squared distances lose the precision avoidance needs. add_agent / add_follower refuse
/// more with BuildError.
inline constexpr double max_coordinate = 1e9;

class Simulation {
 public:
  /// On a grid map, which it owns: paths from a GridPathService (params.planner, params.queue),
  /// the blocked cells (and the outside) solid on layer 0 of the obstacle world, to which more
  /// colliders may be added.
  explicit Simulation(grid::GridMap map, SimulationParams params = {});
  /// On any world: paths from `paths`, walls from `obstacles` (for a navmesh:
  /// NavMeshPathService and add_navmesh_walls). params.planner and params.queue are not used.
  Simulation(std::unique_ptr<PathService> paths, ObstacleWorld obstacles, SimulationParams params = {});
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// The grid map of the first constructor; null for other worlds.
  [[nodiscard]] const grid::GridMap* map() const { return map_.get(); }
  [[nodiscard]] ObstacleWorld& obstacles() { return obstacles_; }
  [[nodiscard]] const ObstacleWorld& obstacles() const { return obstacles_; }

  /// An agent that plans a path from `start` to `goal` and follows it. Throws BuildError (data
  /// outside the documented limits, as every call that adds to a world) when the parameters
  /// are not valid() or a point is not finite.
  AgentId add_agent(const AgentParams& params, Vec2 start, Vec2 goal);
  /// An agent that follows `waypoints` (no planning); looping `laps` times when `loop` (0:
  /// forever), its goal the last waypoint.
  AgentId add_follower(const AgentParams& params, Vec2 start, std::span<const Vec2> waypoints, bool loop,
                       std::uint64_t laps = 0);

  /// Plans every path that is asked for now, spending up to `budget` in all (unlimited by
  /// default), without moving anyone: a warm start before the first step. Returns the agents
  /// still waiting for a path.
  std::size_t plan_pending(const search::Budget& budget = {});

  /// Advances every agent by `dt` seconds. Returns false, doing nothing, when `dt` is not
  /// finite and > 0 (a per-frame call: it refuses, never throws).
  bool step(double dt);

  [[nodiscard]] std::size_t size() const { return agents_.size(); }
  [[nodiscard]] const AgentState& state(AgentId id) const { return agents_[id.value].state; }
  [[nodiscard]] const AgentParams& params(AgentId id) const { return agents_[id.value].params; }
  [[nodiscard]] Vec2 goal(AgentId id) const { return agents_[id.value].goal; }
  [[nodiscard]] bool arrived(AgentId id) const { return agents_[id.value].arrived; }
  [[nodiscard]] bool all_arrived() const { return stats_.arrived == agents_.size(); }
  /// The waypoints the agent follows now (after planning and smoothing).
  [[nodiscard]] std::span<const Vec2> path(AgentId id) const { return agents_[id.value].follower.waypoints(); }
  [[nodiscard]] const PathFollower& follower(AgentId id) const { return agents_[id.value].follower; }
  [[nodiscard]] const SimulationStats& stats() const { return stats_; }
  /// Agents that wait for a path (asked or about to ask), O(agents).
  [[nodiscard]] std::size_t waiting_for_paths() const;
  [[nodiscard]] const SimulationParams& params() const { return params_; }

 private:
  struct Agent {
    AgentParams params;
    AgentState state;
    Vec2 goal;
    PathFollower follower;
    Random random;          ///< its own stream, seeded from the simulation's seed and its index
    bool plans = true;      ///< plans its path (else follows given waypoints)
    bool arrived = false;
    bool unreachable = false;  ///< its last plan found no path: it stays (the worlds here do not change)
    search::RequestId request{};
    Vec2 anchor;             ///< where it was when it last moved stuck_distance
    double still_for = 0;    ///< seconds since then
  };

  [[nodiscard]] double wall_radius(const Agent& a) const { return params_.walls_eroded ? 0.0 : a.params.radius; }
  void submit_plan(Agent& a);
  void collect_plans();
  void separate_agents();
  /// Moves `a` by `move` as far as the walls let it; returns how far it got along `move`.
  double push_apart(Agent& a, Vec2 move);
  void measure();

  std::unique_ptr<grid::GridMap> map_;  // stable address: the path service and obstacle world refer to it
  SimulationParams params_;
  ObstacleWorld obstacles_;
  std::unique_ptr<PathService> paths_;
  OrcaSolver orca_;
  SpatialHash hash_;
  std::vector<Agent> agents_;
  SimulationStats stats_;
  double tick_dt_ = 0;
  // Scratch reused every tick.
  std::vector<OrcaAgent> orca_agents_;
  std::vector<Vec2> velocities_;
  std::vector<Vec2> positions_;
  std::vector<Contact> contacts_;
  std::vector<Vec2> raw_path_;
  std::vector<Vec2> smoothed_;
};

/// The collider an ObstacleSpec describes.
[[nodiscard]] Shape obstacle_shape(const ObstacleSpec& spec);
/// The agent parameters an AgentSpec gives (the rest AgentParams' defaults).
[[nodiscard]] AgentParams agent_params(const AgentSpec& spec);
/// A simulation of `scene` on `map` (the map its `map` field names, loaded by the caller): its
/// obstacles and agents added in file order, params.seed set from the scene. Throws
/// BuildError for values the parameters refuse.
[[nodiscard]] std::unique_ptr<Simulation> make_simulation(const SceneSpec& scene, grid::GridMap map,
                                                          SimulationParams params = {});

}  // namespace waymark::steer
