// Baking: one Recast build per agent class into a NavBake.
#include "waymark/recast/bake.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "waymark/core/parallel.hpp"

namespace waymark::recast {

navmesh::NavBuildParams build_params_of(const RecastParams& p) {
  return {p.cell_size,       p.cell_height,       p.agent_height,   p.agent_radius,
          p.agent_max_climb, p.agent_max_slope,   p.region_min_size, p.region_merge_size,
          p.edge_max_len,    p.edge_max_error,    p.verts_per_poly, p.detail_sample_dist,
          p.detail_sample_max_error, 0};
}

RecastParams recast_params_of(const navmesh::NavBuildParams& p) {
  return {p.cell_size,       p.cell_height,     p.agent_height,    p.agent_radius,
          p.agent_max_climb, p.agent_max_slope, p.region_min_size, p.region_merge_size,
          p.edge_max_len,    p.edge_max_error,  p.verts_per_poly,  p.detail_sample_dist,
          p.detail_sample_max_error};
}

navmesh::NavBake bake(const TriangleMesh& model, std::span<const AgentClass> classes, std::size_t threads) {
  if (classes.empty() || classes.size() > navmesh::max_bake_classes)
    throw BuildError("a bake needs 1 to " + std::to_string(navmesh::max_bake_classes) + " agent classes, got " +
                     std::to_string(classes.size()));
  navmesh::NavBake out;
  out.geometry_fingerprint = navmesh::geometry_fingerprint(model);
  for (const AgentClass& c : classes) {
    if (const std::string why = navmesh::class_name_problem(c.name); !why.empty())
      throw BuildError(why + ", got '" + c.name + "'");
    if (out.find_class(c.name) != nullptr) throw BuildError("two agent classes are called '" + c.name + "'");
    out.classes.push_back({c.name, build_params_of(c.params), {}, std::nullopt});
  }
  // One build per class, shared between threads; the first failure in class order is thrown.
  std::vector<std::exception_ptr> failures(classes.size());
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  share_indices(classes.size(), threads, [&](const auto& next) {
    for (std::size_t i = next(); i < classes.size(); i = next()) {
      try {
        // A tiled class (params.tile_size > 0, the tiled build of issue 31) builds its tiles here.
        out.classes[i].mesh.emplace(build_nav_mesh(model, classes[i].params));
        out.classes[i].tiles.push_back(navmesh::solo_tile(*out.classes[i].mesh));
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  });
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (!failures[i]) continue;
    try {
      std::rethrow_exception(failures[i]);
    } catch (const BuildError& e) {
      throw BuildError("agent class '" + classes[i].name + "': " + e.what());
    }
  }
  return out;
}

}  // namespace waymark::recast
