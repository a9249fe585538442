#pragma once
// What the simulation resources share (src/web/simulation_resource.cpp: start, step, add,
// stop; src/web/simulation_world_resource.cpp: edit, obstacle, order, world): a session's id,
// points and agent ids read from a request, and the state the page draws. Internal to src/web.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "web/request.hpp"
#include "web/session_store.hpp"

namespace waymark::web {

/// Most agents one answer gives the remaining path of ("paths"), and most points of each.
inline constexpr std::size_t max_sim_paths_shown = 64;
inline constexpr std::size_t max_sim_path_points = 1024;

/// Plans waiting paths until none waits or `seconds` have passed (an answer then shows agents
/// with their paths). One plan_pending call is one frame of the request queue (a turn for each
/// of a few searches), so it takes many calls.
void plan_within(steer::Simulation& sim, double seconds);

/// Steps `sim` by `dt` up to `ticks` times, stopping after the tick that ends past `seconds`
/// of wall time: always one tick at least. Returns the ticks done.
int step_within(steer::Simulation& sim, double dt, int ticks, double seconds);

/// The request's "id": the number /api/sim/start gave (400 otherwise).
[[nodiscard]] std::uint64_t session_id(const Field& request);

/// The member `key` as a point of the session's world, for an agent to stand on or head for:
/// on a grid [x, y] in the map on a passable cell (cell (x, y) spans [x, x+1) × [y, y+1));
/// on a level [x, z] in plan (or [x, y, z]) on the navmesh, as level_point finds it. 400 else.
[[nodiscard]] Vec2 sim_point(const Field& object, const char* key, const Session& s);

/// The array `field` as agent ids of `sim`: at most `max` of them, each an agent it holds
/// (removed ones included); 400 otherwise.
[[nodiscard]] std::vector<steer::AgentId> agent_ids(const Field& field, const steer::Simulation& sim, std::size_t max);

/// The agents whose remaining paths the request's optional "paths" asks for (at most
/// max_sim_paths_shown).
[[nodiscard]] std::vector<steer::AgentId> shown_paths(const Field& request, const steer::Simulation& sim);

/// The state the page draws: "tick", "agents" ([x, y, arrived 0/1] by id), "status" (each
/// agent's AgentStatus name), "corners" (the waypoint each heads for, or null), "paths" (the
/// remaining paths of `paths`), "world" (Session::world), "map_version" on a grid, "stats".
[[nodiscard]] json sim_state(const Session& s, std::span<const steer::AgentId> paths = {});

/// The session's world: "kind" ("grid" or "navmesh"), "world" (Session::world), and on a grid
/// "width", "height" (and with `rows`: "rows" of '.' and '@' as the map is now, and
/// "map_version"), on a level "level" and its "bounds" in plan ([[x0, z0], [x1, z1]]); with
/// `rows` also the dropped "obstacles" ({"id", "circle": [x, y, r]} or {"id", "box": [x0, y0,
/// x1, y1]}).
[[nodiscard]] json world_json(const Session& s, bool rows);
/// One dropped obstacle as world_json lists it.
[[nodiscard]] json obstacle_json(const SessionObstacle& o);

}  // namespace waymark::web
