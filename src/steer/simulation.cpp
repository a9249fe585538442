#include "waymark/steer/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "waymark/core/errors.hpp"

namespace waymark::steer {

bool SimulationParams::valid() const {
  const auto at_least = [](double x, double lo) { return std::isfinite(x) && x >= lo; };
  const AvoidanceParams& a = avoidance;
  return at_least(path_weight, 0) && at_least(avoidance_weight, 0) && at_least(a.min_look, 0) &&
         at_least(a.look_time, 0) && at_least(a.whisker_angle, 0) && a.whisker_angle <= std::numbers::pi &&
         at_least(a.whisker_share, 0) && a.whisker_share <= 1 && at_least(a.strength, 0) &&
         at_least(preferred_jitter, 0) && preferred_jitter <= std::numbers::pi && smoothing_window >= 1 &&
         at_least(stuck_time, 0) && stuck_time > 0 && at_least(stuck_distance, 0) && separation_passes >= 0 &&
         at_least(collision_tolerance, 0) && at_least(clearance_cap, 0) && clearance_cap > 0;
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

Simulation::Simulation(grid::GridMap map, SimulationParams params)
    : map_(std::make_unique<grid::GridMap>(std::move(map))),
      params_(checked(params)),
      paths_(std::make_unique<GridPathService>(*map_, params_.planner, params_.queue)),
      orca_(solver_params(params_)) {
  obstacles_.set_grid(map_.get(), 0);
}

Simulation::Simulation(std::unique_ptr<PathService> paths, ObstacleWorld obstacles, SimulationParams params)
    : params_(checked(params)), obstacles_(std::move(obstacles)), paths_(std::move(paths)), orca_(solver_params(params_)) {
  if (!paths_) throw BuildError("Simulation: a path service is required");
}

AgentId Simulation::add_agent(const AgentParams& params, Vec2 start, Vec2 goal) {
  if (!params.valid()) throw BuildError("agent parameters out of range");
  if (!within_world(start) || !within_world(goal)) {
    throw BuildError("an agent's start and goal must be finite and within +-" + std::to_string(max_coordinate));
  }
  Agent a;
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
    if (!within_world(w)) throw BuildError("a follower's waypoints must be finite and within +-" + std::to_string(max_coordinate));
  }
  const AgentId id = add_agent(params, start, waypoints.back());
  Agent& a = agents_[id.value];
  a.plans = false;
  a.follower.set_path(waypoints, loop, laps);
  return id;
}

void Simulation::submit_plan(Agent& a) {
  if (a.request.valid()) paths_->release(a.request);
  // Refused (a full queue, or an end off the world): the agent asks again next tick.
  a.request = paths_->submit(a.state.position, a.goal);
}

void Simulation::collect_plans() {
  for (Agent& a : agents_) {
    if (!a.plans) continue;
    if (!a.request.valid()) {
      if (a.follower.empty() && !a.arrived && !a.unreachable) submit_plan(a);
      continue;
    }
    const PathService::Answer answer = paths_->take(a.request, raw_path_);
    if (answer == PathService::Answer::pending) continue;
    a.request = {};
    ++stats_.plans;
    a.unreachable = answer == PathService::Answer::failed;
    if (a.unreachable) {
      ++stats_.failed_plans;
      continue;
    }
    // The path starts where the agent was when it asked: it goes on from where it is now.
    raw_path_.front() = a.state.position;
    smooth_for_disc(obstacles_, raw_path_, wall_radius(a), a.params.avoid_mask, params_.smoothing_window, smoothed_);
    a.follower.set_path(smoothed_, false);
  }
}

bool Simulation::step(double dt) {
  if (!(dt > 0) || !std::isfinite(dt)) return false;  // a query: refused, never thrown
  const auto started = std::chrono::steady_clock::now();
  tick_dt_ = dt;
  collect_plans();
  if (paths_->in_flight() > 0) paths_->update(params_.planning_budget);
  collect_plans();

  // Preferred velocities from the blended behaviours.
  const std::size_t n = agents_.size();
  orca_agents_.resize(n);
  velocities_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Agent& a = agents_[i];
    AgentParams p = a.params;
    p.response_time = std::max(p.response_time, dt);  // a faster response would overshoot in one step
    AgentParams wall_p = p;  // walls already eroded: they keep the centre off, not the rim
    wall_p.radius = wall_radius(a);
    // Without a path yet (or at all) it stands still.
    const Vec2 follow = a.follower.empty() ? steer_toward(p, a.state, {}) : a.follower.force(p, a.state, dt);
    const WeightedForce forces[] = {{follow, params_.path_weight},
                                    {avoid_obstacles(wall_p, a.state, obstacles_, params_.avoidance), params_.avoidance_weight}};
    Vec2 preferred = integrate_velocity(p, a.state.velocity, blend(forces, p.max_force), dt);
    if (params_.preferred_jitter > 0) {
      const double turn = a.random.uniform(-params_.preferred_jitter, params_.preferred_jitter);
      const double c = std::cos(turn), sn = std::sin(turn);
      preferred = {preferred.x * c - preferred.y * sn, preferred.y * c + preferred.x * sn};
    }
    orca_agents_[i] = OrcaAgent{.position = a.state.position,
                                .velocity = a.state.velocity,
                                .preferred_velocity = preferred,
                                .radius = p.radius,
                                .max_speed = p.max_speed,
                                .wall_radius = wall_p.radius,
                                .obstacle_mask = a.params.avoid_mask};
    velocities_[i] = preferred;
  }
  // Agents and parameters are checked when added, so the solver has nothing to refuse; should
  // it refuse all the same, this tick goes without avoidance (a per-frame call never throws).
  const bool walls = params_.obstacle_avoidance && n > 0;
  if (walls) refresh_lines();
  if ((walls || (params_.agent_avoidance && n > 1)) &&
      (walls ? orca_.solve(orca_agents_, lines_, dt, velocities_) : orca_.solve(orca_agents_, dt, velocities_)) !=
          AvoidanceStatus::ok) {
    for (std::size_t i = 0; i < n; ++i) velocities_[i] = orca_agents_[i].preferred_velocity;
  }

