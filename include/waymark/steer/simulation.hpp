#pragma once
/// @file Simulation: agents in a plane — a grid map's, or a navmesh's plan — that plan with a
/// time-sliced request queue, follow their paths, steer around obstacles and avoid each other,
/// one fixed step at a time, and take orders while they run (new goals, stop, resume, warp,
/// removal) in a world the game edits (doors, crates). See docs/steering.md and docs/live_game.md.
/// Deterministic: the same agents, map, orders, edits and seed give bit-identical states on
/// every run and in every build (one thread, fixed orders, the seeded Random, no FP
/// contraction).

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/steer/agent.hpp"
#include "waymark/steer/behaviours.hpp"
#include "waymark/steer/obstacle_lines.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/orca.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/scene.hpp"
#include "waymark/steer/spatial_hash.hpp"

namespace waymark::steer {

using AgentId = StrongId<struct AgentTag>;

/// Where an agent stands, as the game reads it each tick.
enum class AgentStatus : std::uint8_t {
  planning,     ///< waiting for a path: asked for one, or about to ask
  moving,       ///< following its path
  arrived,      ///< at its goal; it stays until given a new one
  unreachable,  ///< its last plan found no path, or the path service refused it (an end off the world or closed:
                ///< Simulation::reason says which), at once and without a search: it stands until a new goal,
                ///< a warp, or an edit of the world lets it try again
  stuck,        ///< following its path without progress (SimulationParams' stuck rule) after stuck_replans
                ///< re-plans: it stops asking; moving again once it progresses
  stopped,      ///< told to stop(): brakes and holds until resume()
  removed,      ///< removed; its id is not reused
  on_link,      ///< travelling an off-mesh link of its path (Simulation::link_travel): a jump, a drop, a ladder
};
[[nodiscard]] std::string_view to_string(AgentStatus status);

/// Why an agent is in the state it ends in (Simulation::reason): each final state says why.
enum class AgentReason : std::uint8_t {
  none,           ///< no state to explain: planning, moving, stopped, removed, on a link, or arrived at its path's end
  start_outside,  ///< unreachable: it stands outside the world the paths are planned on (off the map, off the mesh)
  goal_outside,   ///< unreachable: its goal lies outside that world
  start_closed,   ///< unreachable: no free place its disc fits at or near where it stands (walls, shut doors,
                  ///< the cells colliders close, a disc too wide), and none to push it to
  goal_closed,    ///< unreachable: its goal lies in a closed place (a wall, a shut door, a collider's cells),
                  ///< or no place its disc fits lies near it
  no_path,        ///< unreachable: the search found no way there
  search_failed,  ///< unreachable: the search ended without a path for another reason (its node limit, a world
                  ///< that kept changing; PathService::last_failure)
  crowded_goal,   ///< arrived: another agent stands on its goal, and it stopped within
                  ///< SimulationParams::crowded_stop_distance of it
  no_progress,    ///< stuck: the stuck rule saw no progress through SimulationParams::stuck_replans re-plans
};
/// "none", "start_outside", "goal_outside", "start_closed", "goal_closed", "no_path", "search_failed",
/// "crowded_goal" or "no_progress".
[[nodiscard]] std::string_view to_string(AgentReason reason);

struct SimulationParams {
  std::uint64_t seed = 1;
  /// Weights of the blended behaviours: path following, and ray-based obstacle avoidance
  /// (AvoidanceParams: three raycasts an agent a tick). The rays are off by default since ORCA
  /// keeps agents off walls itself (obstacle_avoidance): measured on orz703d, the rays on top
  /// cost 25-40 % of a tick and bought no collision or arrival (docs/live_game.md). Give them
  /// a weight (1 was the default before) when obstacle_avoidance is off.
  double path_weight = 1.0;
  double avoidance_weight = 0.0;
  AvoidanceParams avoidance{};
  /// Agents avoid each other (ORCA, docs/steering.md); off: they only push apart on contact.
  bool agent_avoidance = true;
  /// ORCA also keeps agents off the obstacle world's solids (ObstacleLines, rebuilt when
  /// colliders are added or removed or the map is edited); the wall pushes after the move
  /// stay as the last resort. Off: walls are met by ray avoidance and the pushes alone.
  bool obstacle_avoidance = true;
  /// ORCA's parameters; the margin keeps crowds pressed against walls from overlapping.
  OrcaParams orca{.radius_margin = 0.02};
  /// Each tick, every preferred velocity turns by a seeded random angle of at most this many
  /// radians: perfectly symmetric crowds (agents swapping on a circle) otherwise meet in a
  /// reciprocal deadlock that ORCA keeps forever. [rad, ≥ 0]
  double preferred_jitter = 0.02;
  /// Path planning: the queue's options and the budget spent on it per tick (what only one
  /// kind of world plans with is in GridWorldParams and NavMeshWorldParams).
  search::RequestQueueOptions queue{};
  // 10,000 expansions or 80,000 scanned cells: A* as before, jump searches bounded (issue 30).
  search::Budget planning_budget{.expansions = 10'000, .scanned = 80'000};
  /// A planned path is string-pulled for the agent's disc looking this many waypoints ahead.
  std::size_t smoothing_window = 32;
  /// Waypoints each agent has room for from the start, so that a new goal or a re-plan
  /// allocates nothing for paths up to this long (16 bytes each; longer paths grow the room
  /// once).
  std::size_t reserve_waypoints = 32;
  /// The stuck rule. An agent following a path makes progress when it gets stuck_distance
  /// away from where it last progressed (its anchor) or, on the last stretch of its path (the
  /// straight line to its goal), when it gets stuck_distance nearer its goal than the anchor is:
  /// there, circling a goal it cannot reach is no progress. Without progress for stuck_time
  /// it plans again from where it is (an agent whose goal proved unreachable tries again only
  /// after an order or an edit of the world). [s > 0, world units >= 0]
  double stuck_time = 3.0;
  double stuck_distance = 0.5;
  /// Re-plans in a row without progress before an agent reports AgentStatus::stuck (reason
  /// no_progress) and stops asking: stuck_time · (stuck_replans + 1) seconds without progress,
  /// 12 s by default (it keeps following its path; progress, an order or an edit clears it).
  /// [>= 1]
  std::uint32_t stuck_replans = 3;
  /// Unity's stopping distance, for a crowded goal: an agent whose goal another agent stands
  /// on (one that arrived or was stopped there, its centre nearer the goal than the two radii:
  /// no room for this agent's disc) has arrived when it is on the last stretch of its path with
  /// its centre within this distance of the goal and the crowd holds it back (in the last tick
  /// it came nearer by less than the stuck rule's pace, stuck_distance per stuck_time). It then
  /// brakes and stands (status arrived, reason crowded_goal) until a new goal, also when the
  /// agent holding the goal was only stopped there and later leaves; farther out it
  /// goes on and, if it cannot come nearer, ends stuck by the rule above. The default leaves
  /// room for two rings of agents of the default radius (0.35) round the one on the goal; 0
  /// turns it off (every agent but the first at a shared goal then ends stuck). [world units,
  /// >= 0]
  double crowded_stop_distance = 1.5;
  /// The obstacle world's walls already keep the agents' radius off, as a navmesh Recast
  /// eroded by the agent radius does (Detour's convention): agents then meet walls with their
  /// centre (radius 0) and keep their radius for each other only. The navmesh constructor
  /// sets it from its NavMeshWorldParams (true for one eroded mesh); the others read it.
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
  std::size_t arrived = 0;          ///< agents at their goal now (a new goal takes one out again)
  std::uint64_t collisions = 0;     ///< agent–agent and agent–solid overlaps, per pair and tick
  double min_clearance = std::numeric_limits<double>::infinity();
  std::uint64_t plans = 0;          ///< paths planned, re-plans included
  std::uint64_t replans = 0;        ///< of those, because an agent could not progress
  std::uint64_t failed_plans = 0;   ///< searches that found no path
  std::uint64_t refused_plans = 0;  ///< requests the path service refused (an end off the world or closed):
                                    ///< the agent became unreachable without a search
  std::uint64_t wall_pushes = 0;    ///< moves that were cut short or pushed out by a solid
  std::size_t removed = 0;          ///< agents removed (neither arrived nor failed)
  std::uint64_t edit_replans = 0;   ///< of the plans, because an edit crossed the agent's remaining path
  std::uint64_t pushed_out = 0;     ///< agents moved to the nearest free cell when theirs closed, or warped into a solid
  std::uint64_t edits = 0;          ///< world changes absorbed (map edits, obstacles added or removed)
  std::chrono::nanoseconds tick_time{};  ///< Σ wall time of step()
  [[nodiscard]] double mean_tick_us() const {
    return ticks == 0 ? 0.0 : std::chrono::duration<double, std::micro>(tick_time).count() / static_cast<double>(ticks);
  }
};

/// An agent on an off-mesh link (Simulation::link_travel): which link, and how far along.
struct LinkTravel {
  std::uint32_t link = 0;     ///< index into the mesh's NavMeshData::links
  std::uint32_t user_id = 0;  ///< the link's OffMeshLink::user_id (which animation to play)
  Vec2 from;                  ///< where it left its path (the link's start, in plan)
  Vec2 to;                    ///< the link's end
  double progress = 0;        ///< the share of the link travelled, [0, 1]
};

/// What only a simulation on a grid map uses (Simulation(GridMap, SimulationParams, GridWorldParams)).
struct GridWorldParams {
  /// The planner's options (the algorithm, the diagonal rule, costs).
  grid::GridPlannerOptions planner{};
  /// Colliders added with add_obstacle() (and a scene's obstacles) close every cell whose
  /// centre lies within half a cell of them to planning: a gap a crate fills is routed
  /// around, not walked into. false: only avoidance sees them.
  bool plan_around_obstacles = true;
};

/// What only a simulation on a navmesh uses (Simulation(const NavMesh&, SimulationParams,
/// NavMeshWorldParams)).
struct NavMeshWorldParams {
  /// The queries' options: the mode (shortest unless told), limits; half extents as
  /// NavMeshPathService raises them (tall enough for the whole mesh: the simulation is planar).
  navmesh::NavQueryOptions query{};
  /// Empty (the default): every agent plans on the simulation's mesh, which Recast eroded by
  /// the agents' radius, so its outline keeps their centres (walls_eroded, Detour's and Unity's
  /// convention). Otherwise one mesh per agent radius class (Recast's walkableRadius, one build
  /// each; each must outlive the simulation): an agent plans on the class of the smallest
  /// radius at least its own, and the simulation's mesh is the floor uneroded (a build of
  /// radius 0), whose outline agents meet with their own radius.
  std::span<const SizedNavMesh> classes{};
  /// The obstacle world's layer the mesh's outline goes on.
  int wall_layer = 0;
};

/// The largest coordinate an agent's start, goal or waypoint may have, in world units: beyond
/// it squared distances lose the precision avoidance needs. add_agent / add_follower refuse
/// more with BuildError.
inline constexpr double max_coordinate = 1e9;

class Simulation {
 public:
  /// On a grid map, which it owns and the game may edit (edit_map()): paths from a
  /// GridPathService (grid.planner, params.queue) on the map's passable cells where each
  /// agent's disc fits, less the cells colliders close (grid.plan_around_obstacles); the map's
  /// blocked cells (and the outside) solid on layer 0 of the obstacle world, to which more
  /// colliders may be added.
  explicit Simulation(grid::GridMap map, SimulationParams params = {}, GridWorldParams grid = {});
  /// On a navmesh, in one call (the plane is the mesh's plan: x, z; Y up): paths from a
  /// NavMeshPathService (navmesh.query, params.queue) on `mesh` or on navmesh.classes, the
  /// mesh's outline as walls (add_navmesh_walls, on navmesh.wall_layer), and walls_eroded
  /// set as the classes say (params.walls_eroded is not read). Refers to `mesh` and the
  /// classes' meshes, which must outlive the simulation. Throws BuildError as
  /// NavMeshPathService does (a null class mesh, a negative radius).
  Simulation(const navmesh::NavMesh& mesh, SimulationParams params = {}, const NavMeshWorldParams& navmesh = {});
  Simulation(const navmesh::NavMesh&&, SimulationParams = {}, const NavMeshWorldParams& = {}) = delete;  // would dangle
  /// On a navmesh whose tiles change while the agents walk (streamed tiles, or obstacles a
  /// recast::CarvedNavMesh carves: pass its world()): paths from a NavMeshPathService on the
  /// world's snapshots, the outline of the snapshot as walls, walls_eroded (the tiles Recast
  /// eroded by the agents' radius). When the world's version() moves on, the next step()
  /// takes its new snapshot, replaces the walls that changed (only those: the rest keep their
  /// ids), re-plans the agents whose remaining path comes near a changed wall (all of them when
  /// no wall changed, e.g. a change of links), and lets unreachable and stuck agents try again.
  /// navmesh.classes must be empty (one class for every radius): BuildError otherwise. Refers
  /// to `world`, which must outlive the simulation; change it only between steps.
  Simulation(const navmesh::TiledNavMesh& world, SimulationParams params = {}, const NavMeshWorldParams& navmesh = {});
  Simulation(const navmesh::TiledNavMesh&&, SimulationParams = {}, const NavMeshWorldParams& = {}) = delete;
  /// On any world: paths from `paths`, walls from `obstacles` (a path service of your own;
  /// the navmesh constructor above makes NavMeshPathService and add_navmesh_walls' walls).
  /// params.queue is not used.
  Simulation(std::unique_ptr<PathService> paths, ObstacleWorld obstacles, SimulationParams params = {});
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  ~Simulation();

