// The simulation resource: live steering simulations kept between requests (POST
// /api/sim/start, step, add, stop), held by the session store (web/session_store.hpp).
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "waymark/search/budget.hpp"
#include "waymark/steer/simulation.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"

namespace waymark::web {
namespace {

using SimClock = std::chrono::steady_clock;
/// The largest agent a page may add (cells) and its top speed (cells per second).
constexpr double max_sim_agent_radius = 4;
constexpr double max_sim_agent_speed = 100;

/// Plans waiting paths until none waits or `seconds` have passed. One plan_pending call is one
/// frame of the request queue (a turn for each of a few searches), so it takes many calls.
void plan_within(steer::Simulation& sim, double seconds) {
  const auto end = SimClock::now() + std::chrono::duration_cast<SimClock::duration>(std::chrono::duration<double>(seconds));
  for (auto left = end - SimClock::now(); left > SimClock::duration::zero(); left = end - SimClock::now()) {
    if (sim.plan_pending(search::Budget::of_time(left)) == 0) return;
  }
}

/// A point of the map in world units (cell (x, y) spans [x, x+1) × [y, y+1)) on a passable cell.
Vec2 sim_point(const Field& object, const char* key, const grid::GridMap& map) {
  const Vec2 p = object.plane_point(key);
  if (!(p.x >= 0 && p.y >= 0 && p.x < map.width() && p.y < map.height()) ||
      !map.passable(static_cast<int>(p.x), static_cast<int>(p.y)))
    object.fail_at(key, "is outside the map or on a blocked cell");
  return p;
}

/// The agent as the page draws it: [x, y, arrived (0/1)].
json sim_state(const steer::Simulation& sim) {
  json agents = json::array();
  for (std::size_t i = 0; i < sim.size(); ++i) {
    const steer::AgentId id{static_cast<std::uint32_t>(i)};
    const Vec2 p = sim.state(id).position;
    agents.push_back({p.x, p.y, sim.arrived(id) ? 1 : 0});
  }
  const steer::SimulationStats& s = sim.stats();
  return {{"tick", s.ticks},
          {"agents", agents},
          {"stats",
           {{"agents", sim.size()},
            {"arrived", s.arrived},
            {"waiting", sim.waiting_for_paths()},
            {"collisions", s.collisions},
            {"min_clearance", std::isfinite(s.min_clearance) ? s.min_clearance : sim.params().clearance_cap},
            {"mean_tick_us", s.mean_tick_us()}}}};
}

void add_sim_agent(steer::Simulation& sim, const Field& agent, std::size_t max_agents) {
  if (agent.kind() != io::json::Kind::object) agent.fail("an agent must be {\"start\": [x, y], \"goal\": [x, y]}");
  if (sim.size() >= max_agents)
    throw ApiError(http_too_large, "a simulation holds at most " + std::to_string(max_agents) + " agents");
  steer::AgentParams params;
  params.radius = agent.number("radius", params.radius);
  params.max_speed = agent.number("max_speed", params.max_speed);
  if (!params.valid() || params.radius > max_sim_agent_radius || params.max_speed > max_sim_agent_speed)
    agent.fail("agent radius must be in (0, " + std::to_string(max_sim_agent_radius) + "] cells and max_speed in (0, " +
               std::to_string(max_sim_agent_speed) + "] cells/s");
  const Vec2 start = sim_point(agent, "start", *sim.map());
  const Vec2 goal = sim_point(agent, "goal", *sim.map());
  sim.add_agent(params, start, goal);
}

std::uint64_t session_id(const Field& request) {
  const Field id = request.field("id");
  if (id.kind() != io::json::Kind::unsigned_integer) id.fail("must be the number /api/sim/start gave");
  return id.value().magnitude();
}

}  // namespace

Response Api::sim_start(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    sessions_->check_room();  // before any work
    steer::SimulationParams params;
    const auto seed = request.find("seed");
    params.seed = seed ? static_cast<std::uint64_t>(seed->whole(0, INT32_MAX)) : 1;
    auto session = std::make_shared<Session>();
    session->dt = request.number("dt", 0.05);
    if (!(session->dt > 0 && session->dt <= 1)) request.fail_at("dt", "must be in (0, 1] seconds");
    grid::GridMap map = request_map(request.field("map"), map_names_, data_dir_, limits_, false);
    if (map.cell_count() > limits_.max_sim_map_cells)
      throw ApiError(http_too_large, "a simulation runs on at most " + std::to_string(limits_.max_sim_map_cells) + " cells");
    session->sim = std::make_unique<steer::Simulation>(std::move(map), params);
    if (const auto agents = request.find("agents")) {
      if (agents->kind() != io::json::Kind::array) agents->fail("must be an array");
      agents->for_each_item([&](const Field& agent) { add_sim_agent(*session->sim, agent, limits_.max_sim_agents); });
    }
    // Paths planned within the query time budget; what is left, ticks plan (planning_budget each).
    plan_within(*session->sim, limits_.max_query_seconds);
    session->touch();
    // The reply is made before the session is published: from then on other requests may change it.
    json reply = sim_state(*session->sim);
    reply["width"] = session->sim->map()->width();
    reply["height"] = session->sim->map()->height();
    reply["id"] = sessions_->add(session);
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::sim_step(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const auto given = request.find("ticks");
    const int ticks = given ? given->whole(1, limits_.max_sim_ticks_per_request) : 1;
    const std::lock_guard lock(s->mutex);
    for (int i = 0; i < ticks; ++i) s->sim->step(s->dt);
    s->touch();
    return Response{http_ok, text_of(sim_state(*s->sim))};
  });
}

Response Api::sim_add(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const std::lock_guard lock(s->mutex);
    add_sim_agent(*s->sim, request, limits_.max_sim_agents);
    plan_within(*s->sim, limits_.max_query_seconds);
    s->touch();
    return Response{http_ok, text_of(sim_state(*s->sim))};
  });
}

Response Api::sim_stop(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const std::shared_ptr<Session> s = sessions_->find(session_id(read.root()));
    sessions_->remove(s);
    return Response{http_ok, text_of(json{{"stopped", true}})};
  });
}

}  // namespace waymark::web
