#pragma once
/// @file SceneSpec: what a simulation scene file describes (io::load_scene reads it from JSON;
/// docs/steering.md gives the format). Plain data, checked by the reader; the simulation is
/// built from it together with the map it names.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/enum_names.hpp"
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
  static constexpr std::size_t max_events = 100'000;
  /// The largest cell index an event's rectangle may name: the last one a GridMap can have
  /// (its width and height are ints), so that one past it still fits an int.
  static constexpr int max_cell_index = std::numeric_limits<int>::max() - 1;
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

/// One event of a scene: a change to the world or an order to an agent, applied at its tick
/// (steer::SceneEvents, scene_events.hpp: just before the simulation's (tick + 1)-th step, when
/// stats().ticks == tick). The file's key names each kind (to_string).
struct SceneEvent {
  enum class Kind : std::uint8_t {
    block,            ///< cells x0..x1 × y0..y1 (inclusive) become blocked
    open,             ///< ... become passable
    goal,             ///< agent: a new goal (`point`), re-planned
    warp,             ///< agent: moved to `point` at once (the game moved the unit)
    stop,             ///< agent: stands still, keeping its goal
    resume,           ///< agent: goes on after a stop
    remove,           ///< agent: taken out of the simulation
    add_obstacle,     ///< `obstacle` added as a collider
    remove_obstacle,  ///< collider `index` taken out (the scene's obstacles, then the added ones)
  };
  std::uint64_t tick = 0;  ///< [Limit: ≤ SceneLimits::max_steps; not below the previous event's]
  Kind kind = Kind::block;
  /// goal … remove: the agent (its place in "agents") [Limit: < agents, not removed by an
  /// earlier event]; remove_obstacle: the obstacle [Limit: < obstacles + those added before]
  std::size_t index = 0;
  /// block, open: cells, inclusive [Limit: 0 ≤ x0 ≤ x1 ≤ SceneLimits::max_cell_index, the same for y]
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  Vec2 point;  ///< goal, warp: world units [Limit: within ±SceneLimits::max_abs_coordinate]
  ObstacleSpec obstacle;               ///< add_obstacle
  /// Whether the event is an order to an agent (goal, warp, stop, resume, remove).
  [[nodiscard]] bool orders_agent() const { return kind >= Kind::goal && kind <= Kind::remove; }
};

/// Every kind with the key a scene file writes it as, in the order above.
inline constexpr EnumNames<SceneEvent::Kind, 9> scene_event_kinds{{{SceneEvent::Kind::block, "block"},
                                                                   {SceneEvent::Kind::open, "open"},
                                                                   {SceneEvent::Kind::goal, "goal"},
                                                                   {SceneEvent::Kind::warp, "warp"},
                                                                   {SceneEvent::Kind::stop, "stop"},
                                                                   {SceneEvent::Kind::resume, "resume"},
                                                                   {SceneEvent::Kind::remove, "remove"},
                                                                   {SceneEvent::Kind::add_obstacle, "add_obstacle"},
                                                                   {SceneEvent::Kind::remove_obstacle, "remove_obstacle"}}};

/// The key a scene file writes the kind as ("block", "add_obstacle", ...).
[[nodiscard]] constexpr std::string_view to_string(SceneEvent::Kind kind) { return name_of(scene_event_kinds, kind); }

struct SceneSpec {
  std::string map;           ///< Moving AI map file, resolved against the scene file's folder
  double dt = 0.05;          ///< seconds per tick
  std::uint64_t max_steps = 4000;
  std::uint64_t seed = 1;
  std::vector<AgentSpec> agents;
  std::vector<ObstacleSpec> obstacles;
  /// In non-decreasing tick order (the reader refuses any other); those of one tick apply in
  /// the order listed.
  std::vector<SceneEvent> events;
};

}  // namespace waymark::steer