  /// The grid map of the first constructor; null for other worlds.
  [[nodiscard]] const grid::GridMap* map() const { return map_.get(); }
  /// The grid map to edit between steps (set_passable, set_cost_multiplier, zones): the next
  /// step() reads its change log, re-plans only the agents whose remaining path crosses a
  /// changed cell (in the same planning budget), lets agents whose goal was unreachable try
  /// again, and moves an agent whose cell closed to the nearest free cell's centre. Null for
  /// other worlds. Do not keep the pointer past the simulation.
  [[nodiscard]] grid::GridMap* edit_map() { return map_.get(); }
  /// The map paths are planned on: the grid map less the cells colliders close; null for
  /// other worlds.
  [[nodiscard]] const grid::GridMap* planning_map() const { return plan_map_.get(); }
  /// The colliders agents steer around and collide with. Add and remove run-time colliders
  /// with add_obstacle() / remove_obstacle(), which planning also sees; what is added here
  /// directly only avoidance sees.
  [[nodiscard]] ObstacleWorld& obstacles() { return obstacles_; }
  [[nodiscard]] const ObstacleWorld& obstacles() const { return obstacles_; }

  /// A collider on `layer` (a crate, a vehicle) that avoidance sees at once and, on a grid
  /// with plan_around_obstacles, planning from the next step (as a map edit: the agents whose
  /// path it crosses re-plan). Throws BuildError as ObstacleWorld::add.
  ColliderId add_obstacle(Shape shape, int layer = 0);
  /// Takes a collider out again (planning sees the cells open from the next step). False,
  /// changing nothing, when `id` is not a collider of the world or was removed. (Removing a
  /// collider of add_obstacle through obstacles().remove() instead leaves its cells closed.)
  bool remove_obstacle(ColliderId id);

