#pragma once
/// @file Steering behaviours (Reynolds 1999), each a force for one agent, blended by weight
/// under the agent's force cap: seek, flee, arrive, seeded wander, path following with a
/// waypoint radius and look-ahead (looping, or stopping with arrive), separation, and obstacle
/// avoidance by look-ahead rays into an ObstacleWorld. move_disc then moves an agent's disc
/// without crossing solids (no tunnelling at any speed) and pushes it out of what it touches.
/// Nothing here allocates once the caller's vectors have grown.

#include <cstdint>
#include <span>
#include <vector>

#include "waymark/core/geometry.hpp"
#include "waymark/steer/agent.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer {

/// The force that turns the velocity toward `desired` within the agent's response time.
[[nodiscard]] Vec2 steer_toward(const AgentParams& p, const AgentState& s, Vec2 desired_velocity);

/// Full speed toward `target`.
[[nodiscard]] Vec2 seek(const AgentParams& p, const AgentState& s, Vec2 target);
/// Full speed away from `threat` while it is nearer than `panic_distance`; no force beyond.
[[nodiscard]] Vec2 flee(const AgentParams& p, const AgentState& s, Vec2 threat, double panic_distance);
/// Toward `target`, slowing down inside slow_down_radius, never asking for more speed than it
/// can shed before the target (braking_share of the force cap) or than covers the remaining
/// distance in one step of `dt`: so it stops there without overshooting.
[[nodiscard]] Vec2 arrive(const AgentParams& p, const AgentState& s, Vec2 target, double dt);

/// A small deterministic generator (SplitMix64): the same seed gives the same sequence on every
/// platform, unlike the standard distributions.
class Random {
 public:
  explicit Random(std::uint64_t seed = 0) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_;
};

struct WanderParams {
  double distance = 2.0;  ///< the wander circle's centre, ahead of the agent [world units, ≥ 0]
  double radius = 1.0;    ///< the wander circle's radius [world units, > 0]
  double jitter = 3.0;    ///< the most the target's angle on the circle turns per second [rad / s]
};
/// A wanderer's own state: the target's angle on the circle and its generator.
struct WanderState {
  double angle = 0;
  Random random;
};
/// Reynolds' wander: seek a point on a circle ahead whose angle drifts randomly.
[[nodiscard]] Vec2 wander(const AgentParams& p, const AgentState& s, WanderState& w, const WanderParams& params, double dt);

/// Away from every neighbour nearer than `range` (centre distance minus both radii), each
/// push growing as the gap shrinks. `positions` and `radii` are the neighbours' (the agent
/// itself excluded by the caller).
[[nodiscard]] Vec2 separation(const AgentParams& p, const AgentState& s, std::span<const Vec2> positions,
                              std::span<const double> radii, double range);

/// Follows a polyline of waypoints in order: the current waypoint counts as reached within
/// waypoint_radius; the agent seeks the point look_ahead along the current segment ahead of
/// its projection (so, pushed aside, it comes back to the line), and at the last waypoint
/// either arrives and stops, or, looping, goes on to the first.
class PathFollower {
 public:
  /// Takes a copy of the waypoints (reusing its storage); starts at the first. A looping
  /// path goes round `laps` times and then stops at its last waypoint (0: forever).
  void set_path(std::span<const Vec2> waypoints, bool loop, std::uint64_t laps = 0);
  void clear() { waypoints_.clear(); current_ = 0; laps_ = 0; }
  /// Room for paths of up to `n` waypoints, so that set_path allocates nothing for them.
  void reserve(std::size_t n) { waypoints_.reserve(n); }
  /// The force for this step; advances past reached waypoints first.
  [[nodiscard]] Vec2 force(const AgentParams& p, const AgentState& s, double dt);

