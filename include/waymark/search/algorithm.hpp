#pragma once
/// @file Names of the searches, for choosing one at run time (CLI, scenario runner).

#include <cstdint>
#include <optional>
#include <string_view>

#include "waymark/core/enum_names.hpp"

namespace waymark {

enum class Algorithm : std::uint8_t { astar, wastar, dijkstra, greedy, bfs, dfs, ida };

inline constexpr EnumNames<Algorithm, 7> algorithm_names{{
    {Algorithm::astar, "astar"},
    {Algorithm::wastar, "wastar"},
    {Algorithm::dijkstra, "dijkstra"},
    {Algorithm::greedy, "greedy"},
    {Algorithm::bfs, "bfs"},
    {Algorithm::dfs, "dfs"},
    {Algorithm::ida, "ida"},
}};

[[nodiscard]] constexpr std::string_view to_string(Algorithm a) { return name_of(algorithm_names, a); }
[[nodiscard]] constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return value_of(algorithm_names, name);
}
/// Whether the algorithm returns minimum-cost paths (given an admissible heuristic).
[[nodiscard]] constexpr bool is_cost_optimal(Algorithm a) {
  return a == Algorithm::astar || a == Algorithm::dijkstra || a == Algorithm::ida;
}

}  // namespace waymark
