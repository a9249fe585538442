#pragma once
/// @file Names of the searches, for choosing one at run time (CLI, scenario runner).

#include <cstdint>
#include <optional>
#include <string_view>

#include "waymark/core/enum_names.hpp"

namespace waymark::grid {

/// `jps` and `jps_plus` are grid-only: A* over jump points (online, or from a precomputed
/// JPS+ table).
enum class Algorithm : std::uint8_t { astar, wastar, dijkstra, greedy, bfs, dfs, ida, jps, jps_plus };

inline constexpr EnumNames<Algorithm, 9> algorithm_names{{
    {Algorithm::astar, "astar"},
    {Algorithm::wastar, "wastar"},
    {Algorithm::dijkstra, "dijkstra"},
    {Algorithm::greedy, "greedy"},
    {Algorithm::bfs, "bfs"},
    {Algorithm::dfs, "dfs"},
    {Algorithm::ida, "ida"},
    {Algorithm::jps, "jps"},
    {Algorithm::jps_plus, "jps-plus"},
}};

[[nodiscard]] constexpr std::string_view to_string(Algorithm a) { return name_of(algorithm_names, a); }
/// Accepts the names above, and "jps+" for jps-plus.
[[nodiscard]] constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return name == "jps+" ? std::optional<Algorithm>(Algorithm::jps_plus) : value_of(algorithm_names, name);
}
/// Whether the algorithm returns minimum-cost paths (given an admissible heuristic).
[[nodiscard]] constexpr bool is_cost_optimal(Algorithm a) {
  return a == Algorithm::astar || a == Algorithm::dijkstra || a == Algorithm::ida || a == Algorithm::jps ||
         a == Algorithm::jps_plus;
}

}  // namespace waymark::grid
