#include "waymark/steer/simulation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/text.hpp"

namespace waymark::steer {

bool SimulationParams::valid() const {
  const auto at_least = [](double x, double lo) { return std::isfinite(x) && x >= lo; };
  const AvoidanceParams& a = avoidance;
  return at_least(path_weight, 0) && at_least(avoidance_weight, 0) && at_least(a.min_look, 0) &&
         at_least(a.look_time, 0) && at_least(a.whisker_angle, 0) && a.whisker_angle <= std::numbers::pi &&
         at_least(a.whisker_share, 0) && a.whisker_share <= 1 && at_least(a.strength, 0) &&
         at_least(preferred_jitter, 0) && preferred_jitter <= std::numbers::pi && smoothing_window >= 1 &&
         at_least(stuck_time, 0) && stuck_time > 0 && at_least(stuck_distance, 0) && separation_passes >= 0 &&
         at_least(collision_tolerance, 0) && at_least(clearance_cap, 0) && clearance_cap > 0 && stuck_replans >= 1 &&
         at_least(crowded_stop_distance, 0);
}

std::string_view to_string(AgentStatus status) {
  switch (status) {
    case AgentStatus::planning: return "planning";
    case AgentStatus::moving: return "moving";
    case AgentStatus::arrived: return "arrived";
    case AgentStatus::unreachable: return "unreachable";
    case AgentStatus::stuck: return "stuck";
    case AgentStatus::stopped: return "stopped";
    case AgentStatus::removed: return "removed";
    case AgentStatus::on_link: return "on_link";
  }
  return "unknown";
}

std::string_view to_string(AgentReason reason) {
  switch (reason) {
    case AgentReason::none: return "none";
    case AgentReason::start_outside: return "start_outside";
    case AgentReason::goal_outside: return "goal_outside";
    case AgentReason::start_closed: return "start_closed";
    case AgentReason::goal_closed: return "goal_closed";
    case AgentReason::no_path: return "no_path";
    case AgentReason::search_failed: return "search_failed";
    case AgentReason::crowded_goal: return "crowded_goal";
    case AgentReason::no_progress: return "no_progress";
  }
  return "unknown";
}

namespace {

bool within_world(Vec2 p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::abs(p.x) <= max_coordinate && std::abs(p.y) <= max_coordinate;
}

const SimulationParams& checked(const SimulationParams& params) {
  if (!params.valid()) throw BuildError("simulation parameters out of range");
  return params;
}

/// The solver's parameters: without agent avoidance it looks at walls only.
OrcaParams solver_params(const SimulationParams& params) {
  OrcaParams p = params.orca;
  if (!params.agent_avoidance) p.max_neighbours = 0;
  return p;
}

}  // namespace

Simulation::Simulation(grid::GridMap map, SimulationParams params, GridWorldParams grid)
    : map_(std::make_unique<grid::GridMap>(std::move(map))),
      plan_map_(std::make_unique<grid::GridMap>(*map_)),
      params_(checked(params)),
      grid_(std::move(grid)),
      paths_(std::make_unique<GridPathService>(*plan_map_, grid_.planner, params_.queue)),
      orca_(solver_params(params_)),
      map_seen_(map_->version()),
      cover_(map_->cell_count(), 0) {
  obstacles_.set_grid(map_.get(), 0);
  changed_.reserve(max_listed_changes);
}

Simulation::Simulation(std::unique_ptr<PathService> paths, ObstacleWorld obstacles, SimulationParams params)
    : params_(checked(params)), obstacles_(std::move(obstacles)), paths_(std::move(paths)), orca_(solver_params(params_)) {
  if (!paths_) throw BuildError("Simulation: a path service is required");
}

namespace {

std::unique_ptr<PathService> navmesh_paths(const navmesh::NavMesh& mesh, const SimulationParams& params,
                                           const NavMeshWorldParams& world) {
  if (world.classes.empty()) return std::make_unique<NavMeshPathService>(mesh, world.query, params.queue);
  return std::make_unique<NavMeshPathService>(world.classes, world.query, params.queue);
}

ObstacleWorld navmesh_walls(const navmesh::NavMesh& mesh, int layer) {
  ObstacleWorld walls;
  add_navmesh_walls(walls, mesh, layer);
  return walls;
}

SimulationParams with_walls_eroded(SimulationParams params, bool eroded) {
  params.walls_eroded = eroded;
  return params;
}

}  // namespace

Simulation::Simulation(const navmesh::NavMesh& mesh, SimulationParams params, const NavMeshWorldParams& navmesh)
    : Simulation(navmesh_paths(mesh, params, navmesh), navmesh_walls(mesh, navmesh.wall_layer),
                 with_walls_eroded(params, navmesh.classes.empty())) {}

Simulation::Simulation(const navmesh::TiledNavMesh& world, SimulationParams params, const NavMeshWorldParams& navmesh)
    : Simulation(std::make_unique<NavMeshPathService>(world, navmesh.query, params.queue), ObstacleWorld{},
                 with_walls_eroded(params, true)) {
  if (!navmesh.classes.empty()) throw BuildError("Simulation: a tiled navmesh plans one class for every radius (classes must be empty)");
  tiled_ = &world;
  wall_layer_ = navmesh.wall_layer;
  world_seen_ = paths_->world_version();
  const KeepPtr<const navmesh::TiledSnapshot> now = world.snapshot();
  replace_tiled_walls(now->mesh);
  changed_areas_.clear();
}

Simulation::~Simulation() = default;

AgentId Simulation::add_agent(const AgentParams& params, Vec2 start, Vec2 goal) {
  if (!params.valid()) throw BuildError("agent parameters out of range");
  if (!within_world(start) || !within_world(goal)) {
    throw BuildError("an agent's start and goal must be finite and within +-" + number_text(max_coordinate));
  }
  const std::optional<std::size_t> size_class = paths_->size_class(params.radius);
  if (!size_class) {
    throw BuildError("no size class of the world fits an agent of radius " + number_text(params.radius) +
                     " (give the path service a mesh of that radius or more)");
  }
  Agent a;
  a.follower.reserve(params_.reserve_waypoints);
  a.size_class = *size_class;
  a.params = params;
  a.state.position = start;
  a.goal = goal;
  a.anchor = start;
  a.random = Random(params_.seed ^ (0x9E3779B97F4A7C15ULL * (agents_.size() + 1)));
  agents_.push_back(std::move(a));
  return AgentId{static_cast<std::uint32_t>(agents_.size() - 1)};
}

AgentId Simulation::add_follower(const AgentParams& params, Vec2 start, std::span<const Vec2> waypoints, bool loop,
                                 std::uint64_t laps) {
  if (waypoints.empty()) throw BuildError("a follower needs at least one waypoint");
  for (const Vec2 w : waypoints) {
    if (!within_world(w)) throw BuildError("a follower's waypoints must be finite and within +-" + number_text(max_coordinate));
  }
  const AgentId id = add_agent(params, start, waypoints.back());
  Agent& a = agents_[id.value];
  a.plans = false;
  a.follower.set_path(waypoints, loop, laps);
  return id;
}

void Simulation::submit_plan(Agent& a) {
  if (a.request.valid()) paths_->release(a.request);
  a.request = paths_->submit(a.state.position, a.goal, a.size_class);
  if (a.request.valid()) return;
  // Refused for a full queue: it asks again at the next call. For its ends (off the world,
  // closed with no place near): it cannot be placed, and no later tick would place it without
  // an order or an edit, so it is unreachable now.
  const PlanFailure why = paths_->last_failure();
  if (why == PlanFailure::queue_full) return;
  ++stats_.refused_plans;
  set_unreachable(a, why);
}

void Simulation::set_unreachable(Agent& a, PlanFailure why) {
  a.unreachable = true;
  a.failure = why;
  a.stuck = false;
  a.fruitless_replans = 0;
  a.follower.clear();  // it stands: the old path (a stuck re-plan keeps it until now) leads nowhere
  a.links.clear();
  a.next_link = 0;
  a.anchor = a.state.position;
  a.still_for = 0;
}

void Simulation::replan(Agent& a) {
  if (a.request.valid()) paths_->release(a.request);
  a.request = {};
  a.follower.clear();
  a.links.clear();
  a.next_link = 0;
  a.unreachable = false;
  a.failure = PlanFailure::none;
  a.stuck = false;
  a.fruitless_replans = 0;
  a.anchor = a.state.position;
  a.still_for = 0;
  a.last_to_end = std::numeric_limits<double>::infinity();
}

void Simulation::set_arrived(Agent& a, bool arrived) {
  if (!arrived) a.crowded = false;
  if (a.arrived == arrived) return;
  a.arrived = arrived;
  if (arrived) {
    ++stats_.arrived;
  } else {
    --stats_.arrived;
  }
}

Simulation::Agent* Simulation::live(AgentId id) {
  if (id.value >= agents_.size() || agents_[id.value].removed) return nullptr;
  return &agents_[id.value];
}

AgentStatus Simulation::status(AgentId id) const {
  const Agent& a = agents_[id.value];
  if (a.removed) return AgentStatus::removed;
  if (a.on_link) return AgentStatus::on_link;
  if (a.stopped) return AgentStatus::stopped;
  if (a.arrived) return AgentStatus::arrived;
  if (a.unreachable) return AgentStatus::unreachable;
  if (a.plans && (a.request.valid() || a.follower.empty())) return AgentStatus::planning;
  if (a.stuck) return AgentStatus::stuck;
  return AgentStatus::moving;
}

AgentReason Simulation::reason(AgentId id) const {
  const Agent& a = agents_[id.value];
  switch (status(id)) {
    case AgentStatus::arrived: return a.crowded ? AgentReason::crowded_goal : AgentReason::none;
    case AgentStatus::stuck: return AgentReason::no_progress;
    case AgentStatus::unreachable:
      switch (a.failure) {
        case PlanFailure::start_outside: return AgentReason::start_outside;
        case PlanFailure::goal_outside: return AgentReason::goal_outside;
        case PlanFailure::start_closed: return AgentReason::start_closed;
        case PlanFailure::goal_closed: return AgentReason::goal_closed;
        case PlanFailure::no_path: return AgentReason::no_path;
        case PlanFailure::none:
        case PlanFailure::queue_full:
        case PlanFailure::search_failed: return AgentReason::search_failed;
      }
      return AgentReason::search_failed;
    default: return AgentReason::none;
  }
}

std::optional<Vec2> Simulation::corner(AgentId id) const {
  const PathFollower& f = agents_[id.value].follower;
  if (f.empty()) return std::nullopt;
  return f.waypoints()[f.current()];
}

std::span<const Vec2> Simulation::remaining_path(AgentId id) const {
  const PathFollower& f = agents_[id.value].follower;
  return f.empty() ? std::span<const Vec2>{} : f.waypoints().subspan(f.current());
}

bool Simulation::set_goal(AgentId id, Vec2 goal) {
  Agent* a = live(id);
  if (a == nullptr || !within_world(goal)) return false;
  a->goal = goal;
  a->plans = true;
  a->stopped = false;
  set_arrived(*a, false);
  replan(*a);
  return true;
}

bool Simulation::stop(AgentId id) {
  Agent* a = live(id);
  if (a == nullptr) return false;
  a->stopped = true;
  return true;
}

bool Simulation::resume(AgentId id) {
  Agent* a = live(id);
  if (a == nullptr || !a->stopped) return false;
  a->stopped = false;
  a->anchor = a->state.position;
  a->still_for = 0;
  return true;
}

bool Simulation::remove_agent(AgentId id) {
  Agent* a = live(id);
  if (a == nullptr) return false;
  if (a->request.valid()) paths_->release(a->request);
  a->request = {};
  set_arrived(*a, false);
  a->on_link = false;
  a->removed = true;
  a->state.velocity = {};
  ++stats_.removed;
  return true;
}

bool Simulation::warp(AgentId id, Vec2 position) {
  Agent* a = live(id);
  if (a == nullptr || !within_world(position)) return false;
  const AgentState was = a->state;
  a->state.position = position;
  if (plan_map_) {
    // Off the map: refused, as Unity's Warp refuses a point off the navmesh. In a solid: put
    // at the nearest free cell, as an edit closing its cell would (the edits since the last
    // step first, so that a door closed this frame counts); refused when none is free.
    if (map_->version() != map_seen_) copy_map_edits();
    if (!plan_map_->world_to_cell(position) || !push_out_of_solid(*a)) {
      a->state = was;
      return false;
    }
  }
  a->state.velocity = {};
  a->last_to_end = std::numeric_limits<double>::infinity();
  a->on_link = false;
  set_arrived(*a, false);  // a follower too: it was moved away from where it stood
  if (a->plans) replan(*a);
  a->anchor = a->state.position;
  a->still_for = 0;
  return true;
}

void Simulation::collect_plans() {
  for (Agent& a : agents_) {
    if (!a.plans || a.removed || a.on_link) continue;
    if (!a.request.valid()) {
      // With the queue full, every other submit would be refused after its lookups: the agent
      // asks again at the next call (a warm start of n agents stays O(n) per call).
      if (a.follower.empty() && !a.arrived && !a.unreachable && !paths_->full()) submit_plan(a);
      continue;
    }
    const PathService::Answer answer = paths_->take(a.request, raw_path_, path_links_);
    if (answer == PathService::Answer::pending) continue;
    a.request = {};
    ++stats_.plans;
    a.anchor = a.state.position;
    a.still_for = 0;
    if (answer == PathService::Answer::failed) {
      ++stats_.failed_plans;
      set_unreachable(a, paths_->last_failure());
      continue;
    }
    a.unreachable = false;
    a.failure = PlanFailure::none;
    // The path starts where the agent was when it asked: it goes on from where it is now.
    raw_path_.front() = a.state.position;
    set_planned_path(a);
  }
}

bool Simulation::step(double dt) {
  if (!(dt > 0) || !std::isfinite(dt)) return false;  // a query: refused, never thrown
  const auto started = std::chrono::steady_clock::now();
  tick_dt_ = dt;
  absorb_edits();
  collect_plans();
  if (paths_->in_flight() > 0) paths_->update(params_.planning_budget);
  collect_plans();

  // Preferred velocities from the blended behaviours, for the agents not removed.
  orca_agents_.clear();
  orca_index_.clear();
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    Agent& a = agents_[i];
    if (a.removed || travel_link(a, dt)) continue;
    AgentParams p = a.params;
    p.response_time = std::max(p.response_time, dt);  // a faster response would overshoot in one step
    AgentParams wall_p = p;  // walls already eroded: they keep the centre off, not the rim
    wall_p.radius = wall_radius(a);
    // Without a path yet (or at all), stopped, or stopped short of a crowded goal, it brakes to a stand.
    const Vec2 follow = a.follower.empty() || a.stopped || a.crowded ? steer_toward(p, a.state, {})
                                                                     : a.follower.force(p, a.state, dt);
    // The rays cost three raycasts an agent: skipped when their weight is 0.
    const Vec2 avoid = params_.avoidance_weight > 0 ? avoid_obstacles(wall_p, a.state, obstacles_, params_.avoidance) : Vec2{};
    const WeightedForce forces[] = {{follow, params_.path_weight}, {avoid, params_.avoidance_weight}};
    Vec2 preferred = integrate_velocity(p, a.state.velocity, blend(forces, p.max_force), dt);
    if (params_.preferred_jitter > 0) {
      const double turn = a.random.uniform(-params_.preferred_jitter, params_.preferred_jitter);
      const double c = std::cos(turn), sn = std::sin(turn);
      preferred = {preferred.x * c - preferred.y * sn, preferred.y * c + preferred.x * sn};
    }
    orca_agents_.push_back(OrcaAgent{.position = a.state.position,
                                     .velocity = a.state.velocity,
                                     .preferred_velocity = preferred,
                                     .radius = p.radius,
                                     .max_speed = p.max_speed,
                                     .wall_radius = wall_p.radius,
                                     .obstacle_mask = a.params.avoid_mask});
    orca_index_.push_back(static_cast<std::uint32_t>(i));
  }
  const std::size_t n = orca_agents_.size();
  velocities_.resize(n);
  for (std::size_t k = 0; k < n; ++k) velocities_[k] = orca_agents_[k].preferred_velocity;
  // Agents and parameters are checked when added, so the solver has nothing to refuse; should
  // it refuse all the same, this tick goes without avoidance (a per-frame call never throws).
  const bool walls = params_.obstacle_avoidance && n > 0;
  if (walls) refresh_lines();
  if ((walls || (params_.agent_avoidance && n > 1)) &&
      (walls ? orca_.solve(orca_agents_, lines_, dt, velocities_) : orca_.solve(orca_agents_, dt, velocities_)) !=
          AvoidanceStatus::ok) {
    for (std::size_t k = 0; k < n; ++k) velocities_[k] = orca_agents_[k].preferred_velocity;
  }

