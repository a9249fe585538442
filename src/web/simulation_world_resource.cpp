// A running simulation's world and orders (POST /api/sim/edit, obstacle, order, world): doors
// closed and opened on a grid map, crates dropped and taken away, agents given a new goal,
// stopped, resumed or removed, and the world read back. Each request works on one session
// under its mutex; its work is bounded by the map's size (an edit, a read) or by
// ApiLimits::max_sim_agents (an order).
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "waymark/core/enum_names.hpp"
#include "waymark/steer/simulation.hpp"
#include "web/request.hpp"
#include "web/session_store.hpp"
#include "web/simulation_state.hpp"
#include "waymark/core/text.hpp"

namespace waymark::web {
namespace {

/// The largest obstacle a page may drop: a box's side, a circle's diameter (world units).
constexpr double max_sim_obstacle_size = 8;

/// `field` as an array of N numbers; `what` spells it in the refusal.
template <std::size_t N>
std::array<double, N> numbers(const Field& field, const char* what) {
  if (field.kind() != io::json::Kind::array || field.size() != N) field.fail(std::string("must be ") + what);
  std::array<double, N> v{};
  std::size_t i = 0;
  field.for_each_item([&](const Field& c) {
    if (!c.value().is_number()) c.fail(std::string("must be a number: the field is ") + what);
    v[i++] = c.value().number();
  });
  return v;
}

/// `field` as a cell rectangle of `map`: [x0, y0, x1, y1], whole numbers, x0 < x1 <= width and
/// y0 < y1 <= height (x1 and y1 excluded, as grid::CellRect).
grid::CellRect cell_rect(const Field& field, const grid::GridMap& map) {
  const auto [x0, y0, x1, y1] = numbers<4>(field, "[x0, y0, x1, y1], cells x0..x1-1 and y0..y1-1");
  const auto whole = [](double v) { return std::floor(v) == v; };
  if (!(whole(x0) && whole(y0) && whole(x1) && whole(y1) && x0 >= 0 && y0 >= 0 && x0 < x1 && y0 < y1 &&
        x1 <= map.width() && y1 <= map.height()))
    field.fail("must be whole numbers with 0 <= x0 < x1 <= " + number_text(map.width()) + " and 0 <= y0 < y1 <= " +
               number_text(map.height()));
  return {static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1), static_cast<int>(y1)};
}

/// Whether (x, y) lies in the session's world: the map's area, or the level's bounds in plan.
bool in_world(const Session& s, double x, double y) {
  if (const grid::GridMap* map = s.sim->map()) return x >= 0 && y >= 0 && x <= map->width() && y <= map->height();
  const Aabb3& b = s.mesh->bounds();
  return x >= b.min.x && y >= b.min.z && x <= b.max.x && y <= b.max.z;
}

/// The obstacle the request describes: "circle": [x, y, r] or "box": [x0, y0, x1, y1], at most
/// max_sim_obstacle_size across, inside the world.
steer::Shape obstacle_shape(const Field& request, const Session& s) {
  if (const auto circle = request.find("circle")) {
    const auto [x, y, r] = numbers<3>(*circle, "[x, y, radius]");
    if (!(r > 0 && 2 * r <= max_sim_obstacle_size && in_world(s, x, y)))
      circle->fail("must have its centre in the world and a radius in (0, " + number_text(max_sim_obstacle_size / 2) + "]");
    return steer::Circle{{x, y}, r};
  }
  const Field box = request.field("box");
  const auto [x0, y0, x1, y1] = numbers<4>(box, "[x0, y0, x1, y1]");
  if (!(x0 < x1 && y0 < y1 && x1 - x0 <= max_sim_obstacle_size && y1 - y0 <= max_sim_obstacle_size && in_world(s, x0, y0) &&
        in_world(s, x1, y1)))
    box.fail("must lie in the world with x0 < x1, y0 < y1 and sides of at most " + number_text(max_sim_obstacle_size));
  return steer::Box{{x0, y0}, {x1, y1}};
}

enum class Order { goal, stop, resume, remove };
constexpr EnumNames<Order, 4> order_names{
    {{Order::goal, "goal"}, {Order::stop, "stop"}, {Order::resume, "resume"}, {Order::remove, "remove"}}};

}  // namespace

