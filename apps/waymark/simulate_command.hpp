#pragma once
// `waymark simulate`: runs a scene file (agents on a Moving AI map) until every agent has
// arrived or the step limit is reached; a summary, and optionally every tick's positions.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace waymark::cli {

/// --steps when not given: the scene's max_steps.
inline constexpr std::int64_t unset_steps = std::numeric_limits<std::int64_t>::min();

struct SimulateArgs {
  std::string scene;
  std::int64_t steps = unset_steps;
  bool json = false;
  std::string trace;
  std::string png;  ///< picture of the map and every agent's trail, when set
  std::string svg;  ///< the same picture as SVG, when set
  double time_limit_s = 0;  ///< wall seconds for the whole run, warm start included; 0: none
};

CLI::App* add_simulate_command(CLI::App& app, SimulateArgs& args);
int run_simulate(const SimulateArgs& args);

}  // namespace waymark::cli