  for (std::size_t k = 0; k < n; ++k) {
    Agent& a = agents_[orca_index_[k]];
    a.state.velocity = velocities_[k];
    const MoveResult moved = move_disc(obstacles_, a.state, wall_radius(a), dt, a.params.avoid_mask, contacts_);
    stats_.wall_pushes += (moved.blocked || moved.pushed) ? 1 : 0;
  }
  separate_agents();
  measure();  // before the arrivals: goal_taken() reads the hash it builds

  // The stuck rule's pace, stuck_distance per stuck_time, over this tick.
  const double pace = params_.stuck_distance * dt / params_.stuck_time;
  for (Agent& a : agents_) {
    if (a.removed || a.on_link || a.arrived) continue;
    // At the end of its path: the goal, or the nearest place its size class fits when the goal
    // itself does not (PathService::submit moves such a goal). Short of a goal another agent
    // stands on: within crowded_stop_distance of it (Unity's stopping distance) once the crowd
    // holds it back, coming nearer slower than the stuck rule's pace.
    const bool last = a.follower.on_last();
    const Vec2 end = last ? a.follower.waypoints().back() : Vec2{};
    const double to_end = last ? distance(a.state.position, end) : 0;
    if (last) {
      const double came = a.last_to_end - to_end;
      a.last_to_end = to_end;
      if (to_end <= a.params.radius) {
        set_arrived(a, true);
      } else if (to_end <= params_.crowded_stop_distance && came < pace && goal_taken(a)) {
        set_arrived(a, true);
        a.crowded = true;  // it brakes and stands where it is
        if (a.request.valid()) paths_->release(a.request);  // a stuck re-plan it no longer needs
        a.request = {};
        a.stuck = false;
      }
    }
    // Stuck: following a path, yet no progress (SimulationParams' stuck rule) for stuck_time.
    if (a.arrived || a.stopped || !a.plans || a.unreachable || a.request.valid() || a.follower.empty()) continue;
    // On the last stretch, progress is coming nearer the goal; elsewhere, leaving the anchor.
    const bool progressed = last ? to_end <= distance(a.anchor, end) - params_.stuck_distance
                                 : distance(a.state.position, a.anchor) >= params_.stuck_distance;
    if (progressed) {
      a.anchor = a.state.position;
      a.still_for = 0;
      a.stuck = false;
      a.fruitless_replans = 0;
    } else if ((a.still_for += dt) >= params_.stuck_time) {
      a.anchor = a.state.position;
      a.still_for = 0;
      if (a.fruitless_replans >= params_.stuck_replans) {
        a.stuck = true;  // it keeps following its path; progress clears this
        continue;
      }
      ++a.fruitless_replans;
      ++stats_.replans;
      submit_plan(a);
    }
  }
  ++stats_.ticks;
  stats_.tick_time += std::chrono::steady_clock::now() - started;
  return true;
}

