#pragma once
// `waymark batch`: many path queries on one Moving AI map, on several threads, one answer per
// query in input order.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "commands.hpp"
#include "waymark/io/batch_queries.hpp"

namespace waymark::cli {

struct BatchArgs {
  SearchArgs search;  ///< --png is not offered
  std::string map;
  std::string queries;  ///< a Moving AI .scen or lines `sx sy gx gy`
  std::string diagonal = "no-corner-cutting";
  bool terrain = false;
  std::int64_t threads = 1;  ///< set to the machine's cores by add_batch_command
  std::int64_t max_queries = static_cast<std::int64_t>(io::default_max_batch_queries);
};

CLI::App* add_batch_command(CLI::App& app, BatchArgs& args);
int run_batch(const BatchArgs& args);

}  // namespace waymark::cli
