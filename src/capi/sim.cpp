/// The C API's simulations (waymark.h): steer::Simulation on a copy of a grid, or on a navmesh
/// whose handle it keeps, every argument checked before the C++ side sees it.

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "errors.hpp"
#include "handles.hpp"
#include "objects.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/text.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/steer/simulation.hpp"
#include "waymark/waymark.h"

namespace waymark::capi {
namespace {

// The C enums are the C++ ones' fixed values.
static_assert(static_cast<int>(steer::AgentStatus::planning) == WM_AGENT_PLANNING);
static_assert(static_cast<int>(steer::AgentStatus::moving) == WM_AGENT_MOVING);
static_assert(static_cast<int>(steer::AgentStatus::arrived) == WM_AGENT_ARRIVED);
static_assert(static_cast<int>(steer::AgentStatus::unreachable) == WM_AGENT_UNREACHABLE);
static_assert(static_cast<int>(steer::AgentStatus::stuck) == WM_AGENT_STUCK);
static_assert(static_cast<int>(steer::AgentStatus::stopped) == WM_AGENT_STOPPED);
static_assert(static_cast<int>(steer::AgentStatus::removed) == WM_AGENT_REMOVED);
static_assert(static_cast<int>(steer::AgentStatus::on_link) == WM_AGENT_ON_LINK);
static_assert(static_cast<int>(steer::AgentReason::none) == WM_REASON_NONE);
static_assert(static_cast<int>(steer::AgentReason::start_outside) == WM_REASON_START_OUTSIDE);
static_assert(static_cast<int>(steer::AgentReason::goal_outside) == WM_REASON_GOAL_OUTSIDE);
static_assert(static_cast<int>(steer::AgentReason::start_closed) == WM_REASON_START_CLOSED);
static_assert(static_cast<int>(steer::AgentReason::goal_closed) == WM_REASON_GOAL_CLOSED);
static_assert(static_cast<int>(steer::AgentReason::no_path) == WM_REASON_NO_PATH);
static_assert(static_cast<int>(steer::AgentReason::search_failed) == WM_REASON_SEARCH_FAILED);
static_assert(static_cast<int>(steer::AgentReason::crowded_goal) == WM_REASON_CROWDED_GOAL);
static_assert(static_cast<int>(steer::AgentReason::no_progress) == WM_REASON_NO_PROGRESS);

struct SimObject final : Object {
  // A grid simulation owns its map; a navmesh one keeps the navmesh's handle object alive.
  std::shared_ptr<NavMeshObjectBase> navmesh;
  std::unique_ptr<steer::Simulation> sim;
};

std::string id_text(int id) {
  std::string s = number_text(id);
  s.insert(0, "agent ");
  return s;
}

/// The simulation's and the grid world's parameters from `in` (NULL: the defaults).
int params_of(const wm_sim_params* in, steer::SimulationParams& sim, steer::GridWorldParams& grid,
              steer::NavMeshWorldParams& nav) {
  const wm_sim_params p = in != nullptr ? *in : wm_sim_params_default();
  if (p.version != WM_SIM_PARAMS_VERSION) {
    return wrong_version("wm_sim_params", p.version, WM_SIM_PARAMS_VERSION);
  }
  if (p.max_requests < 1 || p.max_requests > 1 << 20) {
    return fail(WM_ERROR_INVALID_ARGUMENT, "max_requests is " + number_text(p.max_requests) + ", must be 1 to 1048576");
  }
  if (p.planning_expansions == 0) return fail(WM_ERROR_INVALID_ARGUMENT, "planning_expansions is 0, must be >= 1");
  sim = {};
  sim.seed = p.seed;
  sim.agent_avoidance = p.agent_avoidance != 0;
  sim.queue.max_requests = static_cast<std::size_t>(p.max_requests);
  sim.planning_budget.expansions = p.planning_expansions;
  sim.planning_budget.scanned = p.planning_expansions * search::RequestQueueOptions::default_scanned_per_expansion;
  if (const int rc = planner_options_of(p.planner, grid.planner); rc != WM_OK) return rc;
  grid.plan_around_obstacles = p.plan_around_obstacles != 0;
  if (p.nav_mode != nullptr) {
    const auto mode = value_of(navmesh::nav_mode_names, p.nav_mode);
    if (!mode) return fail(WM_ERROR_INVALID_ARGUMENT, "unknown nav_mode " + quoted(p.nav_mode) + " (" + choices(navmesh::nav_mode_names) + ")");
    nav.query.mode = *mode;
  }
  return WM_OK;
}

SimObject* live_sim(const wm_sim* s) { return find_as<SimObject>(s, Kind::sim); }

/// The agent `id` of `o` that orders may name (handed out and not removed).
int check_agent(const SimObject& o, int id) {
  if (id < 0 || static_cast<std::size_t>(id) >= o.sim->size()) {
    return fail(WM_ERROR_INVALID_ARGUMENT, id_text(id) + " is not an agent of this simulation (it has " + number_text(o.sim->size()) + ")");
  }
  if (o.sim->status(steer::AgentId{static_cast<std::uint32_t>(id)}) == steer::AgentStatus::removed) {
    return fail(WM_ERROR_INVALID_ARGUMENT, id_text(id) + " was removed");
  }
  return WM_OK;
}

bool finite2(double x, double y) { return std::isfinite(x) && std::isfinite(y); }

/// An order to agent `id`: the simulation and the agent checked, then `f`.
template <class Order>
int order(wm_sim* s, int id, Order&& f) {
  return guarded([&]() -> int {
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (const int rc = check_agent(*o, id); rc != WM_OK) return rc;
    f(*o->sim, steer::AgentId{static_cast<std::uint32_t>(id)});
    return WM_OK;
  });
}

}  // namespace
}  // namespace waymark::capi