void Simulation::refresh_lines() {
  const grid::GridMap* map = obstacles_.grid();
  const std::uint64_t map_version = map != nullptr ? map->version() : 0;
  if (lines_built_ && lines_world_version_ == obstacles_.version() && lines_map_version_ == map_version) return;
  lines_.rebuild(obstacles_);
  lines_built_ = true;
  lines_world_version_ = obstacles_.version();
  lines_map_version_ = map_version;
}

std::size_t Simulation::plan_pending(const search::Budget& budget) {
  absorb_edits();
  collect_plans();
  // The queue gives each running search one turn per update(): a single update would leave
  // most of a large budget unspent, and a caller looping until nobody waits would scan every
  // agent once per turn (a warm start of 20,000 agents on den520d: 59 s, two thirds of it in
  // those scans). A budget of time alone, or none, is spent here until the searches in flight
  // end; one of expansions or scanned cells gets one update (the queue counts those per update).
  // The world cannot change in between: absorb_edits() has synced the planners.
  if (budget.expansions == search::Budget::unlimited && budget.scanned == search::Budget::unlimited) {
    const bool timed = budget.time != search::Budget::Clock::duration::max();
    const search::Budget::Clock::time_point deadline = timed ? search::Budget::Clock::now() + budget.time : search::Budget::Clock::time_point{};
    while (paths_->in_flight() > 0) {
      search::Budget left = budget;
      if (timed) {
        left.time = deadline - search::Budget::Clock::now();
        if (left.time <= search::Budget::Clock::duration::zero()) break;
      }
      paths_->update(left);
    }
  } else {
    paths_->update(budget);
  }
  collect_plans();
  return waiting_for_paths();
}

