// Scene files: the check of a scene against the map it names, once that is loaded (agents on
// passable cells, start discs clear of blocked cells, obstacles and each other; events inside
// the map).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "scene_text.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/scene.hpp"
#include "waymark/steer/obstacle_world.hpp"
#include "waymark/steer/simulation.hpp"

namespace waymark::io {

using scene_text::count_text;
using scene_text::spell;
using scene_text::spell_measure;
using steer::AgentSpec;
using steer::SceneLimits;

namespace {

std::string map_extent(const grid::GridMap& map) {
  const Vec2 lo = map.cell_center({0, 0}) - Vec2{0.5 * map.cell_size(), 0.5 * map.cell_size()};
  const Vec2 hi = lo + Vec2{map.width() * map.cell_size(), map.height() * map.cell_size()};
  return number_text(map.width()) + "x" + number_text(map.height()) + " map (x from " + spell(lo.x) + " to " +
         spell(hi.x) + ", y from " + spell(lo.y) + " to " + spell(hi.y) + ")";
}

std::string cell_text(grid::CellCoord c) { return pair_text(c.x, c.y); }

/// Why `p` cannot hold an agent on `map` ("" when it can): outside, or in a blocked cell.
std::string placement_problem(const grid::GridMap& map, Vec2 p) {
  const std::optional<grid::CellCoord> c = map.world_to_cell(p);
  if (!c) return spell(p) + " is outside the " + map_extent(map);
  if (!map.passable(c->x, c->y)) return spell(p) + " lies in blocked cell " + cell_text(*c);
  return {};
}

/// Why a disc cannot stand on `map` ("" when it can): it crosses the border or overlaps a blocked
/// cell (touching is allowed). Its centre lies on the map.
std::string disc_problem(const grid::GridMap& map, Vec2 centre, double radius) {
  const double s = map.cell_size();
  const Vec2 lo = map.cell_center({0, 0}) - Vec2{0.5 * s, 0.5 * s};
  const Vec2 hi = lo + Vec2{map.width() * s, map.height() * s};
  if (centre.x - radius < lo.x || centre.x + radius > hi.x || centre.y - radius < lo.y || centre.y + radius > hi.y)
    return "crosses the border of the " + map_extent(map);
  const auto index = [&](double world, double origin, int size) {
    const double f = std::floor((world - origin) / s);
    return static_cast<int>(std::clamp(f, 0.0, static_cast<double>(size - 1)));
  };
  const int x0 = index(centre.x - radius, lo.x, map.width()), x1 = index(centre.x + radius, lo.x, map.width());
  const int y0 = index(centre.y - radius, lo.y, map.height()), y1 = index(centre.y + radius, lo.y, map.height());
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (map.passable(x, y)) continue;
      const double cx0 = lo.x + x * s, cy0 = lo.y + y * s;
      const double dx = std::max({cx0 - centre.x, 0.0, centre.x - (cx0 + s)});
      const double dy = std::max({cy0 - centre.y, 0.0, centre.y - (cy0 + s)});
      if (dx * dx + dy * dy < radius * radius) return "overlaps blocked cell " + cell_text({x, y});
    }
  }
  return {};
}