  /// An agent that plans a path from `start` to `goal` and follows it. Throws BuildError (data
  /// outside the documented limits, as every call that adds to a world) when the parameters
  /// are not valid(), a point is not finite or beyond max_coordinate, or no size class of the
  /// world fits its radius. A start or goal the path service refuses — off the map or the
  /// mesh, in a closed place with no place near — is kept: the agent is unreachable at its
  /// first planning round, without a search (reason() says which end and why).
  AgentId add_agent(const AgentParams& params, Vec2 start, Vec2 goal);
  /// An agent that follows `waypoints` (no planning); looping `laps` times when `loop` (0:
  /// forever), its goal the last waypoint.
  AgentId add_follower(const AgentParams& params, Vec2 start, std::span<const Vec2> waypoints, bool loop,
                       std::uint64_t laps = 0);

  // ---- orders (per-frame calls: they refuse with false, never throw, and allocate nothing) --
  /// A new goal: the agent plans again from where it is, through the request queue, and
  /// stands until the path comes (usually the next step). A follower becomes a planning agent.
  /// Clears stopped. False for an id that is not a live agent or a point beyond max_coordinate.
  /// The goal is kept as given (Unity's SetDestination would move it): one outside the world,
  /// or in a closed place, makes the agent unreachable at once (goal_outside, goal_closed) — a
  /// closed one until an edit opens it; one in a cell too narrow for the agent's disc moves to
  /// the nearest cell it fits (GridPathService::submit), where the path then ends.
  bool set_goal(AgentId id, Vec2 goal);
  /// The agent brakes and holds where it is (it is still avoided, and still yields to others).
  bool stop(AgentId id);
  /// A stopped agent goes on with its path (false when it was not stopped).
  bool resume(AgentId id);
  /// Takes an agent out of the simulation: nothing sees it again, its request is released.
  bool remove_agent(AgentId id);
  /// Moves the agent to `position` at once (the game moved the unit), at rest; a planning
  /// agent plans again from there. On a grid, as Unity's NavMeshAgent.Warp: a point outside
  /// the map is refused (false, nothing changes), and one in a solid — a closed cell of the
  /// planning map (a wall, a shut door, a cell a collider closes, edits since the last step
  /// included) or inside a collider — puts the agent at the centre of the nearest free cell
  /// instead, as an edit pushes agents out (SimulationStats::pushed_out); refused when no cell
  /// is free. Other worlds take any point; one off the world makes a planning agent
  /// unreachable (start_outside).
  bool warp(AgentId id, Vec2 position);