Response Api::sim_edit(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const std::lock_guard lock(s->mutex);
    grid::GridMap* map = s->sim->edit_map();
    if (!map)
      throw ApiError(http_bad_request, "simulation " + number_text(session_id(request)) + " runs on the navmesh level \"" +
                                           s->level + "\", whose cells cannot be edited: drop obstacles (POST /api/sim/obstacle)");
    const auto block = request.find("block");
    const auto open = request.find("open");
    if (block.has_value() == open.has_value()) request.fail("give \"block\": [x0, y0, x1, y1] or \"open\": [x0, y0, x1, y1]");
    const grid::CellRect area = cell_rect(block ? *block : *open, *map);
    const std::uint64_t before = map->version();
    map->set_passable(area, !block);  // the next step re-plans the agents whose path it crosses
    const bool changed = map->version() != before;
    if (changed) ++s->world;
    s->touch();
    return Response{http_ok, text_of(json{{"world", s->world},
                                          {"map_version", map->version()},
                                          {"changed", changed},
                                          {"blocked", block.has_value()},
                                          {"area", {area.x0, area.y0, area.x1, area.y1}}})};
  });
}

Response Api::sim_obstacle(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const std::lock_guard lock(s->mutex);
    if (const auto remove = request.find("remove")) {
      if (request.find("circle") || request.find("box")) request.fail("give \"remove\", \"circle\" or \"box\", one of them");
      const auto it = std::find_if(s->obstacles.begin(), s->obstacles.end(), [&](const SessionObstacle& o) {
        return remove->kind() == io::json::Kind::unsigned_integer && o.id.value == remove->value().magnitude();
      });
      if (it == s->obstacles.end()) remove->fail("must be the id of an obstacle /api/sim/obstacle added to this simulation");
      s->sim->remove_obstacle(it->id);
      const json removed = it->id.value;
      s->obstacles.erase(it);
      ++s->world;
      s->touch();
      return Response{http_ok, text_of(json{{"world", s->world}, {"removed", removed}})};
    }
    if (request.find("circle").has_value() == request.find("box").has_value())
      request.fail("give \"circle\": [x, y, r], \"box\": [x0, y0, x1, y1] or \"remove\": id, one of them");
    if (s->obstacles.size() >= limits_.max_sim_obstacles)
      throw ApiError(http_too_large, "a simulation holds at most " + number_text(limits_.max_sim_obstacles) +
                                         " dropped obstacles; remove one first");
    steer::Shape shape = obstacle_shape(request, *s);
    const steer::ColliderId id = s->sim->add_obstacle(shape);
    s->obstacles.push_back({id, std::move(shape)});
    ++s->world;
    s->touch();
    return Response{http_ok, text_of(json{{"world", s->world}, {"added", obstacle_json(s->obstacles.back())}})};
  });
}

Response Api::sim_order(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<Session> s = sessions_->find(session_id(request));
    const std::lock_guard lock(s->mutex);
    steer::Simulation& sim = *s->sim;
    const auto order = value_of(order_names, request.text("order", "goal"));
    if (!order) request.fail_at("order", "must be goal, stop, resume or remove");
    const auto ids = agent_ids(request.field("agents"), sim, limits_.max_sim_agents);
    const Vec2 goal = *order == Order::goal ? sim_point(request, "goal", *s) : Vec2{};
    json refused = json::array();  // agents the order does not apply to: removed, or not stopped (resume)
    for (const steer::AgentId id : ids) {
      bool done = false;
      switch (*order) {
        case Order::goal: done = sim.set_goal(id, goal); break;
        case Order::stop: done = sim.stop(id); break;
        case Order::resume: done = sim.resume(id); break;
        case Order::remove: done = sim.remove_agent(id); break;
      }
      if (!done) refused.push_back(id.value);
    }
    plan_within(sim, limits_.max_sim_seconds);  // new goals come back with their paths
    s->touch();
    json reply = sim_state(*s, shown_paths(request, sim));
    reply["refused"] = std::move(refused);
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::sim_world(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const std::shared_ptr<Session> s = sessions_->find(session_id(read.root()));
    const std::lock_guard lock(s->mutex);
    s->touch();
    return Response{http_ok, text_of(world_json(*s, true))};
  });
}

}  // namespace waymark::web
