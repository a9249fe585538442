// The simulation resource: live steering simulations kept between requests (POST
// /api/sim/start, step, add, stop), on a grid map or a bundled level's navmesh, held by the
// session store (web/session_store.hpp). Their world's edits and the agents' orders:
// simulation_world_resource.cpp.
#include <memory>
#include <string>
#include <utility>

#include "waymark/core/text.hpp"
#include "waymark/steer/path_service.hpp"
#include "waymark/steer/simulation.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"
#include "web/simulation_state.hpp"

namespace waymark::web {
namespace {

/// The largest agent a page may add (world units) and its top speed (units per second).
constexpr double max_sim_agent_radius = 4;
constexpr double max_sim_agent_speed = 100;

void add_sim_agent(Session& s, const Field& agent, std::size_t max_agents) {
  if (agent.kind() != io::json::Kind::object) agent.fail("an agent must be {\"start\": [x, y], \"goal\": [x, y]}");
  if (s.sim->size() >= max_agents)
    throw ApiError(http_too_large, "a simulation holds at most " + number_text(max_agents) + " agents");
  steer::AgentParams params;
  params.radius = agent.number("radius", params.radius);
  params.max_speed = agent.number("max_speed", params.max_speed);
  if (!params.valid() || params.radius > max_sim_agent_radius || params.max_speed > max_sim_agent_speed)
    agent.fail("agent radius must be in (0, " + number_text(max_sim_agent_radius) + "] world units and max_speed in (0, " +
               number_text(max_sim_agent_speed) + "] units/s");
  const Vec2 start = sim_point(agent, "start", s);
  const Vec2 goal = sim_point(agent, "goal", s);
  s.sim->add_agent(params, start, goal);
}

/// A simulation on `mesh` (Recast eroded it by its agent radius: the navmesh constructor's
/// default), as tests/steer/navmesh_crowd_test.cpp.
std::unique_ptr<steer::Simulation> navmesh_simulation(const navmesh::NavMesh& mesh, steer::SimulationParams params) {
  return std::make_unique<steer::Simulation>(mesh, params);
}

}  // namespace

Response Api::sim_start(std::string_view body, std::string_view client) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    sessions_->check_room(client);  // before any work
    const auto agents = request.find("agents");
    if (agents && agents->kind() != io::json::Kind::array) agents->fail("must be an array");
    if (agents && agents->size() > limits_.max_sim_agents)  // before the map is read
      throw ApiError(http_too_large, "a simulation holds at most " + number_text(limits_.max_sim_agents) + " agents; \"agents\" lists " +
                                         number_text(agents->size()));
    steer::SimulationParams params;
    const auto seed = request.find("seed");
    params.seed = seed ? static_cast<std::uint64_t>(seed->whole(0, INT32_MAX)) : 1;
    auto session = std::make_shared<Session>();
    session->dt = request.number("dt", 0.05);
    if (!(session->dt > 0 && session->dt <= 1)) request.fail_at("dt", "must be in (0, 1] seconds");
    const auto level_name = request.find("level");
    if (level_name && request.find("map")) request.fail("give \"map\" (a grid) or \"level\" (a navmesh), not both");
    if (level_name) {
      session->level = request.text("level", "");
      session->mesh = level_mesh(session->level);
      session->sim = navmesh_simulation(*session->mesh, params);
    } else {
      grid::GridMap map = request_map(request.field("map"), map_names_, data_dir_, limits_, false);
      if (map.cell_count() > limits_.max_sim_map_cells)
        throw ApiError(http_too_large, "a simulation runs on at most " + number_text(limits_.max_sim_map_cells) + " cells");
      session->sim = std::make_unique<steer::Simulation>(std::move(map), params);
    }
    if (agents) agents->for_each_item([&](const Field& agent) { add_sim_agent(*session, agent, limits_.max_sim_agents); });
    // Paths planned within the simulation's time budget; what is left, ticks plan (planning_budget each).
    plan_within(*session->sim, limits_.max_sim_seconds);
    session->touch();
    // The reply is made before the session is published: from then on other requests may change it.
    json reply = sim_state(*session);
    reply.update(world_json(*session, false));
    reply["id"] = sessions_->add(session, client);
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
    const auto paths = shown_paths(request, *s->sim);
    const int done = step_within(*s->sim, s->dt, ticks, limits_.max_sim_seconds);
    s->touch();
    json reply = sim_state(*s, paths);
    reply["ticks_done"] = done;
    if (done < ticks) reply["stopped"] = "time-limit";  // the page asks again for the rest
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::sim_add(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const std::lock_guard lock(s->mutex);
    add_sim_agent(*s, request, limits_.max_sim_agents);
    plan_within(*s->sim, limits_.max_sim_seconds);
    s->touch();
    return Response{http_ok, text_of(sim_state(*s))};
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
