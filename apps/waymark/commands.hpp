#pragma once
// The CLI's subcommands: option binding (add_*) and execution (run_*).

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::cli {

/// Options shared by every grid-search command.
struct SearchArgs {
  std::string algorithm = "astar";
  std::optional<double> weight;  ///< given or not (io::PathQuery: only wastar takes one; default 1.5)
  std::string heuristic;  ///< empty: the rule's default
  bool json = false;
  std::string png;  ///< picture of the path, when set
  std::string svg;  ///< the same picture as SVG, when set
  /// Nodes one query may reach before it stops, out of nodes (exit 1): a bound on time and
  /// memory for every algorithm, IDA* and DFS included. Raise it for larger maps.
  std::int64_t max_nodes = default_max_nodes;
  std::int64_t max_cells = static_cast<std::int64_t>(io::default_max_map_cells);  ///< largest map accepted (--max-cells)
  double time_limit_s = 0;  ///< wall time of one query's search; 0: none
};

struct PathArgs {
  SearchArgs search;
  std::string map;
  std::string from;
  std::string to;
  std::string diagonal = "no-corner-cutting";
  bool terrain = false;  ///< 'S' and 'W' passable at a cost instead of S=free, W=blocked
  std::string jump_table;  ///< jps-plus: a table saved by `waymark jps-table`
  std::string trace;       ///< events of the search as JSON lines, when set
  bool partial = false;    ///< on failure, print the path to the reached cell nearest the goal
  bool smooth = false;     ///< print the path smoothed by line of sight (cost: smoothed; raw_cost: the search's)
};

struct JpsTableArgs {
  std::string map;
  std::string out;
  bool json = false;
};

struct ScenArgs {
  SearchArgs search;
  std::vector<std::string> files;
  std::string maps_dir;
  std::int64_t sample_every = 1;  ///< run query i of each file when i % sample_every == 0
};

/// The planner options a grid command's --algorithm, --weight, --max-nodes and --heuristic ask
/// for under `rule`, read by io::parse_path_query (the viewer's parser), or UsageError with its
/// reason (a heuristic that overestimates under the rule: a warning on stderr).
grid::GridPlannerOptions planner_options(const SearchArgs& args, grid::DiagonalRule rule);

/// --weight, and --max-nodes with --max-cells, as every grid command has them.
void add_weight_option(CLI::App* cmd, SearchArgs& args);
void add_limit_options(CLI::App* cmd, SearchArgs& args);

CLI::App* add_path_command(CLI::App& app, PathArgs& args);
CLI::App* add_scen_command(CLI::App& app, ScenArgs& args);
CLI::App* add_jps_table_command(CLI::App& app, JpsTableArgs& args);
int run_path(const PathArgs& args);
int run_scen(const ScenArgs& args);
int run_jps_table(const JpsTableArgs& args);

}  // namespace waymark::cli