std::uint64_t Simulation::state_hash() const {
  Hasher h;
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    const AgentState& st = agents_[i].state;
    for (const double v : {st.position.x, st.position.y, st.velocity.x, st.velocity.y, st.heading.x, st.heading.y}) {
      h.add(std::bit_cast<std::uint64_t>(v));
    }
    h.add(static_cast<std::uint64_t>(status(AgentId{static_cast<std::uint32_t>(i)})));
  }
  return h.value();
}

std::size_t Simulation::waiting_for_paths() const {
  std::size_t n = 0;
  for (const Agent& a : agents_) {
    n += a.plans && !a.removed && (a.request.valid() || (a.follower.empty() && !a.arrived && !a.unreachable));
  }
  return n;
}

bool Simulation::goal_taken(const Agent& a) const {
  const Vec2 goal = a.follower.waypoints().back();
  bool taken = false;
  // measure()'s hash: every live agent off links, by its index in positions_.
  hash_.for_each_within(goal, a.params.radius + max_live_radius_, [&](std::size_t j, double d2) {
    const Agent& b = agents_[position_index_[j]];
    if (taken || &b == &a || !(b.arrived || b.stopped)) return;
    const double room = a.params.radius + b.params.radius;
    taken = d2 < room * room;
  });
  return taken;
}