  [[nodiscard]] bool empty() const { return waypoints_.empty(); }
  [[nodiscard]] std::span<const Vec2> waypoints() const { return waypoints_; }
  /// The waypoint now sought.
  [[nodiscard]] std::size_t current() const { return current_; }
  /// Times a looping path went round.
  [[nodiscard]] std::uint64_t laps() const { return laps_; }
  /// At the last waypoint of a path that does not loop (the agent may still be arriving).
  [[nodiscard]] bool on_last() const { return !wraps() && !waypoints_.empty() && current_ + 1 == waypoints_.size(); }
  /// Whether reaching the last waypoint leads on to the first.
  [[nodiscard]] bool wraps() const { return loop_ && (max_laps_ == 0 || laps_ + 1 < max_laps_); }
  /// Whether the path loops, and the laps it goes round in all (0: forever).
  [[nodiscard]] bool loops() const { return loop_; }
  [[nodiscard]] std::uint64_t max_laps() const { return max_laps_; }
  /// Advances past every waypoint reached from `position` (called by force()).
  void advance(const AgentParams& p, Vec2 position);

 private:
  std::vector<Vec2> waypoints_;
  std::size_t current_ = 0;
  std::uint64_t laps_ = 0;
  std::uint64_t max_laps_ = 0;
  bool loop_ = false;
};

/// Obstacle avoidance by rays from the centre: one ahead and two whiskers turned by
/// ±whisker_angle, reaching min_look + speed · look_time beyond the disc's rim (the whiskers a
/// share of that), into the obstacle world on the agent's avoid_mask. Each hit pushes along its
/// surface normal, harder the nearer the hit.
struct AvoidanceParams {
  double min_look = 0.5;       ///< ray length at rest [world units, ≥ 0]
  double look_time = 0.6;      ///< extra length per unit of speed [s, ≥ 0]
  double whisker_angle = 0.5;  ///< the whiskers' turn from the heading [rad]
  double whisker_share = 0.8;  ///< whisker length as a share of the ahead ray [0, 1]
  double strength = 1.0;       ///< the push at contact, as a share of max_force [≥ 0]
};
[[nodiscard]] Vec2 avoid_obstacles(const AgentParams& p, const AgentState& s, const ObstacleWorld& world,
                                   const AvoidanceParams& params);

/// One behaviour's force and its weight in the blend.
struct WeightedForce {
  Vec2 force;
  double weight = 1;
};
/// Σ weight · force, capped at max_force.
[[nodiscard]] Vec2 blend(std::span<const WeightedForce> forces, double max_force);

/// How far move_disc keeps a moving centre from the surface it hits [world units].
inline constexpr double move_skin = 1e-6;
/// Iterations of move_disc's slide along what it hits, and of its push-out.
inline constexpr int move_iterations = 3;

struct MoveResult {
  bool blocked = false;  ///< the move was cut short by a solid
  bool pushed = false;   ///< the disc overlapped a solid and was pushed out
};
/// Moves the agent by velocity · dt without its centre crossing a solid on `mask` (a raycast
/// along the move; on a hit it stops short and slides along the surface), then pushes the
/// disc out of every solid it overlaps and removes the velocity into them. Thin walls are
/// never tunnelled through, whatever the speed. `contacts` is scratch.
MoveResult move_disc(const ObstacleWorld& world, AgentState& s, double radius, double dt, LayerMask mask,
                     std::vector<Contact>& contacts);

/// Whether a disc of `radius` can move straight from `a` to `b` without touching a solid on
/// `mask`: rays along the centre line and both sides of the swept band (ends extended by the
/// radius). Exact for solids wider than the radius (grid cells, boxes); may miss a thin
/// obstacle lying wholly inside the band.
[[nodiscard]] bool disc_can_pass(const ObstacleWorld& world, Vec2 a, Vec2 b, double radius, LayerMask mask);

/// String-pulls a polyline for a disc: from each kept waypoint, the farthest later one it can
/// reach straight (disc_can_pass), looking at most `window` waypoints ahead. Keeps the first
/// and last; never adds one. `out` is cleared first and must not alias `path`.
void smooth_for_disc(const ObstacleWorld& world, std::span<const Vec2> path, double radius, LayerMask mask,
                     std::size_t window, std::vector<Vec2>& out);

}  // namespace waymark::steer