/// The first pair of agents (lowest first index, then lowest second) whose start discs overlap.
std::optional<std::pair<std::size_t, std::size_t>> overlapping_starts(const std::vector<AgentSpec>& agents) {
  double largest = 0;
  for (const AgentSpec& a : agents) largest = std::max(largest, a.radius);
  // Buckets of side 2 × the largest radius: overlapping discs lie in neighbouring buckets.
  const double side = 2 * largest;
  constexpr double far = 1e12;  // keeps the conversion defined; far buckets merge, which only costs checks
  const auto bucket = [&](double v) { return static_cast<std::int64_t>(std::clamp(std::floor(v / side), -far, far)); };
  struct Entry {
    std::int64_t bx, by;
    std::size_t agent;
    bool operator<(const Entry& o) const { return std::tie(bx, by, agent) < std::tie(o.bx, o.by, o.agent); }
  };
  std::vector<Entry> entries;
  entries.reserve(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i)
    entries.push_back({bucket(agents[i].start.x), bucket(agents[i].start.y), i});
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const AgentSpec& a = agents[i];
    const std::int64_t bx = bucket(a.start.x), by = bucket(a.start.y);
    std::optional<std::size_t> partner;
    for (std::int64_t x = bx - 1; x <= bx + 1; ++x) {
      const auto begin = std::lower_bound(entries.begin(), entries.end(), Entry{x, by - 1, 0});
      const auto end = std::lower_bound(entries.begin(), entries.end(), Entry{x, by + 2, 0});
      for (auto it = begin; it != end; ++it) {
        if (it->agent == i) continue;
        const AgentSpec& b = agents[it->agent];
        const Vec2 d = b.start - a.start;
        const double reach = a.radius + b.radius;
        if (d.x * d.x + d.y * d.y < reach * reach && (!partner || it->agent < *partner)) partner = it->agent;
      }
    }
    // Agents before i found no partner, so any partner of i comes after it.
    if (partner) return std::pair{i, *partner};
  }
  return std::nullopt;
}

/// The events against the map: rectangles inside it, agents that exist, goal and warp points
/// on passable cells of the map as loaded and outside every obstacle there is at their tick
/// (the scene's and those earlier events added, less those they removed), obstacles to remove
/// that exist by then.
void check_events(const steer::SceneSpec& scene, const grid::GridMap& map, const std::string& source) {
  using Kind = steer::SceneEvent::Kind;
  std::size_t obstacles = scene.obstacles.size();
  // The obstacles as the events change them, built only when some goal or warp could meet one.
  const bool points = std::any_of(scene.events.begin(), scene.events.end(),
                                  [](const steer::SceneEvent& e) { return e.kind == Kind::goal || e.kind == Kind::warp; });
  const bool any_obstacle = !scene.obstacles.empty() || std::any_of(scene.events.begin(), scene.events.end(), [](const steer::SceneEvent& e) {
                              return e.kind == Kind::add_obstacle;
                            });
  std::optional<steer::ObstacleWorld> solids;
  std::vector<steer::ColliderId> colliders;  // by obstacle index, as steer::SceneEvents counts them
  if (points && any_obstacle) {
    solids.emplace();
    for (const steer::ObstacleSpec& o : scene.obstacles) colliders.push_back(solids->add(steer::obstacle_shape(o), o.layer));
  }
  for (std::size_t i = 0; i < scene.events.size(); ++i) {
    const steer::SceneEvent& e = scene.events[i];
    const auto fail = [&](const std::string& what) {
      std::string s = number_text(i);  // built up front (-Wrestrict, see cell_text)
      s.insert(0, "events[");
      s += ']';
      throw LoadError(source, 0, s + what);
    };
    const std::string action(steer::to_string(e.kind));
    if (e.orders_agent() && e.index >= scene.agents.size())
      fail(".agent: there is no agent " + number_text(e.index) + " (the scene has " +
           count_text(scene.agents.size(), "agents") + ")");
    switch (e.kind) {
      case Kind::block:
      case Kind::open:
        if (e.x0 < 0 || e.y0 < 0 || e.x0 > e.x1 || e.y0 > e.y1)
          fail("." + action + ": cells " + cell_text({e.x0, e.y0}) + " to " + cell_text({e.x1, e.y1}) +
               " are not a rectangle (x0 ≤ x1, y0 ≤ y1, all ≥ 0)");
        if (e.x1 >= map.width() || e.y1 >= map.height())
          fail("." + action + ": cells " + cell_text({e.x0, e.y0}) + " to " + cell_text({e.x1, e.y1}) +
               " reach outside the " + map_extent(map));
        break;
      case Kind::goal:
      case Kind::warp:
        if (const std::string why = placement_problem(map, e.point); !why.empty()) fail("." + action + " " + why);
        // As an agent's goal: not inside an obstacle (the simulation would find it closed, or
        // push a warped agent out to the nearest free cell).
        if (solids && solids->clearance(e.point, 1) <= 0)
          fail("." + action + " " + spell(e.point) + " lies inside an obstacle at tick " + number_text(e.tick));
        break;
      case Kind::add_obstacle:
        ++obstacles;
        if (solids) {
          try {
            colliders.push_back(solids->add(steer::obstacle_shape(e.obstacle), e.obstacle.layer));
          } catch (const BuildError&) {
            colliders.push_back(steer::ColliderId::invalid());  // refused by the simulation too
          }
        }
        break;
      case Kind::remove_obstacle:
        if (e.index >= obstacles)
          fail("." + action + ": there is no obstacle " + number_text(e.index) + " (" +
               count_text(obstacles, "obstacles by then") + ")");
        if (solids && colliders[e.index].valid() && solids->contains(colliders[e.index])) solids->remove(colliders[e.index]);
        break;
      case Kind::stop:
      case Kind::resume:
      case Kind::remove: break;
    }
  }
}

}  // namespace

