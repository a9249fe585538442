#pragma once
/// @file Agent–agent avoidance for crowds: each tick, every agent's preferred velocity becomes a
/// new velocity that avoids the other agents. OrcaSolver is ORCA (van den Berg, Guy, Lin and
/// Manocha, "Reciprocal n-body collision avoidance", 2011): each pair of neighbours gives a
/// half-plane of permitted velocities, each agent taking half the avoidance, and a linear
/// program picks the permitted velocity nearest the preferred one. SampledVoSolver is the older
/// sampled reciprocal velocity obstacle, kept as the measured alternative (docs/steering.md,
/// "Crowds: reciprocal avoidance"). Both look at the k nearest agents through a SpatialHash,
/// are deterministic (same input, bit-identical output) and allocate nothing per tick once they
/// have seen as many agents. OrcaSolver also keeps agents off static walls given as
/// ObstacleLines (steer/obstacle_lines.hpp): their half-planes come first and are hard, and a
/// neighbour a wall keeps from taking its half of the avoidance is avoided fully.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/spatial_hash.hpp"

namespace waymark::steer {

class ObstacleLines;

/// One agent as the crowd solvers see it for one tick.
struct OrcaAgent {
  Vec2 position;            ///< world units
  Vec2 velocity;            ///< the velocity it has now (last tick's answer), world units / s
  Vec2 preferred_velocity;  ///< where it wants to go, world units / s (longer than max_speed is clipped)
  double radius = 0.35;     ///< world units. [Limit: >= 0]
  double max_speed = 3.0;   ///< world units / s. [Limit: >= 0]
  /// false: an inert agent (a parked unit, a player) that keeps its preferred velocity (clipped);
  /// the others avoid it fully (responsibility 1 instead of 1/2), assuming it keeps `velocity`.
  bool avoids = true;
  /// How far it looks for other agents, world units. 0: OrcaParams::neighbour_distance, and
  /// when that is 0 too, its own radius + the largest radius + its own max_speed × time
  /// horizon: one big or fast agent widens its own queries only. [Limit: >= 0, finite]
  double neighbour_distance = 0;
  /// Its radius against static walls (ObstacleLines); negative: `radius`. 0 suits walls
  /// already eroded by the radius (a Recast navmesh's outline); at least 1 % of `radius` is
  /// kept all the same (with none it could slip through the point where two walls meet).
  /// [Limit: finite]
  double wall_radius = -1;
  /// The walls it avoids: edges on these layers.
  LayerMask obstacle_mask = all_layers;
};

struct OrcaParams {
  /// Seconds ahead within which collisions are avoided. Longer: earlier, wider swerves and
  /// more agents constraining each other. [Limit: > 0]
  double time_horizon = 2.0;
  /// Seconds ahead within which walls (ObstacleLines) are not reached; an agent looks at the
  /// edges within its wall radius + max_speed × this. Shorter: agents come closer to walls
  /// before turning, and look at fewer edges. [Limit: > 0]
  double time_horizon_obstacles = 1.0;
  /// Agents farther apart are ignored, world units, for every agent whose own
  /// OrcaAgent::neighbour_distance is 0. 0: per agent, its radius + the largest radius + its
  /// max_speed × time_horizon, recomputed each tick. [Limit: >= 0]
  double neighbour_distance = 0;
  /// At most this many nearest neighbours per agent (ties by index). Bounds the cost per agent.
  std::size_t max_neighbours = 10;
  /// When an agent's preferred velocity p is not permitted, it aims at p + keep_right · (p
  /// turned a right angle clockwise) instead: everyone passing on the right turns symmetric
  /// standoffs (agents on a circle) into a roundabout. Plain ORCA, 0, deadlocks there; see
  /// docs/steering.md for the measurements behind the default. [Limit: >= 0]
  double keep_right = 0.5;
  /// Agents keep apart as if their summed radii were this share larger: a buffer that
  /// absorbs the small overlaps of ticks whose half-planes leave no velocity (dense crowds
  /// against walls). Simulation uses 0.02 (docs/steering.md, "Walls in ORCA"). [Limit: >= 0]
  double radius_margin = 0;
};

struct SampledVoParams {
  /// Collisions later than this are not penalised, seconds. [Limit: > 0]
  double time_horizon = 2.0;
  /// As OrcaParams::neighbour_distance. [Limit: >= 0]
  double neighbour_distance = 0;
  std::size_t max_neighbours = 10;
  /// Candidate velocities per agent: a sunflower spiral filling the max-speed disc, plus the
  /// preferred velocity and rest. Cost per agent is samples × neighbours. [Limit: >= 1]
  std::size_t samples = 250;
  /// Penalty of a candidate: |candidate − preferred| + collision_weight / time to collision
  /// (both in world units / s), so collision_weight is in world units. [Limit: >= 0]
  double collision_weight = 2.0;
};

/// What a tick of a crowd solver came to. Anything but `ok` leaves new_velocities untouched.
enum class AvoidanceStatus : std::uint8_t {
  ok,
  size_mismatch,   ///< new_velocities is not as long as agents
  bad_time_step,   ///< dt not finite and > 0
  bad_agent,       ///< a non-finite vector, or a radius, max_speed or distance out of its limits
};
[[nodiscard]] std::string_view to_string(AvoidanceStatus status);

struct AvoidanceStats {
  std::size_t neighbours = 0;  ///< neighbour pairs looked at, summed over agents
  /// Agents whose half-planes left no permitted velocity (ORCA then minimised the deepest
  /// violation: dense crowds, overlaps). Always 0 for SampledVoSolver.
  std::size_t infeasible = 0;
  /// Half-planes from walls, summed over agents (OrcaSolver::solve with ObstacleLines).
  std::size_t obstacle_planes = 0;
};

namespace detail {
/// The velocities v with cross(direction, v − point) >= 0: left of the unit direction.
struct HalfPlane {
  Vec2 point;
  Vec2 direction;
};

/// The k nearest agents of each agent within a distance, through one SpatialHash per tick.
class CrowdNeighbours {
 public:
  struct Neighbour {
    double distance_squared;
    std::uint32_t index;
  };
  /// Hashes the positions and sets each agent's query distance: its own
  /// OrcaAgent::neighbour_distance, else `distance`, else as OrcaParams::neighbour_distance
  /// says. The hash's cell is the median distance.
  void rebuild(std::span<const OrcaAgent> agents, double distance, double time_horizon);
  /// The nearest (at most `k`) other agents of agent `i` within its distance by (distance,
  /// index), nearest first. Valid until the next call.
  std::span<const Neighbour> nearest(std::size_t i, std::size_t k);

