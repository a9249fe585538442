// The navmesh resource: a bundled level built by Recast (GET /api/navmesh) and paths on it
// (POST /api/navmesh/path).
#include <array>
#include <memory>
#include <string>

#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"
#include "web/request.hpp"

namespace waymark::web {

struct Api::Level {
  navmesh::NavMesh mesh;
  std::string picture;  ///< GET /api/navmesh's answer, made once
};

std::shared_ptr<const Api::Level> Api::level(const std::string& name) const {
  const auto file = bundled_file(mesh_names_, name, data_dir_ / "meshes", ".obj", "level");
  const std::lock_guard lock(levels_mutex_);  // one build at a time; later requests share it
  if (const auto it = levels_.find(name); it != levels_.end()) return it->second;
  const TriangleMesh model = io::load_obj(file.string());
  auto level = std::make_shared<Level>(Level{recast::build_nav_mesh(model), {}});
  const navmesh::NavMesh& mesh = level->mesh;
  json vertices = json::array();
  for (const Vec3& v : mesh.vertices()) vertices.push_back({v.x, v.y, v.z});
  json polys = json::array();
  json portals = json::array();
  for (std::size_t i = 0; i < mesh.poly_count(); ++i) {
    const PolyId p{static_cast<std::uint32_t>(i)};
    const auto corners = mesh.corners(p);
    polys.push_back(corners);
    const auto neighbors = mesh.neighbors(p);
    for (std::size_t k = 0; k < corners.size(); ++k) {
      if (neighbors[k].valid() && neighbors[k].value > p.value)  // each portal once
        portals.push_back({corners[k], corners[(k + 1) % corners.size()]});
    }
  }
  const Aabb3& b = mesh.bounds();
  level->picture = text_of(json{{"name", name},
                                {"bounds", {{b.min.x, b.min.y, b.min.z}, {b.max.x, b.max.y, b.max.z}}},
                                {"vertices", vertices},
                                {"polys", polys},
                                {"portals", portals}});
  levels_.emplace(name, level);
  return level;
}

Response Api::navmesh(std::string_view name) const {
  return guarded([&] { return Response{http_ok, level(std::string(name))->picture}; });
}

std::shared_ptr<const navmesh::NavMesh> Api::level_mesh(const std::string& name) const {
  auto lvl = level(name);
  return {lvl, &lvl->mesh};  // shares the level's ownership
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
    const RequestBody read(body, limits_);
    const Field request = read.root();
    const auto lvl = level(request.text("mesh", default_level));
    const Vec3 from = level_point(request, "from", lvl->mesh);
    const Vec3 to = level_point(request, "to", lvl->mesh);
    json reply = {{"from", {from.x, from.y, from.z}}, {"to", {to.x, to.y, to.z}}};
    for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
      navmesh::NavQueryOptions options;
      options.mode = mode;
      options.query.partial_result = true;  // the page draws partial paths
      navmesh::NavMeshQuery query(lvl->mesh, options);
      query.begin(from, to);
      query.step(time_budget(limits_.max_query_seconds));
      reply[std::string(name_of(navmesh::nav_mode_names, mode))] = nav_path_json(query.path(), query.stats());
    }
    return Response{http_ok, text_of(reply)};
  });
}

}  // namespace waymark::web
