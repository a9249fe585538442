#pragma once
// `waymark visibility`: shortest paths among polygon obstacles (points of visibility).

#include <CLI/CLI.hpp>

#include <cstdint>
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
  double time_limit_s = visibility::default_max_seconds;  ///< seconds the graph's build may take (0: none)
  std::int64_t max_edges = static_cast<std::int64_t>(visibility::default_max_edges);
  bool json = false;
  std::string png;  ///< picture of the obstacles, the visibility edges and the path, when set
  std::string svg;  ///< the same picture as SVG, when set
};

CLI::App* add_visibility_command(CLI::App& app, VisibilityArgs& args);
int run_visibility(const VisibilityArgs& args);

}  // namespace waymark::cli
