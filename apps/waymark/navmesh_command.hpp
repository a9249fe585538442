#pragma once
// `waymark navmesh`: paths on a navigation mesh built from an OBJ model or loaded from a bake.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_obstacle.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::cli {

struct NavmeshArgs {
  std::string obj;
  std::string navmesh;      ///< a .wmnav bake, instead of --obj
  std::string agent_class;  ///< --class: the bake's class to query (needed when it has several)
  std::string build = "recast";  ///< recast | triangles
  std::string mode = "shortest";
  std::string from;  ///< "x,y,z"
  std::string to;
  std::string queries;  ///< RecastDemo TestCases file
  std::string links;    ///< off-mesh links: RecastDemo .gset `c` lines
  recast::RecastParams recast;
  std::string obstacles;  ///< --obstacles: a file of obstacles carved out of the mesh
  int tile_size = 0;  ///< recast: tile side in voxels (Recast's tileSize); 0: one solo mesh
  double time_limit_s = 0;  ///< --time-limit: no tile (or step of a solo build) begun after this many seconds; 0: none
  double weld = navmesh::TriangleBuildParams{}.weld_distance;
  bool json = false;
  std::string png;  ///< picture of the mesh and the paths
  std::string svg;  ///< the same picture as SVG
};

/// What a picture draws over a built mesh besides it: its tiles' plan squares (a tiled build)
/// and the obstacles carved out of it (--obstacles).
struct NavmeshOverlayData {
  std::vector<Aabb2> tiles;
  std::vector<navmesh::NavObstacle> obstacles;
};

/// The navmesh of `model` built as --build and the Recast/weld options of `args` ask (the
/// `navmesh` and `render` commands): a model Recast cannot build from is a LoadError naming
/// `obj`, an unknown --build a UsageError. A Recast build begins no tile, no carved tile and
/// no step of a solo build once `deadline` has passed (--time-limit), and is then a LoadError
/// saying so. `overlays`, when given, receives the tiles and obstacles to draw.
navmesh::NavMesh build_nav_mesh(const NavmeshArgs& args, const TriangleMesh& model, const std::string& obj,
                                const search::Deadline& deadline, NavmeshOverlayData* overlays = nullptr);

/// --time-limit's help, the same words for `navmesh`, `render` and `bake`.
inline constexpr const char* recast_time_limit_help =
    "Recast builds: begin no tile (and no step of a solo build) after this many seconds, and fail saying so "
    "(> 0; default: none)";

/// Adds Recast's build options (--cell-size … --detail-max-error, --agent-*) to `cmd`, writing
/// to `params`; returns them (the `navmesh` command refuses them with --navmesh).
std::vector<CLI::Option*> add_recast_options(CLI::App* cmd, recast::RecastParams& params);

CLI::App* add_navmesh_command(CLI::App& app, NavmeshArgs& args);
int run_navmesh(const NavmeshArgs& args);

}  // namespace waymark::cli
