/// The C API's navmeshes (waymark.h): built by Recast from OBJ, or one class of a bake, and
/// queried through navmesh::NavMeshQuery, every argument checked first.

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "errors.hpp"
#include "handles.hpp"
#include "objects.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/core/text.hpp"
#include "waymark/io/obj.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/waymark.h"

namespace waymark::capi {
namespace {

// A navmesh and what owns it: a mesh of its own (built), or a bake that holds it (loaded).
struct NavMeshObject final : NavMeshObjectBase {
  explicit NavMeshObject(std::unique_ptr<navmesh::NavMesh> m) : NavMeshObjectBase(m.get()), own(std::move(m)) {}
  NavMeshObject(std::unique_ptr<navmesh::NavBake> b, const navmesh::NavMesh* m) : NavMeshObjectBase(m), bake(std::move(b)) {}
  std::unique_ptr<navmesh::NavMesh> own;
  std::unique_ptr<navmesh::NavBake> bake;
};

struct NavQueryObject final : Object {
  NavQueryObject(std::shared_ptr<NavMeshObject> m, const navmesh::NavQueryOptions& options)
      : navmesh(std::move(m)), query(*navmesh->mesh, options) {}
  std::shared_ptr<NavMeshObject> navmesh;
  navmesh::NavMeshQuery query;
};



bool finite3(const double* p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }
Vec3 vec_of(const double* p) { return Vec3{p[0], p[1], p[2]}; }
void put(Vec3 v, double* out) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}
std::string point_text(const double* p) {
  std::string s = number_text(p[0]);  // built up front: GCC 12 misreads "(" + number_text (-Wrestrict)
  s.insert(s.begin(), '(');
  s.append(", ").append(number_text(p[1])).append(", ").append(number_text(p[2])).push_back(')');
  return s;
}

int recast_params_of(const wm_recast_params* in, recast::RecastParams& out, double& max_seconds) {
  out = {};
  max_seconds = 0;
  if (in == nullptr) return WM_OK;
  if (in->version != WM_RECAST_PARAMS_VERSION) {
    return wrong_version("wm_recast_params", in->version, WM_RECAST_PARAMS_VERSION);
  }
  if (!(in->max_seconds >= 0) || std::isinf(in->max_seconds)) {
    return fail(WM_ERROR_INVALID_ARGUMENT, "max_seconds is " + number_text(in->max_seconds) + ", must be finite and >= 0");
  }
  out.cell_size = in->cell_size;
  out.cell_height = in->cell_height;
  out.agent_height = in->agent_height;
  out.agent_radius = in->agent_radius;
  out.agent_max_climb = in->agent_max_climb;
  out.agent_max_slope = in->agent_max_slope;
  out.region_min_size = in->region_min_size;
  out.region_merge_size = in->region_merge_size;
  out.edge_max_len = in->edge_max_len;
  out.edge_max_error = in->edge_max_error;
  out.verts_per_poly = in->verts_per_poly;
  out.detail_sample_dist = in->detail_sample_dist;
  out.detail_sample_max_error = in->detail_sample_max_error;
  max_seconds = in->max_seconds;
  return WM_OK;  // the build checks every value against its limits (BuildError: WM_ERROR_BUILD)
}

int build(const TriangleMesh& model, const wm_recast_params* params, wm_navmesh** out) {
  recast::RecastParams p;
  double max_seconds = 0;
  if (const int rc = recast_params_of(params, p, max_seconds); rc != WM_OK) return rc;
  const auto deadline = max_seconds > 0 ? search::Deadline(search::Budget::of_seconds(max_seconds)).end()
                                        : std::chrono::steady_clock::time_point::max();
  auto mesh = std::make_unique<navmesh::NavMesh>(recast::build_nav_mesh(model, p, deadline));
  return hand_out(Kind::navmesh, std::make_shared<NavMeshObject>(std::move(mesh)), out);
}

}  // namespace
}  // namespace waymark::capi

using namespace waymark;        // NOLINT: the C entry points below
using namespace waymark::capi;  // NOLINT

