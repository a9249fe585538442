// Baking: one Recast build per agent class into a NavBake.
#include "waymark/recast/bake.hpp"

#include <string>
#include <utility>

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

navmesh::NavBake bake(const TriangleMesh& model, std::span<const AgentClass> classes) {
  if (classes.empty() || classes.size() > navmesh::max_bake_classes)
    throw BuildError("a bake needs 1 to " + std::to_string(navmesh::max_bake_classes) + " agent classes, got " +
                     std::to_string(classes.size()));
  navmesh::NavBake out;
  out.geometry_fingerprint = navmesh::geometry_fingerprint(model);
  for (const AgentClass& c : classes) {
    if (const std::string why = navmesh::class_name_problem(c.name); !why.empty())
      throw BuildError(why + ", got '" + c.name + "'");
    if (out.find_class(c.name) != nullptr) throw BuildError("two agent classes are called '" + c.name + "'");
    navmesh::BakedClass& baked = out.classes.emplace_back();
    baked.name = c.name;
    baked.params = build_params_of(c.params);
    try {
      // A tiled class (params.tile_size > 0, the tiled build of issue 31) builds its tiles here.
      baked.mesh.emplace(build_nav_mesh(model, c.params));
    } catch (const BuildError& e) {
      throw BuildError("agent class '" + c.name + "': " + e.what());
    }
    baked.tiles.push_back(navmesh::solo_tile(*baked.mesh));
  }
  return out;
}

}  // namespace waymark::recast