  /// Warms planning up before the first step: the request queue's searches are made and sized
  /// now (PathService::reserve), so no step pays for making one (2–7 ms on a 512² map). Call it
  /// after adding the agents; an agent of a size class made later warms nothing. Allocates.
  void reserve_planning() { paths_->reserve(); }

  /// Plans the paths asked for now, without moving anyone: a warm start before the first step.
  /// A budget of time alone, or none (the default), is spent until every search in flight has
  /// ended (at most PathRequestQueue's max_requests of them: call again while it returns more
  /// than 0); a budget of expansions or scanned cells is handed to one update of the queue.
  /// Returns the agents still waiting for a path.
  std::size_t plan_pending(const search::Budget& budget = {});

  /// Advances every agent by `dt` seconds. Returns false, doing nothing, when `dt` is not
  /// finite and > 0 (a per-frame call: it refuses, never throws).
  bool step(double dt);

  // ---- per-agent state, read each tick (ids of removed agents stay valid to ask) -----------
  // Each takes an id the simulation handed out: [Limit: contains(id), i.e. id < size();
  // unchecked]. Orders, by contrast, refuse any id.
  /// Agents ever added, removed ones included: ids run from 0 to size() - 1.
  [[nodiscard]] std::size_t size() const { return agents_.size(); }
  /// Agents not removed.
  [[nodiscard]] std::size_t live_agents() const { return agents_.size() - stats_.removed; }
  [[nodiscard]] bool contains(AgentId id) const { return id.value < agents_.size(); }
  [[nodiscard]] AgentStatus status(AgentId id) const;
  /// Why it is in its status: for unreachable which end the path service refused or what the
  /// search found, for stuck no_progress, for arrived crowded_goal when it stopped short of a
  /// goal another agent stands on; none for every other status.
  [[nodiscard]] AgentReason reason(AgentId id) const;
  [[nodiscard]] const AgentState& state(AgentId id) const { return agents_[id.value].state; }
  [[nodiscard]] Vec2 position(AgentId id) const { return agents_[id.value].state.position; }
  [[nodiscard]] Vec2 velocity(AgentId id) const { return agents_[id.value].state.velocity; }
  [[nodiscard]] const AgentParams& params(AgentId id) const { return agents_[id.value].params; }
  [[nodiscard]] Vec2 goal(AgentId id) const { return agents_[id.value].goal; }
  [[nodiscard]] bool arrived(AgentId id) const { return agents_[id.value].arrived; }
  /// Every agent not removed has arrived.
  [[nodiscard]] bool all_arrived() const { return stats_.arrived == live_agents(); }
  /// The waypoints the agent follows now (after planning and smoothing).
  [[nodiscard]] std::span<const Vec2> path(AgentId id) const { return agents_[id.value].follower.waypoints(); }
  /// The waypoint it heads for now (the current corner), or nullopt without a path.
  [[nodiscard]] std::optional<Vec2> corner(AgentId id) const;
  /// The rest of its path: the current corner and every waypoint after it (empty without one).
  [[nodiscard]] std::span<const Vec2> remaining_path(AgentId id) const;
  /// The size class it plans in (PathService::size_class).
  [[nodiscard]] std::size_t size_class(AgentId id) const { return agents_[id.value].size_class; }
  /// The off-mesh link it travels now (status on_link), or nullopt. An agent reaching a link's
  /// start on its path (a navmesh path that takes a link: PathService::take lists them) travels
  /// straight to the link's end at its max_speed over the link's 3D length, whatever is in the
  /// way: meanwhile it is out of the plane — it neither steers nor avoids, walls and other
  /// agents do not push it, others do not avoid it or count collisions with it — and it does
  /// not plan (a new goal is planned from where it lands; stop() holds it once it lands).
  /// warp() and remove_agent() end the travel at once.
  [[nodiscard]] std::optional<LinkTravel> link_travel(AgentId id) const;
  /// The links its path takes from here on: waypoint path()[point] is each one's start and
  /// the next waypoint its end.
  [[nodiscard]] std::span<const PathLink> path_links(AgentId id) const;
  [[nodiscard]] const PathFollower& follower(AgentId id) const { return agents_[id.value].follower; }
  [[nodiscard]] const SimulationStats& stats() const { return stats_; }
  /// A hash of the exact bits of every agent's position, velocity and heading and of its
  /// status, in id order: peers of a lockstep game compare it to catch a desync at once (the
  /// trace_identity test compares it across builds). O(agents).
  [[nodiscard]] std::uint64_t state_hash() const;
  /// Agents that wait for a path (asked or about to ask), O(agents).
  [[nodiscard]] std::size_t waiting_for_paths() const;
  /// Every live agent has arrived, is unreachable or is stopped: no step changes any status
  /// again without an order or an edit of the world (stuck agents still follow their paths and
  /// may arrive; waiting ones get their paths). A run loop with no order or edit to come can
  /// end here, as `waymark simulate` does. O(agents).
  [[nodiscard]] bool settled() const;
  /// A lower bound on the seconds until every live agent has arrived: the longest remaining
  /// path (the way to its current corner and on along its waypoints; a looping follower's
  /// laps left included) over that agent's max_speed, 0 when all have arrived. nullopt when
  /// some live agent cannot be bounded: it waits for a path, is unreachable, stuck, stopped,
  /// on a link, or loops forever. O(agents + waypoints).
  [[nodiscard]] std::optional<double> arrival_time_bound() const;
  [[nodiscard]] const SimulationParams& params() const { return params_; }
  /// The grid constructor's GridWorldParams (the defaults for other worlds).
  [[nodiscard]] const GridWorldParams& grid_params() const { return grid_; }
  [[nodiscard]] const PathService& paths() const { return *paths_; }

