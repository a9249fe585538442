#pragma once
/// @file SceneEvents: a scene file's events (SceneSpec::events: doors that close and open,
/// obstacles added and removed, orders to agents) applied to the simulation make_simulation
/// built from the scene, each at its tick. docs/steering.md "Scene files" gives the format.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/scene.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::steer {

/// The events of one scene, applied in list order as their ticks come.
///
/// **When.** Call apply_due(sim, sim.stats().ticks) just before every step(): an event with
/// tick t is applied just before the simulation's (t + 1)-th step, when stats().ticks == t
/// (tick 0: before the first step; call it before a warm-up plan_pending() too, so that the
/// first paths already see a door closed at tick 0). Events of one tick apply in list order.
///
/// **Whom.** Agent i of the scene is the i-th of the scene's agents in `sim`, obstacle k the
/// k-th collider of the scene's "obstacles", then the ones its add_obstacle events added, in
/// order: make_simulation adds both in file order, and nothing may be added to `sim` between
/// make_simulation and this constructor.
///
/// **What.** block / open: GridMap::set_passable over the inclusive cell rectangle, through
/// Simulation::edit_map() (the agents whose path crosses it re-plan); goal, warp, stop, resume,
/// remove: Simulation::set_goal, warp, stop, resume, remove_agent; add_obstacle /
/// remove_obstacle: Simulation::add_obstacle (obstacle_shape of the spec) / remove_obstacle.
/// An event the simulation refuses (not on a grid, a rectangle outside the map, an order to an
/// agent that was removed, an obstacle index that names none, a shape add_obstacle refuses)
/// changes nothing and is counted in refused(); io::check_scene_against_map rules out all but
/// the orders a simulation may refuse as it runs (resume for an agent not stopped).
class SceneEvents {
 public:
  /// Copies the scene's events (the scene need not outlive this). `sim` is the simulation
  /// make_simulation(scene, …) returned.
  SceneEvents(const SceneSpec& scene, const Simulation& sim);

  /// Applies, in list order, every event not yet applied whose tick is ≤ `tick`; returns how
  /// many it applied (refused ones included). Never throws (but std::bad_alloc); nothing due
  /// costs O(1). Allocates only for add_obstacle (the collider's shape, its id kept).
  std::size_t apply_due(Simulation& sim, std::uint64_t tick);

  /// Events not applied yet.
  [[nodiscard]] std::size_t pending() const { return events_.size() - next_; }
  /// The tick of the next event to apply; nullopt when none is left.
  [[nodiscard]] std::optional<std::uint64_t> next_tick() const;
  /// Events applied so far, refused ones included.
  [[nodiscard]] std::size_t applied() const { return next_; }
  /// Of those, the ones the simulation refused.
  [[nodiscard]] std::size_t refused() const { return refused_; }
  [[nodiscard]] const std::vector<SceneEvent>& events() const { return events_; }

 private:
  /// Applies one event; false when the simulation refused it.
  bool apply(Simulation& sim, const SceneEvent& e);

  std::vector<SceneEvent> events_;
  std::size_t next_ = 0;
  std::size_t refused_ = 0;
  std::size_t agents_ = 0;         ///< the scene's agents
  std::uint32_t first_agent_ = 0;  ///< the id of the scene's agent 0
  /// The scene's obstacles, then those add_obstacle events added (an invalid id for one refused).
  std::vector<ColliderId> colliders_;
};

/// When a scene's last event lies far past its agents' arrival (late_events): more than
/// late_event_factor times the ticks by which every agent can have arrived, and more than
/// late_event_slack seconds of simulated time after them.
inline constexpr double late_event_factor = 10;
inline constexpr double late_event_slack = 60;  ///< seconds

/// A scene whose events outlast its agents: the run idles from the agents' arrival until its
/// last event is applied (or the step limit ends it).
struct LateEvents {
  std::uint64_t last_tick = 0;     ///< the tick of the scene's last event
  std::uint64_t idle_until = 0;    ///< where the run ends at the earliest: that tick, or the step limit before it
  std::uint64_t arrival_tick = 0;  ///< the tick by which every agent can have arrived: now plus
                                   ///< Simulation::arrival_time_bound() in ticks, rounded up
};
/// Whether a run that goes on until the last of `events` is applied (or `step_limit` ticks)
/// idles far past the time every agent needs to arrive as `sim` stands now: call it after the
/// warm-up plan_pending(), as `waymark simulate` does, which prints it as a warning. nullopt
/// when not, when no event is left, or when some agent's arrival has no bound
/// (arrival_time_bound). `dt`: the scene's seconds per tick [> 0]. O(agents + waypoints).
[[nodiscard]] std::optional<LateEvents> late_events(const SceneEvents& events, const Simulation& sim, double dt,
                                                    std::uint64_t step_limit = SceneLimits::max_steps);

}  // namespace waymark::steer