  for (std::size_t i = 0; i < n; ++i) {
    Agent& a = agents_[i];
    a.state.velocity = velocities_[i];
    const MoveResult moved = move_disc(obstacles_, a.state, wall_radius(a), dt, a.params.avoid_mask, contacts_);
    stats_.wall_pushes += (moved.blocked || moved.pushed) ? 1 : 0;
  }
  separate_agents();

  for (Agent& a : agents_) {
    const double d = distance(a.state.position, a.goal);
    if (!a.arrived && d <= a.params.radius && a.follower.on_last()) {
      a.arrived = true;
      ++stats_.arrived;
    }
    // Stuck: following a path, yet within stuck_distance of where it was stuck_time ago.
    if (a.arrived || !a.plans || a.unreachable || a.request.valid() || a.follower.empty()) continue;
    if (distance(a.state.position, a.anchor) >= params_.stuck_distance) {
      a.anchor = a.state.position;
      a.still_for = 0;
    } else if ((a.still_for += dt) >= params_.stuck_time) {
      a.anchor = a.state.position;
      a.still_for = 0;
      ++stats_.replans;
      submit_plan(a);
    }
  }
  measure();
  ++stats_.ticks;
  stats_.tick_time += std::chrono::steady_clock::now() - started;
  return true;
}

void Simulation::refresh_lines() {
  const grid::GridMap* map = obstacles_.grid();
  const std::uint64_t version = map != nullptr ? map->version() : 0;
  if (lines_built_ && lines_colliders_ == obstacles_.size() && lines_map_ == map && lines_map_version_ == version) return;
  lines_.rebuild(obstacles_);
  lines_built_ = true;
  lines_colliders_ = obstacles_.size();
  lines_map_ = map;
  lines_map_version_ = version;
}

std::size_t Simulation::plan_pending(const search::Budget& budget) {
  collect_plans();
  paths_->update(budget);
  collect_plans();
  return waiting_for_paths();
}

std::size_t Simulation::waiting_for_paths() const {
  std::size_t n = 0;
  for (const Agent& a : agents_) n += a.plans && (a.request.valid() || (a.follower.empty() && !a.arrived && !a.unreachable));
  return n;
}

void Simulation::separate_agents() {
  const std::size_t n = agents_.size();
  if (n < 2) return;
  double max_radius = 0;
  for (const Agent& a : agents_) max_radius = std::max(max_radius, a.params.radius);
  for (int pass = 0; pass < params_.separation_passes; ++pass) {
    positions_.resize(n);
    for (std::size_t i = 0; i < n; ++i) positions_[i] = agents_[i].state.position;
    hash_.rebuild(positions_, 2 * max_radius);
    bool moved = false;
    for (std::size_t i = 0; i < n; ++i) {
      Agent& a = agents_[i];
      hash_.for_each_within(positions_[i], 2 * max_radius, [&](std::size_t j, double) {
        if (j <= i) return;
        Agent& b = agents_[j];
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
  const std::size_t n = agents_.size();
  positions_.resize(n);
  double max_radius = 0;
  for (std::size_t i = 0; i < n; ++i) {
    positions_[i] = agents_[i].state.position;
    max_radius = std::max(max_radius, agents_[i].params.radius);
  }
  const double cap = params_.clearance_cap;
  hash_.rebuild(positions_, 2 * max_radius + cap);
  for (std::size_t i = 0; i < n; ++i) {
    const Agent& a = agents_[i];
    const double r = a.params.radius;
    const double wr = wall_radius(a);
    const double wall = obstacles_.clearance(a.state.position, wr + cap, a.params.avoid_mask) - wr;
    stats_.min_clearance = std::min(stats_.min_clearance, std::min(wall, cap));
    if (wall < 0) {
      obstacles_.disc_contacts(a.state.position, wr, a.params.avoid_mask, contacts_);
      for (const Contact& c : contacts_) stats_.collisions += c.depth > params_.collision_tolerance * r ? 1 : 0;
    }
    hash_.for_each_within(positions_[i], 2 * max_radius + cap, [&](std::size_t j, double d2) {
      if (j <= i) return;
      const Agent& b = agents_[j];
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

std::unique_ptr<Simulation> make_simulation(const SceneSpec& scene, grid::GridMap map, SimulationParams params) {
  params.seed = scene.seed;
  auto sim = std::make_unique<Simulation>(std::move(map), params);
  for (const ObstacleSpec& o : scene.obstacles) sim->obstacles().add(obstacle_shape(o), o.layer);
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