extern "C" {

wm_recast_params wm_recast_params_default(void) {
  const recast::RecastParams d;
  wm_recast_params p{};
  p.version = WM_RECAST_PARAMS_VERSION;
  p.cell_size = d.cell_size;
  p.cell_height = d.cell_height;
  p.agent_height = d.agent_height;
  p.agent_radius = d.agent_radius;
  p.agent_max_climb = d.agent_max_climb;
  p.agent_max_slope = d.agent_max_slope;
  p.region_min_size = d.region_min_size;
  p.region_merge_size = d.region_merge_size;
  p.edge_max_len = d.edge_max_len;
  p.edge_max_error = d.edge_max_error;
  p.verts_per_poly = d.verts_per_poly;
  p.detail_sample_dist = d.detail_sample_dist;
  p.detail_sample_max_error = d.detail_sample_max_error;
  p.max_seconds = 0;
  return p;
}

int wm_navmesh_build_obj(const char* obj_path, const wm_recast_params* params, wm_navmesh** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (obj_path == nullptr) return null_argument("obj_path");
    return build(io::load_obj(obj_path), params, out);
  });
}

int wm_navmesh_build_obj_text(const char* text, size_t length, const char* name, const wm_recast_params* params,
                              wm_navmesh** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (text == nullptr && length > 0) return null_argument("text");
    std::istringstream in(std::string(text == nullptr ? "" : text, length));
    return build(io::parse_obj(in, name == nullptr ? "text" : name), params, out);
  });
}

int wm_navmesh_load_baked(const char* path, const char* agent_class, wm_navmesh** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    if (path == nullptr) return null_argument("path");
    auto bake = std::make_unique<navmesh::NavBake>(navmesh::NavBake::load(path));
    const navmesh::BakedClass* c = agent_class == nullptr ? (bake->classes().empty() ? nullptr : &bake->classes().front())
                                                          : bake->find_class(agent_class);
    if (c == nullptr || !c->mesh) {
      std::string names;
      for (const auto& k : bake->classes()) {
        if (!names.empty()) names.append(", ");
        names.append(quoted(k.name));
      }
      return fail(WM_ERROR_INVALID_ARGUMENT, std::string(path) + ": no agent class " +
                                                 (agent_class == nullptr ? std::string("at all") : quoted(agent_class)) +
                                                 " (it has " + (names.empty() ? std::string("none") : names) + ")");
    }
    const navmesh::NavMesh* mesh = &*c->mesh;
    return hand_out(Kind::navmesh, std::make_shared<NavMeshObject>(std::move(bake), mesh), out);
  });
}

int wm_navmesh_retain(wm_navmesh* m) { return retain_as(m, Kind::navmesh, "navmesh"); }
void wm_navmesh_release(wm_navmesh* m) { release_as(m, Kind::navmesh); }

int wm_navmesh_size(const wm_navmesh* m, uint32_t* polygons, uint32_t* vertices) {
  const NavMeshObject* o = find_as<NavMeshObject>(m, Kind::navmesh);
  if (o == nullptr) return invalid_handle("navmesh");
  if (polygons != nullptr) *polygons = static_cast<std::uint32_t>(o->mesh->poly_count());
  if (vertices != nullptr) *vertices = static_cast<std::uint32_t>(o->mesh->vertex_count());
  return WM_OK;
}

int wm_navmesh_nearest_point(const wm_navmesh* m, const double point[3], const double half_extents[3], double nearest[3]) {
  return guarded([&]() -> int {
    const NavMeshObject* o = find_as<NavMeshObject>(m, Kind::navmesh);
    if (o == nullptr) return invalid_handle("navmesh");
    if (point == nullptr || nearest == nullptr) return null_argument("point or nearest");
    const Vec3 extents = half_extents == nullptr ? navmesh::NavQueryOptions{}.half_extents : vec_of(half_extents);
    if (!finite3(point) || (half_extents != nullptr && (!finite3(half_extents) || extents.x < 0 || extents.y < 0 || extents.z < 0))) {
      return fail(WM_ERROR_INVALID_ARGUMENT, "a point or half extents that is not finite (or extents below 0)");
    }
    const auto near = o->mesh->nearest_poly(vec_of(point), extents);
    if (!near) return fail(WM_OUT_OF_BOUNDS, "no polygon near " + point_text(point));
    put(near->point, nearest);
    return WM_OK;
  });
}