 private:
  SpatialHash hash_;
  std::vector<Vec2> positions_;
  std::vector<double> distances_;  ///< per agent
  std::vector<double> sorted_;     ///< scratch for the median
  std::vector<Neighbour> found_;
};

/// A wall edge near an agent: its squared distance and index (ObstacleLines::edge).
struct EdgeNear {
  double distance_squared;
  std::uint32_t index;
};
}  // namespace detail

/// ORCA. solve() costs O(n · (hash query + k)) expected: each agent's linear program is
/// incremental in k half-planes (k = max_neighbours), plus the 3D fallback when infeasible.
class OrcaSolver {
 public:
  /// Throws BuildError when a parameter breaks its limit.
  explicit OrcaSolver(OrcaParams params = {});

  /// Writes each agent's new velocity (|v| <= max_speed) for a tick of `dt` seconds; dt only
  /// matters for agents that already overlap, which are pushed apart within one tick. Never
  /// throws; allocates only when the agent count (with walls: the edge count, or the wall
  /// half-planes of all agents together) exceeds every earlier one.
  AvoidanceStatus solve(std::span<const OrcaAgent> agents, double dt, std::span<Vec2> new_velocities);
  /// As above, and no agent's new velocity reaches an edge of `walls` on its obstacle_mask
  /// within time_horizon_obstacles (it takes the whole avoidance). The walls' half-planes are
  /// hard: when they leave no velocity together with the agents', the agents' give way (the
  /// 3D program keeps the walls'); only walls that leave no velocity among themselves (an
  /// agent wider than a corridor, or already inside a wall) are met as nearly as can be.
  /// Cost: + O(edges near each agent × earlier wall half-planes).
  AvoidanceStatus solve(std::span<const OrcaAgent> agents, const ObstacleLines& walls, double dt,
                        std::span<Vec2> new_velocities);

  [[nodiscard]] const AvoidanceStats& stats() const { return stats_; }
  [[nodiscard]] const OrcaParams& params() const { return params_; }

 private:
  AvoidanceStatus solve_with(std::span<const OrcaAgent> agents, const ObstacleLines* walls, double dt,
                             std::span<Vec2> new_velocities);

  OrcaParams params_;
  AvoidanceStats stats_;
  detail::CrowdNeighbours neighbours_;
  std::vector<detail::HalfPlane> planes_;
  std::vector<detail::HalfPlane> projected_;
  std::vector<detail::EdgeNear> edges_near_;
  std::vector<detail::HalfPlane> wall_planes_;  ///< every agent's, agent i's from wall_begin_[i]
  std::vector<std::size_t> wall_begin_;
};

/// Sampled reciprocal velocity obstacles: each agent takes the candidate velocity of least
/// penalty (SampledVoParams::collision_weight), assuming each avoiding neighbour moves halfway
/// (a candidate c is judged by the relative velocity 2c − own velocity − neighbour velocity)
/// and inert ones keep their velocity. No guarantee of collision freedom; O(n · samples · k).
class SampledVoSolver {
 public:
  /// Throws BuildError when a parameter breaks its limit.
  explicit SampledVoSolver(SampledVoParams params = {});

  /// As OrcaSolver::solve; `dt` is the shortest time to collision the penalty distinguishes.
  AvoidanceStatus solve(std::span<const OrcaAgent> agents, double dt, std::span<Vec2> new_velocities);

  [[nodiscard]] const AvoidanceStats& stats() const { return stats_; }
  [[nodiscard]] const SampledVoParams& params() const { return params_; }

 private:
  SampledVoParams params_;
  AvoidanceStats stats_;
  detail::CrowdNeighbours neighbours_;
  std::vector<Vec2> unit_samples_;  // in the unit disc, scaled by each agent's max speed
};

}  // namespace waymark::steer
