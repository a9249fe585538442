// waymark command-line tool. Its 13 commands, registered below in this order (each in its
// *_command.cpp, or commands.cpp for path, scen and jps-table):
//   path        a path between two cells of a Moving AI .map
//   scen        every query of Moving AI .map.scen files, checked against the printed optima
//   jps-table   precompute a map's JPS+ jump table, save it, report time and memory
//   graph       shortest paths on a road graph (DIMACS .gr/.co or node/edge lists)
//   puzzle      optimal solutions of sliding-tile puzzles
//   navmesh     paths on a navmesh built from an OBJ model or loaded from a bake
//   bake        an OBJ model's navmesh per agent class, written to a .wmnav file
//   regions     Dirichlet regions of a map from seed cells, and coarse-then-fine planning
//   visibility  shortest paths among polygon obstacles (points of visibility)
//   batch       many path queries on one map on several threads
//   simulate    a scene of agents (JSON) until all arrive or max_steps
//   serve       the web viewer and its JSON API
//   render      a world from its file to a PNG and/or an SVG
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <system_error>
#include <iostream>
#include <string>

#include "bake_command.hpp"
#include "batch_command.hpp"
#include "commands.hpp"
#include "graph_command.hpp"
#include "navmesh_command.hpp"
#include "puzzle_command.hpp"
#include "regions_command.hpp"
#include "render_command.hpp"
#include "serve_command.hpp"
#include "simulate_command.hpp"
#include "visibility_command.hpp"

namespace {

/// For the options of `app`'s parsed command (and `app` itself) read as whole numbers: the
/// first value typed that is a whole number past 64 bits, as "--opt must be a whole number
/// within 64 bits, got 'text'"; nothing when there is none.
std::optional<std::string> integer_past_64_bits(const CLI::App& app) {
  const auto first_in = [](const CLI::App& a) -> std::optional<std::string> {
    for (const CLI::Option* opt : a.get_options()) {
      const std::string type = opt->get_type_name();
      if (type != "INT" && type != "UINT") continue;
      for (const std::string& text : opt->results()) {
        std::string_view digits = text;
        if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
        const char* end = text.data() + text.size();
        std::int64_t i = 0;
        std::uint64_t u = 0;
        const bool past = type == "INT" ? std::from_chars(begin, end, i).ec == std::errc::result_out_of_range
                                        : text.front() != '-' && std::from_chars(begin, end, u).ec == std::errc::result_out_of_range;
        if (past) {
          return opt->get_name() + " must be a whole number within 64 bits, got " + waymark::quoted(text);
        }
      }
    }
    return std::nullopt;
  };
  if (auto found = first_in(app)) return found;
  for (const CLI::App* sub : app.get_subcommands()) {
    if (auto found = first_in(*sub)) return found;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"waymark: game navigation - grid path queries, batch queries on threads, Moving AI benchmark runs, JPS+ preprocessing, road-graph routes, sliding-tile puzzles, navmesh paths and bakes, regions, visibility paths, steering simulations, pictures of worlds, a web viewer"};
  app.require_subcommand(1);
  waymark::cli::PathArgs path_args;
  waymark::cli::ScenArgs scen_args;
  waymark::cli::JpsTableArgs jps_table_args;
  waymark::cli::GraphArgs graph_args;
  waymark::cli::PuzzleArgs puzzle_args;
  waymark::cli::NavmeshArgs navmesh_args;
  waymark::cli::BakeArgs bake_args;
  waymark::cli::RegionsArgs regions_args;
  waymark::cli::VisibilityArgs visibility_args;
  waymark::cli::BatchArgs batch_args;
  waymark::cli::SimulateArgs simulate_args;
  waymark::cli::ServeArgs serve_args;
  waymark::cli::RenderArgs render_args;
  CLI::App* path_cmd = waymark::cli::add_path_command(app, path_args);
  CLI::App* scen_cmd = waymark::cli::add_scen_command(app, scen_args);
  CLI::App* jps_table_cmd = waymark::cli::add_jps_table_command(app, jps_table_args);
  CLI::App* graph_cmd = waymark::cli::add_graph_command(app, graph_args);
  CLI::App* puzzle_cmd = waymark::cli::add_puzzle_command(app, puzzle_args);
  CLI::App* navmesh_cmd = waymark::cli::add_navmesh_command(app, navmesh_args);
  CLI::App* bake_cmd = waymark::cli::add_bake_command(app, bake_args);
  CLI::App* regions_cmd = waymark::cli::add_regions_command(app, regions_args);
  CLI::App* visibility_cmd = waymark::cli::add_visibility_command(app, visibility_args);
  CLI::App* batch_cmd = waymark::cli::add_batch_command(app, batch_args);
  CLI::App* simulate_cmd = waymark::cli::add_simulate_command(app, simulate_args);
  CLI::App* serve_cmd = waymark::cli::add_serve_command(app, serve_args);
  CLI::App* render_cmd = waymark::cli::add_render_command(app, render_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error: "waymark: reason (see waymark [command] --help)".
    std::string reason = e.what();
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    constexpr const char* commands = "path, batch, scen, jps-table, graph, puzzle, navmesh, bake, regions, visibility, simulate, render or serve";
    if (argc < 2) {
      reason = std::string("a command is required: ") + commands;
    } else if (argv[1][0] != '-' && app.get_subcommands().empty()) {
      reason = "unknown command " + waymark::quoted(argv[1]) + " (expected " + commands + ")";
    }
    std::cerr << "waymark: " << reason << " (see waymark --help)\n";
    return waymark::cli::exit_bad_input;
  }
  // CLI11 reads a whole number past 64 bits as the nearest 64-bit one: the checks that follow
  // would then echo a number nobody typed. Refused here, with what was typed.
  if (const auto overflow = integer_past_64_bits(app)) {
    std::cerr << "waymark: " << *overflow << " (see waymark --help)\n";
    return waymark::cli::exit_bad_input;
  }
  if (path_cmd->parsed()) return waymark::cli::run_path(path_args);
  if (scen_cmd->parsed()) return waymark::cli::run_scen(scen_args);
  if (jps_table_cmd->parsed()) return waymark::cli::run_jps_table(jps_table_args);
  if (graph_cmd->parsed()) return waymark::cli::run_graph(graph_args);
  if (puzzle_cmd->parsed()) return waymark::cli::run_puzzle(puzzle_args);
  if (navmesh_cmd->parsed()) return waymark::cli::run_navmesh(navmesh_args);
  if (bake_cmd->parsed()) return waymark::cli::run_bake(bake_args);
  if (regions_cmd->parsed()) return waymark::cli::run_regions(regions_args);
  if (visibility_cmd->parsed()) return waymark::cli::run_visibility(visibility_args);
  if (batch_cmd->parsed()) return waymark::cli::run_batch(batch_args);
  if (simulate_cmd->parsed()) return waymark::cli::run_simulate(simulate_args);
  if (serve_cmd->parsed()) return waymark::cli::run_serve(serve_args);
  if (render_cmd->parsed()) return waymark::cli::run_render(render_args);
  return waymark::cli::exit_bad_input;
}