bool Simulation::settled() const {
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    const AgentStatus st = status(AgentId{static_cast<std::uint32_t>(i)});
    if (st != AgentStatus::arrived && st != AgentStatus::unreachable && st != AgentStatus::stopped && st != AgentStatus::removed)
      return false;
  }
  return true;
}

std::optional<double> Simulation::arrival_time_bound() const {
  double longest = 0;
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    const Agent& a = agents_[i];
    if (a.removed || a.arrived) continue;
    const AgentStatus st = status(AgentId{static_cast<std::uint32_t>(i)});
    if (st != AgentStatus::moving) return std::nullopt;  // planning, unreachable, stuck, stopped, on a link
    const PathFollower& f = a.follower;
    if (f.empty() || (f.loops() && f.max_laps() == 0)) return std::nullopt;
    const std::span<const Vec2> w = f.waypoints();
    double rest = distance(a.state.position, w[f.current()]);
    for (std::size_t k = f.current(); k + 1 < w.size(); ++k) rest += distance(w[k], w[k + 1]);
    if (f.wraps()) {  // the laps after this one, each closing the loop and going round again
      double lap = distance(w.back(), w.front());
      for (std::size_t k = 0; k + 1 < w.size(); ++k) lap += distance(w[k], w[k + 1]);
      rest += lap * static_cast<double>(f.max_laps() - f.laps() - 1);
    }
    longest = std::max(longest, rest / a.params.max_speed);
  }
  return longest;
}

