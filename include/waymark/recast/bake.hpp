#pragma once
/// @file Baking: one Recast build per agent class, gathered into a navmesh::NavBake that
/// navmesh/nav_file.hpp saves as a `.wmnav` file and loads without Recast.

#include <chrono>
#include <cstddef>
#include <span>
#include <string>

#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::recast {

/// One agent size of a bake: what queries and agents call it, and Recast's parameters for it
/// (agent_radius, agent_height, agent_max_climb and agent_max_slope set the size).
struct AgentClass {
  std::string name;  ///< [navmesh::class_name_problem() empty; unique in the bake]
  RecastParams params;
  /// Build in square tiles of this many voxels (recast::build_tiles, stitched), as Recast's
  /// tileSize; 0: one solo mesh. [0, or min_tile_size to max_tile_size]
  int tile_size = 0;
};

/// The parameters as a bake stores them (tile_size 0: a solo build), and back.
[[nodiscard]] navmesh::NavBuildParams build_params_of(const RecastParams& params, int tile_size = 0);
[[nodiscard]] RecastParams recast_params_of(const navmesh::NavBuildParams& params);

/// Builds `model`'s navmesh once per class (build_nav_mesh, a solo mesh: one tile; or
/// build_tiles when the class has a tile size, its tiles stitched into its mesh), the
/// classes on up to `threads` threads (0: one per core; the bake is the same whatever the
/// count), and records the model's geometry_fingerprint. Throws BuildError naming the class
/// when a class's name is refused or repeated, its parameters break their limits or its build
/// fails (the first such class in order), and when there are no classes or more than
/// navmesh::max_bake_classes.
/// `links` (off-mesh links, the same for every class) are stored in the tile whose plan holds
/// each link's start (the first tile when none does), and so join every class's mesh.
/// A tiled class begins no tile after `deadline` (TiledParams::deadline), a solo class no step
/// of Recast's (build_recast_meshes): the bake then throws BuildError naming the class.
[[nodiscard]] navmesh::NavBake bake(const TriangleMesh& model, std::span<const AgentClass> classes,
                                    std::size_t threads = 0, std::span<const navmesh::OffMeshLink> links = {},
                                    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

}  // namespace waymark::recast
