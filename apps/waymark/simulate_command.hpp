#pragma once
// `waymark simulate`: runs a scene file (agents on a Moving AI map) until every agent has
// arrived or the step limit is reached; a summary, and optionally every tick's positions.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace waymark::cli {

struct SimulateArgs {
  std::string scene;
  std::int64_t steps = 0;  ///< 0: the scene's max_steps
  bool json = false;
  std::string trace;
};

CLI::App* add_simulate_command(CLI::App& app, SimulateArgs& args);
int run_simulate(const SimulateArgs& args);

}  // namespace waymark::cli