double Simulation::gather_live_positions() {
  positions_.clear();
  position_index_.clear();
  double max_radius = 0;
  for (std::size_t i = 0; i < agents_.size(); ++i) {
    if (agents_[i].removed || agents_[i].on_link) continue;
    position_index_.push_back(static_cast<std::uint32_t>(i));
    positions_.push_back(agents_[i].state.position);
    max_radius = std::max(max_radius, agents_[i].params.radius);
  }
  return max_radius;
}

void Simulation::separate_agents() {
  const double max_radius = gather_live_positions();
  const std::size_t n = positions_.size();
  if (n < 2) return;
  for (int pass = 0; pass < params_.separation_passes; ++pass) {
    for (std::size_t k = 0; k < n; ++k) positions_[k] = agents_[position_index_[k]].state.position;
    hash_.rebuild(positions_, 2 * max_radius);
    bool moved = false;
    for (std::size_t k = 0; k < n; ++k) {
      Agent& a = agents_[position_index_[k]];
      hash_.for_each_within(positions_[k], 2 * max_radius, [&](std::size_t j, double) {
        if (j <= k) return;
        Agent& b = agents_[position_index_[j]];
        // Where they are now: earlier pairs of this pass may have moved either.
        const Vec2 apart = a.state.position - b.state.position;
        const double reach = a.params.radius + b.params.radius;
        const double d = length(apart);
        if (d >= reach) return;
        // Coincident centres part along x, the lower index to the right: deterministic.
        const Vec2 normal = d > 0 ? apart / d : Vec2{1, 0};
        // Each takes half the overlap, swept so that no wall is crossed (a segment has no inside
        // to push out of); what a wall keeps one of them from taking, the other takes.
        const double depth = reach - d;
        const double a_moved = push_apart(a, normal * (depth / 2));
        const double b_moved = push_apart(b, normal * -(depth - a_moved));
        if (a_moved + b_moved < depth) push_apart(a, normal * (depth - a_moved - b_moved));
        moved = true;
      });
    }
    if (!moved) break;
  }
}

