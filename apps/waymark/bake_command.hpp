#pragma once
// `waymark bake`: builds an OBJ model's navmesh once per agent class and writes the bake
// (.wmnav) that `waymark navmesh --navmesh` and navmesh::NavBake::load read without Recast.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/recast/recast_build.hpp"

namespace waymark::cli {

struct BakeArgs {
  std::string obj;
  std::string out;
  /// --agent-class, repeatable: "[NAME=]radius,height,climb,slope"; none: one class named
  /// "0" from --agent-radius, --agent-height, --agent-climb and --agent-slope.
  std::vector<std::string> classes;
  recast::RecastParams recast;
  std::int64_t threads = 0;  ///< classes built at once; 0: one per core
  int tile_size = 0;         ///< build in tiles of this many voxels; 0: solo
  std::string links;         ///< --links: a .gset file of off-mesh links
  double time_limit_s = 0;   ///< --time-limit: no tile (or step of a solo build) begun after this many seconds; 0: none
};

CLI::App* add_bake_command(CLI::App& app, BakeArgs& args);
int run_bake(const BakeArgs& args);

}  // namespace waymark::cli
