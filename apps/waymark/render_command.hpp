#pragma once
// `waymark render`: a picture (PNG or SVG, with a legend) of a world from its file: a Moving AI
// map, an OBJ model's navmesh, or a polygon obstacle file.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "cli_support.hpp"
#include "navmesh_command.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::cli {

struct RenderArgs {
  std::string map;       ///< Moving AI .map
  std::string obj;       ///< Wavefront OBJ: its navmesh, built as `waymark navmesh` builds it
  std::string polygons;  ///< polygon obstacle file (JSON), as `waymark visibility` reads it
  bool terrain = false;  ///< --map: 'S' and 'W' passable at a cost
  NavmeshArgs nav;       ///< --obj: --build and the build's options
  double radius = 0;     ///< --polygons: agent radius of the visibility graph drawn
  std::string png;
  std::string svg;
  std::int64_t max_cells = static_cast<std::int64_t>(io::default_max_map_cells);
};

CLI::App* add_render_command(CLI::App& app, RenderArgs& args);
int run_render(const RenderArgs& args);

}  // namespace waymark::cli
