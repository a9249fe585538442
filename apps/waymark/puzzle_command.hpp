#pragma once
// `waymark puzzle`: optimal solutions of sliding-tile puzzles (8- and 15-puzzle instance files).

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cli_support.hpp"

namespace waymark::cli {

struct PuzzleArgs {
  std::string instances;
  std::string algorithm = "ida";
  std::string heuristic = "auto";  ///< auto: pdb-663 on 4x4 boards, linear-conflict on smaller ones
  std::string pdb;                 ///< pattern database file: read if present, else built and written
  std::int64_t threads = 1;                ///< instances solved in parallel
  std::optional<std::int64_t> max_nodes;  ///< A*: states held; IDA*: expansions (unset: the defaults)
  double time_limit_s = 0;                ///< seconds per instance (0: none)
  bool moves = false;              ///< text output: print each solution's moves
  bool json = false;
};

CLI::App* add_puzzle_command(CLI::App& app, PuzzleArgs& args);
int run_puzzle(const PuzzleArgs& args);

}  // namespace waymark::cli
