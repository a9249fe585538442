// SceneEvents: a scene's events applied to its simulation as their ticks come
// (steer/scene_events.hpp).
#include "waymark/steer/scene_events.hpp"

#include <algorithm>
#include <cmath>

#include "waymark/core/errors.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::steer {

SceneEvents::SceneEvents(const SceneSpec& scene, const Simulation& sim)
    : events_(scene.events), agents_(scene.agents.size()) {
  // make_simulation added the scene's agents and obstacles last, in file order.
  first_agent_ = static_cast<std::uint32_t>(sim.size() >= agents_ ? sim.size() - agents_ : 0);
  const std::size_t colliders = sim.obstacles().size();
  const std::size_t first = colliders >= scene.obstacles.size() ? colliders - scene.obstacles.size() : 0;
  colliders_.reserve(scene.obstacles.size());
  for (std::size_t k = first; k < colliders; ++k) colliders_.push_back(ColliderId{static_cast<std::uint32_t>(k)});
}

std::optional<std::uint64_t> SceneEvents::next_tick() const {
  if (next_ == events_.size()) return std::nullopt;
  return events_[next_].tick;
}

std::size_t SceneEvents::apply_due(Simulation& sim, std::uint64_t tick) {
  const std::size_t before = next_;
  while (next_ < events_.size() && events_[next_].tick <= tick) {
    if (!apply(sim, events_[next_])) ++refused_;
    ++next_;
  }
  return next_ - before;
}

bool SceneEvents::apply(Simulation& sim, const SceneEvent& e) {
  using Kind = SceneEvent::Kind;
  if (e.orders_agent() && e.index >= agents_) return false;
  const AgentId agent{static_cast<std::uint32_t>(first_agent_ + (e.orders_agent() ? e.index : 0))};
  switch (e.kind) {
    case Kind::block:
    case Kind::open: {
      grid::GridMap* map = sim.edit_map();
      if (map == nullptr || e.x0 < 0 || e.y0 < 0 || e.x0 > e.x1 || e.y0 > e.y1 || e.x1 >= map->width() ||
          e.y1 >= map->height())
        return false;
      map->set_passable(grid::CellRect{e.x0, e.y0, e.x1 + 1, e.y1 + 1}, e.kind == Kind::open);
      return true;
    }
    case Kind::goal: return sim.set_goal(agent, e.point);
    case Kind::warp: return sim.warp(agent, e.point);
    case Kind::stop: return sim.stop(agent);
    case Kind::resume: return sim.resume(agent);
    case Kind::remove: return sim.remove_agent(agent);
    case Kind::add_obstacle:
      try {
        colliders_.push_back(sim.add_obstacle(obstacle_shape(e.obstacle), e.obstacle.layer));
      } catch (const BuildError&) {
        colliders_.push_back(ColliderId::invalid());  // the indices after it keep their meaning
        return false;
      }
      return true;
    case Kind::remove_obstacle:
      return e.index < colliders_.size() && colliders_[e.index].valid() && sim.remove_obstacle(colliders_[e.index]);
  }
  return false;
}

std::optional<LateEvents> late_events(const SceneEvents& events, const Simulation& sim, double dt,
                                      std::uint64_t step_limit) {
  if (events.pending() == 0 || !(dt > 0) || !std::isfinite(dt)) return std::nullopt;
  const std::optional<double> bound = sim.arrival_time_bound();
  if (!bound) return std::nullopt;
  // Distances up to max_coordinate over speeds > 0: possibly huge, never NaN.
  const double ticks = std::ceil(*bound / dt);
  if (!(ticks < static_cast<double>(SceneLimits::max_steps))) return std::nullopt;
  const std::uint64_t last = events.events().back().tick;
  const std::uint64_t idle_until = std::min(last, step_limit);
  const std::uint64_t arrival = sim.stats().ticks + static_cast<std::uint64_t>(ticks);
  const double end = static_cast<double>(idle_until), arrive = static_cast<double>(arrival);
  if (!(end > late_event_factor * std::max(arrive, 1.0) && (end - arrive) * dt > late_event_slack)) return std::nullopt;
  return LateEvents{last, idle_until, arrival};
}

}  // namespace waymark::steer
