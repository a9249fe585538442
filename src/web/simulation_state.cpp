#include "web/simulation_state.hpp"

#include <chrono>
#include <cmath>
#include <string>
#include <variant>

#include "waymark/core/text.hpp"
#include "waymark/search/budget.hpp"

namespace waymark::web {
namespace {

/// A coordinate to a thousandth of a unit: the drawn corners and paths need no more, and the
/// answer stays short (JSON prints the shortest text that reads back the same double).
double rounded(double v) { return std::round(v * 1000) / 1000; }

json rounded_point(Vec2 p) { return json::array({rounded(p.x), rounded(p.y)}); }

}  // namespace

void plan_within(steer::Simulation& sim, double seconds) {
  const search::Deadline deadline(time_budget(seconds));
  while (!deadline.passed() && sim.plan_pending(deadline.left()) > 0) {
  }
}

int step_within(steer::Simulation& sim, double dt, int ticks, double seconds) {
  const search::Deadline deadline(time_budget(seconds));
  int done = 0;
  do {
    sim.step(dt);
    ++done;
  } while (done < ticks && !deadline.passed());
  return done;
}

std::uint64_t session_id(const Field& request) {
  const Field id = request.field("id");
  if (id.kind() != io::json::Kind::unsigned_integer) id.fail("must be the number /api/sim/start gave");
  return id.value().magnitude();
}

Vec2 sim_point(const Field& object, const char* key, const Session& s) {
  if (s.mesh) return navmesh::plan(level_point(object, key, *s.mesh));
  const grid::GridMap& map = *s.sim->map();
  const Vec2 p = object.plane_point(key);
  if (!(p.x >= 0 && p.y >= 0 && p.x < map.width() && p.y < map.height()) ||
      !map.passable(static_cast<int>(p.x), static_cast<int>(p.y)))
    object.fail_at(key, "is outside the map or on a blocked cell");
  return p;
}

std::vector<steer::AgentId> agent_ids(const Field& field, const steer::Simulation& sim, std::size_t max) {
  if (field.kind() != io::json::Kind::array) field.fail("must be an array of agent ids");
  if (field.size() > max) field.fail("may name at most " + number_text(max) + " agents");
  std::vector<steer::AgentId> ids;
  ids.reserve(field.size());
  field.for_each_item([&](const Field& id) {
    if (id.kind() != io::json::Kind::unsigned_integer || id.value().magnitude() >= sim.size())
      id.fail("must be an agent id, from 0 to " + number_text(sim.size()) + " (excluded)");
    ids.push_back(steer::AgentId{static_cast<std::uint32_t>(id.value().magnitude())});
  });
  return ids;
}

std::vector<steer::AgentId> shown_paths(const Field& request, const steer::Simulation& sim) {
  const auto given = request.find("paths");
  if (!given || given->is_null()) return {};
  return agent_ids(*given, sim, max_sim_paths_shown);
}

json sim_state(const Session& s, std::span<const steer::AgentId> paths) {
  const steer::Simulation& sim = *s.sim;
  json agents = json::array();
  json status = json::array();
  json reason = json::array();
  json corners = json::array();
  for (std::size_t i = 0; i < sim.size(); ++i) {
    const steer::AgentId id{static_cast<std::uint32_t>(i)};
    const Vec2 p = sim.state(id).position;
    agents.push_back({p.x, p.y, sim.arrived(id) ? 1 : 0});
    status.push_back(to_string(sim.status(id)));
    reason.push_back(to_string(sim.reason(id)));
    const auto corner = sim.corner(id);
    corners.push_back(corner ? rounded_point(*corner) : json(nullptr));
  }
  json shown = json::array();
  for (const steer::AgentId id : paths) {
    const auto rest = sim.remaining_path(id);
    json points = json::array();
    for (std::size_t k = 0; k < rest.size() && k < max_sim_path_points; ++k) points.push_back(rounded_point(rest[k]));
    json path = {{"id", id.value}, {"points", points}};
    if (rest.size() > max_sim_path_points) path["truncated"] = true;
    shown.push_back(path);
  }
  const steer::SimulationStats& st = sim.stats();
  json reply = {{"tick", st.ticks},
                {"agents", agents},
                {"status", status},
                {"reason", reason},
                {"corners", corners},
                {"paths", shown},
                {"world", s.world},
                {"stats",
                 {{"agents", sim.live_agents()},
                  {"arrived", st.arrived},
                  {"waiting", sim.waiting_for_paths()},
                  {"collisions", st.collisions},
                  {"min_clearance", std::isfinite(st.min_clearance) ? st.min_clearance : sim.params().clearance_cap},
                  {"mean_tick_us", st.mean_tick_us()},
                  {"removed", st.removed},
                  {"edits", st.edits},
                  {"edit_replans", st.edit_replans},
                  {"pushed_out", st.pushed_out}}}};
  if (const grid::GridMap* map = sim.map()) reply["map_version"] = map->version();
  return reply;
}

json obstacle_json(const SessionObstacle& o) {
  if (const auto* c = std::get_if<steer::Circle>(&o.shape))
    return {{"id", o.id.value}, {"circle", {c->centre.x, c->centre.y, c->radius}}};
  const auto& b = std::get<steer::Box>(o.shape);
  return {{"id", o.id.value}, {"box", {b.min.x, b.min.y, b.max.x, b.max.y}}};
}

json world_json(const Session& s, bool rows) {
  json j = {{"world", s.world}};
  if (const grid::GridMap* map = s.sim->map()) {
    j["kind"] = "grid";
    j["width"] = map->width();
    j["height"] = map->height();
    if (rows) {
      json lines = json::array();
      std::string line;
      for (int y = 0; y < map->height(); ++y) {
        line.clear();
        for (int x = 0; x < map->width(); ++x) line += map->passable(x, y) ? '.' : '@';
        lines.push_back(line);
      }
      j["rows"] = std::move(lines);
      j["map_version"] = map->version();
    }
  } else {
    const Aabb3& b = s.mesh->bounds();
    j["kind"] = "navmesh";
    j["level"] = s.level;
    j["bounds"] = {{b.min.x, b.min.z}, {b.max.x, b.max.z}};
  }
  if (rows) {
    json obstacles = json::array();
    for (const SessionObstacle& o : s.obstacles) obstacles.push_back(obstacle_json(o));
    j["obstacles"] = std::move(obstacles);
  }
  return j;
}

}  // namespace waymark::web