void check_scene_against_map(const steer::SceneSpec& scene, const grid::GridMap& map, const std::string& source) {
  const auto agent_name = [](std::size_t i) {
    std::string s = number_text(i);  // built up front (-Wrestrict, see cell_text)
    s.insert(0, "agents[");
    s += ']';
    return s;
  };
  const auto fail = [&](std::size_t i, const std::string& what) { throw LoadError(source, 0, agent_name(i) + what); };
  for (std::size_t i = 0; i < scene.agents.size(); ++i) {
    const AgentSpec& a = scene.agents[i];
    if (!(a.radius > 0 && a.radius <= SceneLimits::max_radius))
      fail(i, ".radius: must be a finite number > 0 and ≤ " + spell(SceneLimits::max_radius) + ", got " + spell(a.radius));
    if (const std::string why = placement_problem(map, a.start); !why.empty()) fail(i, ".start " + why);
    if (const std::string why = disc_problem(map, a.start, a.radius); !why.empty())
      fail(i, ": the start disc (radius " + spell(a.radius) + " around " + spell(a.start) + ") " + why);
    for (std::size_t k = 0; k < a.waypoints.size(); ++k) {
      if (const std::string why = placement_problem(map, a.waypoints[k]); !why.empty())
        fail(i, ".waypoints[" + number_text(k) + "] " + why);
    }
    if (const std::string why = placement_problem(map, a.goal); !why.empty()) fail(i, ".goal " + why);
  }
  // The scene's own obstacles: a start disc must not overlap one (a disc that starts inside a
  // solid cannot move out), a goal or waypoint must not lie inside one.
  if (!scene.obstacles.empty()) {
    steer::ObstacleWorld obstacles;
    for (const steer::ObstacleSpec& o : scene.obstacles) obstacles.add(steer::obstacle_shape(o), o.layer);
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
      const AgentSpec& a = scene.agents[i];
      if (obstacles.clearance(a.start, a.radius) < a.radius)
        fail(i, ": the start disc (radius " + spell(a.radius) + " around " + spell(a.start) + ") overlaps an obstacle");
      if (obstacles.clearance(a.goal, 1) <= 0) fail(i, ".goal " + spell(a.goal) + " lies inside an obstacle");
      for (std::size_t k = 0; k < a.waypoints.size(); ++k) {
        if (obstacles.clearance(a.waypoints[k], 1) <= 0)
          fail(i, ".waypoints[" + number_text(k) + "] " + spell(a.waypoints[k]) + " lies inside an obstacle");
      }
    }
  }
  if (const auto pair = overlapping_starts(scene.agents)) {
    const AgentSpec& a = scene.agents[pair->first];
    const AgentSpec& b = scene.agents[pair->second];
    const Vec2 d = b.start - a.start;
    fail(pair->first, " and " + agent_name(pair->second) + ": start discs overlap (centres " + spell(a.start) + " and " +
                          spell(b.start) + " lie " + spell_measure(std::hypot(d.x, d.y)) + " apart, radii " + spell(a.radius) +
                          " + " + spell(b.radius) + ")");
  }
  check_events(scene, map, source);
}

}  // namespace waymark::io