using namespace waymark;        // NOLINT: the C entry points below
using namespace waymark::capi;  // NOLINT

extern "C" {

wm_sim_params wm_sim_params_default(void) {
  wm_sim_params p{};
  const steer::SimulationParams d;
  p.version = WM_SIM_PARAMS_VERSION;
  p.seed = d.seed;
  p.agent_avoidance = d.agent_avoidance ? 1 : 0;
  p.max_requests = static_cast<int>(d.queue.max_requests);
  p.planning_expansions = d.planning_budget.expansions;
  p.planner = wm_planner_options_default();
  p.plan_around_obstacles = steer::GridWorldParams{}.plan_around_obstacles ? 1 : 0;
  p.nav_mode = nullptr;
  return p;
}

wm_agent_params wm_agent_params_default(void) {
  const steer::AgentParams d;
  wm_agent_params p{};
  p.version = WM_AGENT_PARAMS_VERSION;
  p.radius = d.radius;
  p.max_speed = d.max_speed;
  p.max_force = d.max_force;
  p.mass = d.mass;
  return p;
}

int wm_sim_create_grid(const wm_grid* g, const wm_sim_params* params, wm_sim** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    const GridObject* grid = find_as<GridObject>(g, Kind::grid);
    if (grid == nullptr) return invalid_handle("grid");
    steer::SimulationParams sim;
    steer::GridWorldParams world;
    steer::NavMeshWorldParams unused;
    if (const int rc = params_of(params, sim, world, unused); rc != WM_OK) return rc;
    auto o = std::make_shared<SimObject>();
    o->sim = std::make_unique<steer::Simulation>(grid->map, sim, world);
    return hand_out(Kind::sim, std::move(o), out);
  });
}

