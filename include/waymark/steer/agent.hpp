#pragma once
/// @file An agent's parameters and state, and its fixed-step integration: a point mass with a
/// speed and a force cap (Reynolds' simple vehicle model). Units: world units (a grid cell is
/// one unit at cell_size 1), seconds, and mass in arbitrary units (force / mass = acceleration).

#include <cstdint>

#include "waymark/core/geometry.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer {

/// Everything that shapes how an agent moves and steers. Limits are checked by valid().
struct AgentParams {
  double radius = 0.35;     ///< world units [> 0]
  double mass = 1.0;        ///< [> 0]
  double max_speed = 3.0;   ///< world units / s [> 0]
  double max_force = 12.0;  ///< mass · world units / s² [> 0]: the cap on the blended steering force
  /// Time in which a behaviour asks to reach its desired velocity: its force is
  /// mass · (desired − velocity) / response_time, before the cap. [s, > 0]
  double response_time = 0.1;
  /// Arrive starts slowing down within this distance of its target (the source material
  /// hard-coded 10 units; at 1 unit per cell that is a long approach). [world units, > 0]
  double slow_down_radius = 2.0;
  /// Arrive never asks for more than this share of the deceleration max_force gives, so the
  /// agent can always stop before its target. [0 < x ≤ 1]
  double braking_share = 0.5;
  /// Path following: a waypoint counts as reached within this distance of the agent's centre.
  /// [world units, > 0]
  double waypoint_radius = 0.5;
  /// Path following: the point sought lies this far ahead of the agent's projection onto
  /// the current segment (clamped to the segment's end). [world units, ≥ 0]
  double look_ahead = 1.0;
  int layer = 0;                  ///< the agent's own layer [0, 31]
  LayerMask avoid_mask = all_layers;  ///< the obstacle layers it steers around and collides with

  [[nodiscard]] bool valid() const;
};

/// Where an agent is and how it moves. heading is a unit vector, kept when it stops.
struct AgentState {
  Vec2 position;
  Vec2 velocity;
  Vec2 heading{1, 0};
};

/// `v` shortened to at most `max_length` (unchanged when shorter).
[[nodiscard]] inline Vec2 truncate(Vec2 v, double max_length) {
  const double l2 = length_squared(v);
  return l2 > max_length * max_length ? v * (max_length / std::sqrt(l2)) : v;
}

/// The velocity after one fixed step of `dt` seconds under `force` (capped at max_force),
/// capped at max_speed (semi-implicit Euler: velocity first).
[[nodiscard]] inline Vec2 integrate_velocity(const AgentParams& p, Vec2 velocity, Vec2 force, double dt) {
  return truncate(velocity + truncate(force, p.max_force) * (dt / p.mass), p.max_speed);
}

/// Moves the state by its velocity over `dt` with no collision handling (see move_disc for the
/// movement that respects obstacles), and turns the heading to the velocity when it moves.
inline void advance(AgentState& s, double dt) {
  s.position += s.velocity * dt;
  const double speed = length(s.velocity);
  if (speed > 1e-12) s.heading = s.velocity / speed;
}

}  // namespace waymark::steer
