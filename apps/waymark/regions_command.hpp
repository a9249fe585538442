#pragma once
// `waymark regions`: Dirichlet regions of a Moving AI map from seed cells, their sizes and
// adjacency, a picture, and coarse-then-fine planning measured against A* on a scenario.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "cli_support.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::cli {

struct RegionsArgs {
  std::string map;
  std::string seeds;       ///< inline "x,y;x,y;…"
  std::string seeds_file;  ///< one "x y" or "x,y" per line
  bool geodesic = false;   ///< nearest by path cost; default: nearest in a straight line
  std::string diagonal = "no-corner-cutting";
  bool json = false;
  std::string png;   ///< region map picture, when set
  std::string svg;   ///< the same picture as SVG, when set
  std::string scen;  ///< Moving AI scenario: coarse-then-fine against A*, when set
  std::int64_t corridor_margin = 0;
  std::int64_t max_cells = static_cast<std::int64_t>(io::default_max_map_cells);
};

CLI::App* add_regions_command(CLI::App& app, RegionsArgs& args);
int run_regions(const RegionsArgs& args);

}  // namespace waymark::cli