 private:
  struct Agent {
    AgentParams params;
    AgentState state;
    Vec2 goal;
    PathFollower follower;
    Random random;          ///< its own stream, seeded from the simulation's seed and its index
    std::size_t size_class = 0;
    bool plans = true;      ///< plans its path (else follows given waypoints)
    bool arrived = false;
    bool unreachable = false;  ///< its last plan found no path: it waits for an order or an edit
    bool stopped = false;
    bool stuck = false;
    bool removed = false;
    bool crowded = false;      ///< arrived short of a goal another agent stands on (crowded_stop_distance)
    PlanFailure failure = PlanFailure::none;  ///< why it is unreachable
    std::uint32_t fruitless_replans = 0;  ///< stuck re-plans since it last progressed
    std::vector<PathLink> links;  ///< its path's off-mesh links (point: a waypoint index)
    std::size_t next_link = 0;    ///< the first of them not yet travelled
    bool on_link = false;         ///< travelling a link (`travel`)
    LinkTravel travel;            ///< the link it travels, kept should its path change meanwhile
    double link_time = 0;         ///< seconds on it so far
    double link_duration = 0;     ///< seconds the whole link takes
    search::RequestId request{};
    Vec2 anchor;             ///< where it was when it last moved stuck_distance
    double still_for = 0;    ///< seconds since then
    /// On the last stretch of its path: its distance to the path's end after the last tick.
    double last_to_end = std::numeric_limits<double>::infinity();
  };
  /// A live agent's slot, or null for an id that is not one.
  [[nodiscard]] Agent* live(AgentId id);
  [[nodiscard]] double wall_radius(const Agent& a) const { return params_.walls_eroded ? 0.0 : a.params.radius; }
  void submit_plan(Agent& a);
  /// Marks the agent unreachable for `why` (a refused request or a failed search): it stands.
  void set_unreachable(Agent& a, PlanFailure why);
  /// Whether another agent that arrived or was stopped stands on `a`'s path end (within the
  /// two radii of it); reads the spatial hash measure() built this tick.
  [[nodiscard]] bool goal_taken(const Agent& a) const;
  // Off-mesh links (simulation_links.cpp).
  /// Smooths raw_path_ into the agent's follower, stretch by stretch between the links it
  /// takes (path_links_, from the same take()), keeping each link's two ends as waypoints.
  void set_planned_path(Agent& a);
  /// Starts, advances or ends the agent's travel along a link of its path; true while it
  /// travels (it then takes no part in steering, moving or avoidance this tick).
  bool travel_link(Agent& a, double dt);
  /// Forgets the agent's path and request, so that it asks again (a planning agent).
  void replan(Agent& a);
  void set_arrived(Agent& a, bool arrived);
  void collect_plans();
  /// The live agents' positions in positions_ and their indices in position_index_; returns
  /// their largest radius.
  double gather_live_positions();
  void separate_agents();
  /// Moves `a` by `move` as far as the walls let it; returns how far it got along `move`.
  double push_apart(Agent& a, Vec2 move);
  void measure();
  // The world's edits (simulation_world.cpp).
  /// Brings the planning map, the planners and the agents up to date with edits since the
  /// last step: re-plans whose remaining path crosses a changed cell, pushes agents out of
  /// closed cells.
  void absorb_edits();
  /// Applies the base map's edits to the planning map; false when it had to copy it whole.
  bool copy_map_edits();
  /// Marks the cells collider `id` closes to planning (+1) or opens again (-1).
  void cover_cells(ColliderId id, int delta);
  /// Writes the cells of `area` on the planning map from the base map and the covering
  /// colliders.
  void refresh_plan_area(grid::CellRect area);
  /// Lists a changed area for the next absorb_edits (or marks everything changed when the list
  /// is full).
  void note_change(grid::CellRect area);
  /// Whether `p` lies in a cell that changed since the last step.
  [[nodiscard]] bool in_changed_cell(Vec2 p) const;
  [[nodiscard]] bool path_crosses(const Agent& a, Vec2 lo, Vec2 hi) const;
  /// Grids: moves an agent standing in a closed cell of the planning map, or with its centre
  /// inside a solid, to the centre of the nearest free cell, at rest. True when it stands clear
  /// now (it did, or it was moved); false off the map or when no cell is free.
  bool push_out_of_solid(Agent& a);
  /// Rebuilds lines_ when the obstacle world (its version) or its map (the map's version)
  /// changed since the last build.
  void refresh_lines();
  /// A path service whose world changed on its own (PathService::world_version): syncs it
  /// and, on a tiled navmesh, replaces the walls that changed, listing where.
  void absorb_world_change();
  /// A tiled world's walls: the outline of `mesh`, the segments not in tiled_walls_ added,
  /// those no longer in it removed; each change's box goes to changed_areas_.
  void replace_tiled_walls(const navmesh::NavMesh& mesh);

