// The navmesh resource: a bundled level built tiled by Recast (GET /api/navmesh) and paths on
// it or on a page's edited copy of it (POST /api/navmesh/path). The edits:
// navmesh_obstacle_resource.cpp.
#include <array>
#include <memory>
#include <string>
#include <variant>

#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "web/navmesh_level.hpp"

namespace waymark::web {

recast::TiledParams level_params() {
  recast::TiledParams params;
  params.tile_size = level_tile_size;
  params.threads = 1;
  return params;
}

namespace {

json xyz_json(Vec3 p) { return {p.x, p.y, p.z}; }

json nav_obstacle_json(std::uint32_t id, const navmesh::NavObstacle& obstacle) {
  json j = {{"id", id}, {"shape", navmesh::shape_name(obstacle)}};
  if (const auto* c = std::get_if<navmesh::CylinderObstacle>(&obstacle)) {
    j["foot"] = xyz_json(c->foot);
    j["radius"] = c->radius;
    j["height"] = c->height;
  } else if (const auto* b = std::get_if<navmesh::BoxObstacle>(&obstacle)) {
    j["min"] = xyz_json(b->min);
    j["max"] = xyz_json(b->max);
  } else if (const auto* p = std::get_if<navmesh::PrismObstacle>(&obstacle)) {
    j["corners"] = points_json(p->corners);
    j["min_y"] = p->min_y;
    j["max_y"] = p->max_y;
  }
  return j;
}

}  // namespace

json level_json(const std::string& name, const navmesh::TiledSnapshot& snapshot, const recast::TileLayout& layout,
                const std::map<std::uint32_t, navmesh::NavObstacle>& obstacles) {
  const navmesh::NavMesh& mesh = snapshot.mesh;
  json vertices = json::array();
  for (const Vec3& v : mesh.vertices()) vertices.push_back(xyz_json(v));
  json polys = json::array();
  json portals = json::array();
  json poly_tiles = json::array();
  for (std::size_t i = 0; i < mesh.poly_count(); ++i) {
    const PolyId p{static_cast<std::uint32_t>(i)};
    const auto corners = mesh.corners(p);
    polys.push_back(corners);
    const auto neighbors = mesh.neighbors(p);
    for (std::size_t k = 0; k < corners.size(); ++k) {
      if (neighbors[k].valid() && neighbors[k].value > p.value)  // each portal once
        portals.push_back({corners[k], corners[(k + 1) % corners.size()]});
    }
    const navmesh::TileCoord t = snapshot.tile_of(p);
    poly_tiles.push_back(std::int64_t{t.z} * layout.tiles_x + t.x);
  }
  json links = json::array();
  for (const navmesh::OffMeshLink& link : mesh.data().links)
    links.push_back({{"start", xyz_json(link.start)}, {"end", xyz_json(link.end)}, {"bidirectional", link.bidirectional},
                     {"radius", link.radius}});
  json kept = json::array();
  for (const auto& [id, obstacle] : obstacles) kept.push_back(nav_obstacle_json(id, obstacle));
  const Aabb3& b = mesh.bounds();
  const Vec2 tile0 = layout.tile_min({0, 0});
  const Vec2 tile1 = layout.tile_max({0, 0});
  return json{{"name", name},
              {"bounds", {xyz_json(b.min), xyz_json(b.max)}},
              {"vertices", vertices},
              {"polys", polys},
              {"portals", portals},
              {"tiles", {{"origin", {tile0.x, tile0.y}},
                         {"size", tile1.x - tile0.x},
                         {"columns", layout.tiles_x},
                         {"rows", layout.tiles_z},
                         {"voxels", layout.tile_size}}},
              {"poly_tiles", poly_tiles},
              {"links", links},
              {"obstacles", kept}};
}

std::shared_ptr<const Api::Level> Api::level(const std::string& name) const {
  const auto file = bundled_file(mesh_names_, name, data_dir_ / "meshes", ".obj", "level");
  const std::lock_guard lock(levels_mutex_);  // one build at a time; later requests share it
  if (const auto it = levels_.find(name); it != levels_.end()) return it->second;
  auto level = std::make_shared<Level>();
  level->name = name;
  level->model = io::load_obj(file.string());
  const recast::TiledInput input(level->model, level_params());
  level->layout = input.layout();
  const navmesh::TiledNavMesh world(recast::build_tiles(input));
  level->built = world.snapshot();  // outlives the world: snapshots are immutable
  level->picture = text_of(level_json(name, *level->built, level->layout, {}));
  levels_.emplace(name, level);
  return level;
}

Response Api::navmesh(std::string_view name) const {
  return guarded([&] { return Response{http_ok, level(std::string(name))->picture}; });
}

std::shared_ptr<const navmesh::NavMesh> Api::level_mesh(const std::string& name) const {
  auto lvl = level(name);
  return {lvl, &lvl->built->mesh};  // shares the level's ownership
}

Vec3 level_point(const Field& request, const char* key, const navmesh::NavMesh& mesh) {
  const Field v = request.field(key);
  if (v.kind() != io::json::Kind::array || (v.size() != 2 && v.size() != 3))
    v.fail("must be [x, y, z] or [x, z], got " + v.value().describe());
  std::array<double, 3> c{};
  std::size_t n = 0;
  for (const io::json::Value x : v.value().items()) {
    if (!x.is_number()) v.fail("must be [x, y, z] or [x, z], numbers, got " + x.describe() + " in it");
    c[n++] = x.number();  // finite: the reader takes no others
  }
  if (n == 3) return {c[0], c[1], c[2]};
  const Aabb3& b = mesh.bounds();
  const Vec3 centre{c[0], 0.5 * (b.min.y + b.max.y), c[1]};
  constexpr double plan_tolerance = 0.5;  // world units around the click
  const auto nearest = mesh.nearest_poly(centre, {plan_tolerance, 0.5 * (b.max.y - b.min.y) + 1, plan_tolerance});
  if (!nearest) v.fail("is not on the mesh");
  return nearest->point;
}

namespace {

json nav_path_json(const navmesh::NavPath& path, const SearchStats& stats) {
  json corners = json::array();
  for (const Vec3& c : path.corners) corners.push_back({c.x, c.y, c.z});
  json j = {{"partial", path.status.has(StatusDetail::partial_result)},
            {"length", path.length},
            {"corners", corners},
            {"polys", path.polys.size()},
            {"expanded", stats.expanded},
            {"time_us", stats.time_s * microseconds_per_second}};
  put_status(j, path.status);
  return j;
}

}  // namespace

Response Api::navmesh_path(std::string_view body) const {
  return guarded([&] {
    const search::Deadline time(time_budget(limits_.max_query_seconds));
    const RequestBody read(body, limits_);
    const Field request = read.root();
    std::shared_ptr<const navmesh::NavMesh> mesh;
    if (const std::shared_ptr<NavSession> s = request_session(*nav_sessions_, request)) {
      const std::lock_guard lock(s->mutex);
      s->touch();
      mesh = s->carved->world().mesh();  // a snapshot: the session may change meanwhile
    } else {
      mesh = level_mesh(request.text("mesh", default_level));
    }
    const Vec3 from = level_point(request, "from", *mesh);
    const Vec3 to = level_point(request, "to", *mesh);
    json reply = {{"from", {from.x, from.y, from.z}}, {"to", {to.x, to.y, to.z}}};
    for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
      navmesh::NavQueryOptions options;
      options.mode = mode;
      options.query.partial_result = true;  // the page draws partial paths
      navmesh::NavMeshQuery query(*mesh, options);
      query.begin(from, to);
      query.step(time.left());
      reply[std::string(name_of(navmesh::nav_mode_names, mode))] = nav_path_json(query.path(), query.stats());
    }
    return Response{http_ok, text_of(reply)};
  });
}

}  // namespace waymark::web