int wm_sim_create_navmesh(const wm_navmesh* m, const wm_sim_params* params, wm_sim** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    std::shared_ptr<NavMeshObjectBase> mesh = share_as<NavMeshObjectBase>(m, Kind::navmesh);
    if (!mesh) return invalid_handle("navmesh");
    steer::SimulationParams sim;
    steer::GridWorldParams unused;
    steer::NavMeshWorldParams world;
    if (const int rc = params_of(params, sim, unused, world); rc != WM_OK) return rc;
    auto o = std::make_shared<SimObject>();
    o->sim = std::make_unique<steer::Simulation>(*mesh->mesh, sim, world);
    o->navmesh = std::move(mesh);
    return hand_out(Kind::sim, std::move(o), out);
  });
}

int wm_sim_retain(wm_sim* s) { return retain_as(s, Kind::sim, "simulation"); }
void wm_sim_release(wm_sim* s) { release_as(s, Kind::sim); }

int wm_sim_add_agent(wm_sim* s, const wm_agent_params* params, double sx, double sy, double gx, double gy, int* id) {
  return guarded([&]() -> int {
    if (id != nullptr) *id = -1;
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (id == nullptr) return null_argument("id");
    const wm_agent_params p = params != nullptr ? *params : wm_agent_params_default();
    if (p.version != WM_AGENT_PARAMS_VERSION) {
      return wrong_version("wm_agent_params", p.version, WM_AGENT_PARAMS_VERSION);
    }
    steer::AgentParams a;
    a.radius = p.radius;
    a.max_speed = p.max_speed;
    a.max_force = p.max_force;
    a.mass = p.mass;
    if (!a.valid()) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "agent parameters out of range (radius, max_speed, max_force and mass must be finite and > 0)");
    }
    if (!finite2(sx, sy) || !finite2(gx, gy) || std::abs(sx) > steer::max_coordinate || std::abs(sy) > steer::max_coordinate ||
        std::abs(gx) > steer::max_coordinate || std::abs(gy) > steer::max_coordinate) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "a start and goal must be finite and within +-" + number_text(steer::max_coordinate));
    }
    *id = static_cast<int>(o->sim->add_agent(a, {sx, sy}, {gx, gy}).value);
    return WM_OK;
  });
}

int wm_sim_set_goal(wm_sim* s, int id, double gx, double gy) {
  return guarded([&]() -> int {
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (const int rc = check_agent(*o, id); rc != WM_OK) return rc;
    if (!o->sim->set_goal(steer::AgentId{static_cast<std::uint32_t>(id)}, {gx, gy})) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "a goal must be finite and within +-" + number_text(steer::max_coordinate));
    }
    return WM_OK;
  });
}

int wm_sim_stop(wm_sim* s, int id) { return order(s, id, [](steer::Simulation& sim, steer::AgentId a) { sim.stop(a); }); }
int wm_sim_resume(wm_sim* s, int id) { return order(s, id, [](steer::Simulation& sim, steer::AgentId a) { sim.resume(a); }); }
int wm_sim_remove_agent(wm_sim* s, int id) {
  return order(s, id, [](steer::Simulation& sim, steer::AgentId a) { sim.remove_agent(a); });
}

int wm_sim_step(wm_sim* s, double dt) {
  return guarded([&]() -> int {
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (!(dt > 0) || !std::isfinite(dt)) return fail(WM_ERROR_INVALID_ARGUMENT, "dt is " + number_text(dt) + ", must be finite and > 0");
    o->sim->step(dt);
    return WM_OK;
  });
}

int wm_sim_agent_count(const wm_sim* s, int* count) {
  return guarded([&]() -> int {
    if (count != nullptr) *count = 0;
    const SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (count == nullptr) return null_argument("count");
    *count = static_cast<int>(o->sim->size());
    return WM_OK;
  });
}

