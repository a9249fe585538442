#pragma once
/// @file SceneSpec: what a simulation scene file describes (io::load_scene reads it from JSON;
/// docs/steering.md gives the format). Plain data, checked by the reader; the simulation is
/// built from it together with the map it names.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark::steer {

/// Named limits of a scene file, checked before anything is allocated.
struct SceneLimits {
  static constexpr std::size_t max_agents = 100'000;
  static constexpr std::size_t max_waypoints = 10'000;   ///< per agent
  static constexpr std::size_t max_obstacles = 100'000;
  static constexpr std::size_t max_polygon_corners = 10'000;
  static constexpr std::uint64_t max_steps = 100'000'000;
  static constexpr double min_dt = 1e-4;   ///< seconds
  static constexpr double max_dt = 1.0;    ///< seconds
  static constexpr double max_radius = 100.0;   ///< world units
  static constexpr double max_speed = 1e4;      ///< world units per second
  static constexpr double max_force = 1e6;      ///< mass · world units / s² (a force)
  static constexpr double min_mass = 1e-3;       ///< with max_force: accelerations stay ≤ 10⁹ units/s²
  static constexpr double max_mass = 1e6;
  /// Every position, extent and obstacle radius lies within ±this, world units (squares and
  /// sums of such values stay far from overflow).
  static constexpr double max_abs_coordinate = 1e6;
};

/// One agent of a scene. Every field but start and goal has a default (docs/steering.md).
struct AgentSpec {
  Vec2 start;
  Vec2 goal;
  double radius = 0.35;        ///< world units
  double max_speed = 3.0;      ///< world units per second
  double max_force = 12.0;     ///< mass · world units / s²: the cap on the steering force
  double mass = 1.0;
  int layer = 0;               ///< the agent's own layer, 0–31
  /// Waypoints to follow instead of a planned path (then the goal is the last waypoint unless
  /// `loop` is set, when the agent circles them forever and never arrives).
  std::vector<Vec2> waypoints;
  bool loop = false;
  /// With loop: the laps to go round before stopping at the last waypoint (its goal);
  /// 0 loops forever.
  std::uint64_t laps = 0;
};

/// A static collider of the scene besides the map's blocked cells.
struct ObstacleSpec {
  enum class Kind : std::uint8_t { circle, box, oriented_box, polygon, segment };
  Kind kind = Kind::circle;
  std::vector<Vec2> points;  ///< circle: centre; box: min, max; oriented_box: centre, half extents; polygon: corners; segment: a, b
  double radius = 0;         ///< circle
  double angle = 0;          ///< oriented_box, radians anticlockwise
  int layer = 0;
};

struct SceneSpec {
  std::string map;           ///< Moving AI map file, resolved against the scene file's folder
  double dt = 0.05;          ///< seconds per tick
  std::uint64_t max_steps = 4000;
  std::uint64_t seed = 1;
  std::vector<AgentSpec> agents;
  std::vector<ObstacleSpec> obstacles;
};

}  // namespace waymark::steer
