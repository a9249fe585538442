// Baking: one Recast build per agent class into a NavBake.
#include "waymark/recast/bake.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "recast_steps.hpp"
#include "waymark/core/text.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/recast/tiled_build.hpp"

namespace waymark::recast {

// The loader refuses what recast::bake would not have built: its limits are these.
static_assert(navmesh::bake_limits.max_cell_size == max_cell_size);
static_assert(navmesh::bake_limits.max_radius_cells == max_radius_cells);
static_assert(navmesh::bake_limits.max_agent_height_cells == max_agent_height_cells);
static_assert(navmesh::bake_limits.max_climb_cells == max_climb_cells);
static_assert(navmesh::bake_limits.max_region_size == max_region_size);
static_assert(navmesh::bake_limits.max_edge_len_cells == max_edge_len_cells);
static_assert(navmesh::bake_limits.max_edge_error_cells == max_edge_error_cells);
static_assert(navmesh::bake_limits.min_tile_size == min_tile_size);
static_assert(navmesh::bake_limits.max_tile_size == max_tile_size);
static_assert(navmesh::max_class_tiles == max_tiles);

navmesh::NavBuildParams build_params_of(const RecastParams& p, int tile_size) {
  navmesh::NavBuildParams out;
  static_cast<RecastParams&>(out) = p;
  out.tile_size = tile_size;
  return out;
}

RecastParams recast_params_of(const navmesh::NavBuildParams& p) { return static_cast<const RecastParams&>(p); }

namespace {

/// Puts each link in the tile whose plan holds its start (the first tile when none does).
void place_links(std::vector<navmesh::NavTile>& tiles, std::span<const navmesh::OffMeshLink> links) {
  for (const navmesh::OffMeshLink& l : links) {
    const auto holds = [&](const navmesh::NavTile& t) {
      return l.start.x >= t.min.x && l.start.x <= t.max.x && l.start.z >= t.min.y && l.start.z <= t.max.y;
    };
    const auto it = std::find_if(tiles.begin(), tiles.end(), holds);
    (it != tiles.end() ? *it : tiles.front()).data.links.push_back(l);
  }
}

}  // namespace

navmesh::NavBake bake(const TriangleMesh& model, std::span<const AgentClass> classes, std::size_t threads,
                      std::span<const navmesh::OffMeshLink> links, std::chrono::steady_clock::time_point deadline) {
  if (classes.empty() || classes.size() > navmesh::max_bake_classes)
    throw BuildError("a bake needs 1 to " + number_text(navmesh::max_bake_classes) + " agent classes, got " +
                     number_text(classes.size()));
  navmesh::NavBake out;
  out.geometry_fingerprint = navmesh::geometry_fingerprint(model);
  for (const AgentClass& c : classes) {
    if (const std::string why = navmesh::class_name_problem(c.name); !why.empty())
      throw BuildError(why + ", got '" + c.name + "'");
    if (out.find_class(c.name) != nullptr) throw BuildError("two agent classes are called '" + c.name + "'");
    out.classes().push_back({c.name, build_params_of(c.params, c.tile_size), {}, std::nullopt});
  }
  // One build per class, shared between threads; the first failure in class order is thrown.
  threads = worker_threads(threads);
  detail::each_index_on_threads(classes.size(), static_cast<unsigned>(threads), [&](std::size_t i) {
    try {
      navmesh::BakedClass& baked = out.classes()[i];
      if (classes[i].tile_size > 0) {  // the classes share the threads
        const auto tile_threads = static_cast<unsigned>(std::max<std::size_t>(1, threads / classes.size()));
        baked.tiles = build_tiles(
            model, {.recast = classes[i].params, .tile_size = classes[i].tile_size, .threads = tile_threads, .deadline = deadline});
        place_links(baked.tiles, links);
        baked.mesh.emplace(navmesh::stitch_tiles(baked.tiles));
      } else {
        baked.mesh.emplace(build_nav_mesh(model, classes[i].params, deadline));
        baked.tiles.push_back(navmesh::solo_tile(*baked.mesh));
        if (!links.empty()) {
          place_links(baked.tiles, links);
          baked.mesh.emplace(baked.tiles.front().data);
        }
      }
    } catch (const BuildError& e) {
      throw BuildError("agent class '" + classes[i].name + "': " + e.what());
    }
  });
  return out;
}

}  // namespace waymark::recast