double Simulation::push_apart(Agent& a, Vec2 move) {
  const double len = length(move);
  if (!(len > 0)) return 0;
  AgentState swept = a.state;
  swept.velocity = move / tick_dt_;
  move_disc(obstacles_, swept, wall_radius(a), tick_dt_, a.params.avoid_mask, contacts_);
  const double along = dot(swept.position - a.state.position, move / len);
  a.state.position = swept.position;
  return along;
}

void Simulation::measure() {
  const double max_radius = gather_live_positions();
  max_live_radius_ = max_radius;
  const std::size_t n = positions_.size();
  const double cap = params_.clearance_cap;
  hash_.rebuild(positions_, 2 * max_radius + cap);
  for (std::size_t k = 0; k < n; ++k) {
    const Agent& a = agents_[position_index_[k]];
    const double r = a.params.radius;
    const double wr = wall_radius(a);
    const double wall = obstacles_.clearance(a.state.position, wr + cap, a.params.avoid_mask) - wr;
    stats_.min_clearance = std::min(stats_.min_clearance, std::min(wall, cap));
    if (wall < 0) {
      obstacles_.disc_contacts(a.state.position, wr, a.params.avoid_mask, contacts_);
      for (const Contact& c : contacts_) stats_.collisions += c.depth > params_.collision_tolerance * r ? 1 : 0;
    }
    hash_.for_each_within(positions_[k], 2 * max_radius + cap, [&](std::size_t j, double d2) {
      if (j <= k) return;
      const Agent& b = agents_[position_index_[j]];
      const double gap = std::sqrt(d2) - r - b.params.radius;
      stats_.min_clearance = std::min(stats_.min_clearance, gap);
      if (-gap > params_.collision_tolerance * std::min(r, b.params.radius)) ++stats_.collisions;
    });
  }
}

AgentParams agent_params(const AgentSpec& spec) {
  AgentParams p;
  p.radius = spec.radius;
  p.max_speed = spec.max_speed;
  p.max_force = spec.max_force;
  p.mass = spec.mass;
  p.layer = spec.layer;
  return p;
}

Shape obstacle_shape(const ObstacleSpec& o) {
  const auto point = [&](std::size_t i) { return i < o.points.size() ? o.points[i] : Vec2{}; };
  switch (o.kind) {
    case ObstacleSpec::Kind::circle: return Circle{point(0), o.radius};
    case ObstacleSpec::Kind::box: return Box{point(0), point(1)};
    case ObstacleSpec::Kind::oriented_box: return OrientedBox{point(0), point(1), o.angle};
    case ObstacleSpec::Kind::polygon: return Polygon{o.points};
    case ObstacleSpec::Kind::segment: return Segment2{point(0), point(1)};
  }
  return Circle{};
}

std::unique_ptr<Simulation> make_simulation(const SceneSpec& scene, grid::GridMap map, SimulationParams params,
                                            const GridWorldParams& grid) {
  params.seed = scene.seed;
  auto sim = std::make_unique<Simulation>(std::move(map), params, grid);
  for (const ObstacleSpec& o : scene.obstacles) sim->add_obstacle(obstacle_shape(o), o.layer);
  for (const AgentSpec& a : scene.agents) {
    if (a.waypoints.empty()) {
      sim->add_agent(agent_params(a), a.start, a.goal);
    } else {
      sim->add_follower(agent_params(a), a.start, a.waypoints, a.loop, a.laps);
    }
  }
  return sim;
}

}  // namespace waymark::steer