  std::unique_ptr<grid::GridMap> map_;       // stable address: the obstacle world reads it
  std::unique_ptr<grid::GridMap> plan_map_;  // the map less collider cells: the path service plans on it
  SimulationParams params_;
  GridWorldParams grid_;
  ObstacleWorld obstacles_;
  std::unique_ptr<PathService> paths_;
  OrcaSolver orca_;
  ObstacleLines lines_;  ///< the obstacle world's solids as ORCA's wall edges
  std::uint64_t lines_world_version_ = 0;  ///< obstacles_.version() at the last rebuild
  std::uint64_t lines_map_version_ = 0;    ///< and its map's
  bool lines_built_ = false;
  SpatialHash hash_;
  double max_live_radius_ = 0;  ///< the largest radius of the agents in measure()'s hash
  std::vector<Agent> agents_;
  SimulationStats stats_;
  double tick_dt_ = 0;
  // Edits.
  std::uint64_t map_seen_ = 0;              ///< map_->version() the planning map has caught up with
  std::vector<std::uint32_t> cover_;        ///< per cell: planning colliders that close it
  static constexpr std::size_t max_listed_changes = 64;
  std::vector<grid::CellRect> changed_;     ///< cells changed since the last step (planning map)
  std::vector<std::uint8_t> planning_colliders_;  ///< by ColliderId: added by add_obstacle and counted in cover_
  bool changed_all_ = false;                ///< too much changed to list: everyone re-plans
  std::uint64_t world_seen_ = 0;            ///< paths_->world_version() last absorbed
  std::vector<Aabb2> changed_areas_;        ///< world areas changed since the last step (tiled navmeshes)
  const navmesh::TiledNavMesh* tiled_ = nullptr;  ///< the tiled constructor's world
  int wall_layer_ = 0;
  /// A tiled world's outline: each wall segment (a.x, a.y, b.x, b.y in plan) and its collider.
  std::map<std::array<double, 4>, ColliderId> tiled_walls_;
  // Scratch reused every tick.
  std::vector<OrcaAgent> orca_agents_;
  std::vector<std::uint32_t> orca_index_;   ///< the agent behind each entry of orca_agents_
  std::vector<Vec2> velocities_;
  std::vector<Vec2> positions_;
  std::vector<std::uint32_t> position_index_;  ///< the agent behind each entry of positions_
  std::vector<Contact> contacts_;
  std::vector<Vec2> raw_path_;
  std::vector<Vec2> smoothed_;
  std::vector<Vec2> stretch_;          ///< one stretch of raw_path_ between links
  std::vector<Vec2> joined_;           ///< the smoothed stretches, joined
  std::vector<PathLink> path_links_;   ///< the links raw_path_ takes
};

/// The collider an ObstacleSpec describes.
[[nodiscard]] Shape obstacle_shape(const ObstacleSpec& spec);
/// The agent parameters an AgentSpec gives (the rest AgentParams' defaults).
[[nodiscard]] AgentParams agent_params(const AgentSpec& spec);
/// A simulation of `scene` on `map` (the map its `map` field names, loaded by the caller): its
/// obstacles and agents added in file order, params.seed set from the scene. Throws
/// BuildError for values the parameters refuse.
[[nodiscard]] std::unique_ptr<Simulation> make_simulation(const SceneSpec& scene, grid::GridMap map,
                                                          SimulationParams params = {}, const GridWorldParams& grid = {});

}  // namespace waymark::steer