int wm_navmesh_raycast(const wm_navmesh* m, const double from[3], const double to[3], int* hit, double* t,
                       double hit_point[3], double hit_normal[3]) {
  return guarded([&]() -> int {
    const NavMeshObject* o = find_as<NavMeshObject>(m, Kind::navmesh);
    if (o == nullptr) return invalid_handle("navmesh");
    if (from == nullptr || to == nullptr) return null_argument("from or to");
    if (!finite3(from) || !finite3(to)) return fail(WM_ERROR_INVALID_ARGUMENT, "a point that is not finite");
    const auto start = o->mesh->nearest_poly(vec_of(from), navmesh::NavQueryOptions{}.half_extents);
    if (!start) return fail(WM_OUT_OF_BOUNDS, "no polygon near " + point_text(from));
    thread_local navmesh::RaycastHit ray;  // its polygon list keeps its capacity
    const Status st = o->mesh->raycast(start->poly, vec_of(from), vec_of(to), ray);
    if (!st.succeeded()) return fail(result_of(st), "raycast from " + point_text(from) + ": " + std::string(reason_name(st)));
    if (hit != nullptr) *hit = ray.hit ? 1 : 0;
    if (t != nullptr) *t = ray.t;
    if (hit_point != nullptr) put(ray.point, hit_point);
    if (hit_normal != nullptr) put(ray.normal, hit_normal);
    return WM_OK;
  });
}

int wm_nav_query_create(const wm_navmesh* m, const char* mode, wm_nav_query** out) {
  return guarded([&]() -> int {
    if (out == nullptr) return null_argument("out");
    *out = nullptr;
    std::shared_ptr<NavMeshObject> mesh = share_as<NavMeshObject>(m, Kind::navmesh);
    if (!mesh) return invalid_handle("navmesh");
    navmesh::NavQueryOptions options;
    if (mode != nullptr) {
      const auto parsed = value_of(navmesh::nav_mode_names, mode);
      if (!parsed) return fail(WM_ERROR_INVALID_ARGUMENT, "unknown mode " + quoted(mode) + " (" + choices(navmesh::nav_mode_names) + ")");
      options.mode = *parsed;
    }
    return hand_out(Kind::nav_query, std::make_shared<NavQueryObject>(std::move(mesh), options), out);
  });
}

int wm_nav_query_retain(wm_nav_query* q) { return retain_as(q, Kind::nav_query, "nav query"); }
void wm_nav_query_release(wm_nav_query* q) { release_as(q, Kind::nav_query); }

int wm_nav_find_path(wm_nav_query* q, const double from[3], const double to[3], double* length, double* points, int capacity,
                     int* count) {
  if (length != nullptr) *length = std::numeric_limits<double>::infinity();
  if (count != nullptr) *count = 0;
  return guarded([&]() -> int {
    NavQueryObject* o = find_as<NavQueryObject>(q, Kind::nav_query);
    if (o == nullptr) return invalid_handle("nav query");
    if (from == nullptr || to == nullptr) return null_argument("from or to");
    if (capacity < 0) return fail(WM_ERROR_INVALID_ARGUMENT, "capacity is negative");
    if (points == nullptr && capacity > 0) return null_argument("points (with a capacity above 0)");
    const Status st = o->query.find_path(vec_of(from), vec_of(to));
    const int rc = result_of(st);
    if (rc != WM_OK) {
      return fail(rc, "no path from " + point_text(from) + " to " + point_text(to) + ": " + std::string(reason_name(st)));
    }
    const navmesh::NavPath& path = o->query.path();
    if (length != nullptr) *length = path.length;
    const std::size_t n = path.corners.size();
    if (count != nullptr) *count = static_cast<int>(std::min<std::size_t>(n, std::numeric_limits<int>::max()));
    if (points == nullptr) return WM_OK;
    const std::size_t fits = std::min(n, static_cast<std::size_t>(capacity));
    for (std::size_t i = 0; i < fits; ++i) put(path.corners[i], points + 3 * i);
    if (fits < n) return fail(WM_BUFFER_TOO_SMALL, "the path has " + number_text(n) + " corners, the buffer room for " + number_text(fits));
    return WM_OK;
  });
}

}  // extern "C"
