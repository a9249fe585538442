#pragma once
// `waymark graph`: shortest paths on road graphs (DIMACS or node/edge lists).

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cli_support.hpp"

namespace waymark::cli {

struct GraphArgs {
  std::string gr;       ///< DIMACS .gr
  std::string co;       ///< DIMACS .co (optional)
  std::string nodes;    ///< node list `id x y`
  std::string edges;    ///< edge list `edge_id u v length`
  bool undirected = false;
  std::optional<std::int64_t> from;
  std::optional<std::int64_t> to;
  std::string queries;  ///< file of `u v` lines
  std::string algorithm = "dijkstra";
  std::string load;     ///< preprocessing file to read (alt, ch, table)
  std::string save;     ///< preprocessing file to write
  std::optional<std::int64_t> landmarks;  ///< alt: landmark count; unset: the library default
  std::int64_t max_nodes = default_max_nodes;  ///< expansions one query may make
  double time_limit_s = 0;                      ///< seconds one query may take (0: none)
  bool json = false;
  std::string trace;  ///< single query: the search's events as JSON lines, when set
};

CLI::App* add_graph_command(CLI::App& app, GraphArgs& args);
int run_graph(const GraphArgs& args);

}  // namespace waymark::cli