int wm_sim_agent(const wm_sim* s, int id, double* x, double* y, int* status, int* reason) {
  return guarded([&]() -> int {
    const SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (id < 0 || static_cast<std::size_t>(id) >= o->sim->size()) {
      return fail(WM_ERROR_INVALID_ARGUMENT, id_text(id) + " is not an agent of this simulation (it has " + number_text(o->sim->size()) + ")");
    }
    const steer::AgentId a{static_cast<std::uint32_t>(id)};
    const Vec2 p = o->sim->position(a);
    if (x != nullptr) *x = p.x;
    if (y != nullptr) *y = p.y;
    if (status != nullptr) *status = static_cast<int>(o->sim->status(a));
    if (reason != nullptr) *reason = static_cast<int>(o->sim->reason(a));
    return WM_OK;
  });
}

int wm_sim_agents(const wm_sim* s, double* xy, int* statuses, int capacity, int* count) {
  return guarded([&]() -> int {
    if (count != nullptr) *count = 0;
    const SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (count == nullptr) return null_argument("count");
    if (capacity < 0) return fail(WM_ERROR_INVALID_ARGUMENT, "capacity is " + number_text(capacity) + ", must be >= 0");
    const std::size_t n = o->sim->size();
    *count = static_cast<int>(n);
    const std::size_t fits = std::min(n, static_cast<std::size_t>(capacity));
    for (std::size_t i = 0; i < fits; ++i) {
      const steer::AgentId a{static_cast<std::uint32_t>(i)};
      if (xy != nullptr) {
        const Vec2 p = o->sim->position(a);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
      }
      if (statuses != nullptr) statuses[i] = static_cast<int>(o->sim->status(a));
    }
    if (fits < n && (xy != nullptr || statuses != nullptr)) {
      return fail(WM_BUFFER_TOO_SMALL, "the simulation has " + number_text(n) + " agents, the buffers room for " + number_text(fits));
    }
    return WM_OK;
  });
}

int wm_sim_set_blocked(wm_sim* s, int x, int y, int blocked) {
  return guarded([&]() -> int {
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    grid::GridMap* map = o->sim->edit_map();
    if (map == nullptr) return fail(WM_UNSUPPORTED, "wm_sim_set_blocked: a navmesh simulation has no cells to edit");
    if (x < 0 || y < 0 || x >= map->width() || y >= map->height()) {
      return fail(WM_OUT_OF_BOUNDS, "cell (" + number_text(x) + ", " + number_text(y) + ") is outside the " + number_text(map->width()) +
                                        " x " + number_text(map->height()) + " map");
    }
    map->set_passable(x, y, blocked == 0);
    return WM_OK;
  });
}

int wm_sim_add_obstacle_circle(wm_sim* s, double x, double y, double radius, int* id) {
  return guarded([&]() -> int {
    if (id != nullptr) *id = -1;
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (id == nullptr) return null_argument("id");
    if (!finite2(x, y) || !(radius > 0) || !std::isfinite(radius)) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "an obstacle's centre must be finite and its radius finite and > 0");
    }
    *id = static_cast<int>(o->sim->add_obstacle(steer::Circle{{x, y}, radius}).value);
    return WM_OK;
  });
}

int wm_sim_remove_obstacle(wm_sim* s, int id) {
  return guarded([&]() -> int {
    SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (id < 0 || !o->sim->remove_obstacle(steer::ColliderId{static_cast<std::uint32_t>(id)})) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "obstacle " + number_text(id) + " is not an obstacle of this simulation");
    }
    return WM_OK;
  });
}

int wm_sim_stats_get(const wm_sim* s, wm_sim_stats* stats) {
  return guarded([&]() -> int {
    const SimObject* o = live_sim(s);
    if (o == nullptr) return invalid_handle("simulation");
    if (stats == nullptr) return null_argument("stats");
    const steer::SimulationStats& st = o->sim->stats();
    stats->ticks = st.ticks;
    stats->arrived = st.arrived;
    stats->collisions = st.collisions;
    stats->plans = st.plans;
    stats->failed_plans = st.failed_plans;
    stats->mean_tick_us = st.mean_tick_us();
    return WM_OK;
  });
}

}  // extern "C"
