#pragma once
// `waymark visibility`: shortest paths among polygon obstacles (points of visibility).

#include <CLI/CLI.hpp>

#include <string>

#include "cli_support.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::cli {

struct VisibilityArgs {
  std::string polygons;  ///< the obstacle file (JSON, docs/visibility.md)
  std::string from;      ///< "x,y"
  std::string to;
  double radius = 0;
  double arc_step = visibility::VisibilityParams{}.arc_step_degrees;
  bool no_corners = false;
  bool json = false;
  std::string png;  ///< picture of the obstacles, the visibility edges and the path, when set
  std::string svg;  ///< the same picture as SVG, when set
};

CLI::App* add_visibility_command(CLI::App& app, VisibilityArgs& args);
int run_visibility(const VisibilityArgs& args);

}  // namespace waymark::cli
