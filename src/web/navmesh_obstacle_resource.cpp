// The navmesh resource's edits: a page's own copy of a bundled level, kept in a session
// (web/navmesh_level.hpp), on which it drops obstacles that carve the tiles they touch (POST
// /api/navmesh/obstacle), takes them away (POST /api/navmesh/obstacle/remove) and lets it go
// (POST /api/navmesh/stop). POST /api/navmesh/path with the session plans round them.
#include <memory>
#include <string>

#include "waymark/core/text.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
#include "web/navmesh_level.hpp"

namespace waymark::web {

std::shared_ptr<NavSession> request_session(const NavSessionStore& store, const Field& request) {
  const auto id = request.find("session");
  if (!id || id->is_null()) return nullptr;
  if (id->kind() != io::json::Kind::unsigned_integer) id->fail("must be the number /api/navmesh/obstacle gave");
  std::shared_ptr<NavSession> s = store.find(id->value().magnitude());
  if (const auto mesh = request.find("mesh"); mesh && !mesh->is_null() && request.text("mesh", "") != s->level->name)
    mesh->fail("is not the session's level \"" + s->level->name + "\"");
  return s;
}

namespace {

/// The request's positive size `key` (`fallback` when absent), at most `max`.
double obstacle_size(const Field& request, const char* key, double fallback, double max) {
  const double v = request.number(key, fallback);
  if (!(v > 0 && v <= max)) request.fail_at(key, "must be in (0, " + number_text(max) + "] world units");
  return v;
}

/// The obstacle a request describes, standing on the level's floor at "at" ([x, z] or
/// [x, y, z], found on the level as built): a "cylinder" of "radius" and "height", or a "box"
/// of "size" [width (x), height, depth (z)] centred on it.
navmesh::NavObstacle request_obstacle(const Field& request, const navmesh::NavMesh& built, double max_size) {
  const Vec3 at = level_point(request, "at", built);
  const std::string shape = request.text("shape", "cylinder");
  if (shape == "cylinder")
    return navmesh::CylinderObstacle{at, obstacle_size(request, "radius", 1, max_size), obstacle_size(request, "height", 2, max_size)};
  if (shape != "box") request.fail_at("shape", "must be \"cylinder\" or \"box\", got \"" + shape + "\"");
  const Field size = request.field("size");
  if (size.kind() != io::json::Kind::array || size.size() != 3) size.fail("must be [width, height, depth]");
  double sides[3] = {};
  std::size_t n = 0;
  size.for_each_item([&](const Field& side) {
    if (!side.value().is_number() || !(side.value().number() > 0 && side.value().number() <= max_size))
      side.fail("must be a number in (0, " + number_text(max_size) + "]");
    sides[n++] = side.value().number();
  });
  const Vec3 half{sides[0] / 2, 0, sides[2] / 2};
  return navmesh::BoxObstacle{at - half, at + half + Vec3{0, sides[1], 0}};
}

/// The request's session, which it must name (400 otherwise).
std::shared_ptr<NavSession> named_session(const NavSessionStore& store, const Field& request) {
  std::shared_ptr<NavSession> s = request_session(store, request);
  if (!s) request.fail_at("session", "missing field: the number /api/navmesh/obstacle gave");
  return s;
}

/// The session's answer after an edit: its id, the tiles rebuilt, the bytes its copy keeps
/// and its level as GET /api/navmesh gives it. Under the session's mutex.
json session_json(std::uint64_t id, NavSession& s) {
  const recast::CarveUpdate update = s.carved->update();
  const auto snapshot = s.carved->world().snapshot();
  return json{{"session", id},
              {"rebuilt", update.rebuilt},
              {"failed", update.failed},
              {"kept_bytes", s.carved->kept_bytes()},
              {"level", level_json(s.level->name, *snapshot, s.level->layout, s.carved->obstacles())}};
}

}  // namespace

Response Api::navmesh_obstacle(std::string_view body, std::string_view client) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    std::shared_ptr<NavSession> s = request_session(*nav_sessions_, request);
    std::uint64_t id = 0;
    if (s) {
      id = request.field("session").value().magnitude();
    } else {  // a new copy of the level
      nav_sessions_->check_room(client);  // before any work
      s = std::make_shared<NavSession>();
      s->level = level(request.text("mesh", default_level));
    }
    const navmesh::NavObstacle obstacle = request_obstacle(request, s->level->built->mesh, limits_.max_navmesh_obstacle_size);
    const std::lock_guard lock(s->mutex);
    const bool fresh = !s->carved;
    if (fresh) s->carved = std::make_unique<recast::CarvedNavMesh>(s->level->model, level_params());
    if (s->carved->obstacles().size() >= limits_.max_navmesh_obstacles)
      throw ApiError(http_too_large, "an edited level holds at most " + number_text(limits_.max_navmesh_obstacles) +
                                         " obstacles; remove one (POST /api/navmesh/obstacle/remove)");
    const auto added = s->carved->add_obstacle(obstacle);
    if (!added) throw ApiError(http_bad_request, "the obstacle was refused: " + navmesh::find_obstacle_problem(obstacle).value_or("too many"));
    s->touch();
    if (fresh) id = nav_sessions_->add(s, client);  // kept only once it holds an obstacle
    json reply = session_json(id, *s);
    reply["id"] = *added;
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::navmesh_obstacle_remove(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<NavSession> s = named_session(*nav_sessions_, request);
    const Field id = request.field("id");
    if (id.kind() != io::json::Kind::unsigned_integer) id.fail("must be an obstacle id");
    const std::lock_guard lock(s->mutex);
    if (id.value().magnitude() > UINT32_MAX || !s->carved->remove_obstacle(static_cast<std::uint32_t>(id.value().magnitude())))
      throw ApiError(http_not_found, "the level holds no obstacle " + number_text(id.value().magnitude()));
    s->touch();
    json reply = session_json(request.field("session").value().magnitude(), *s);
    reply["removed"] = id.value().magnitude();
    return Response{http_ok, text_of(reply)};
  });
}

Response Api::navmesh_stop(std::string_view body) const {
  return guarded([&] {
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const std::shared_ptr<NavSession> s = named_session(*nav_sessions_, request);
    nav_sessions_->remove(s);
    return Response{http_ok, text_of(json{{"stopped", true}})};
  });
}

}  // namespace waymark::web
