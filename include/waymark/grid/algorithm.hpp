#pragma once
/// @file Names of the searches, for choosing one at run time (CLI, scenario runner).

#include <cstdint>
#include <optional>
#include <string_view>

#include "waymark/core/enum_names.hpp"

namespace waymark::grid {

/// `jps` and `jps_plus` are grid-only: A* over jump points (online, or from a precomputed
/// JPS+ table). `theta` is Theta*, any-angle: its path is a list of waypoint cells joined by
/// straight segments (see any_angle.hpp), not a chain of adjacent cells. It always runs plain
/// A*'s priority with the euclidean heuristic (the only grid heuristic admissible for
/// segments): GridPlannerOptions::heuristic and QueryOptions::weight do not apply to it and
/// are ignored (the CLI refuses them).
/// Fixed values: they cross the C API and the bindings, and files and traces keep them.
enum class Algorithm : std::uint8_t {
  astar = 0, wastar = 1, dijkstra = 2, greedy = 3, bfs = 4, dfs = 5, ida = 6, jps = 7, jps_plus = 8, theta = 9
};

inline constexpr EnumNames<Algorithm, 10> algorithm_names{{
    {Algorithm::astar, "astar"},
    {Algorithm::wastar, "wastar"},
    {Algorithm::dijkstra, "dijkstra"},
    {Algorithm::greedy, "greedy"},
    {Algorithm::bfs, "bfs"},
    {Algorithm::dfs, "dfs"},
    {Algorithm::ida, "ida"},
    {Algorithm::jps, "jps"},
    {Algorithm::jps_plus, "jps-plus"},
    {Algorithm::theta, "theta"},
}};

[[nodiscard]] constexpr std::string_view to_string(Algorithm a) { return name_of(algorithm_names, a); }
/// Accepts the names above, and "jps+" for jps-plus.
[[nodiscard]] constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return name == "jps+" ? std::optional<Algorithm>(Algorithm::jps_plus) : value_of(algorithm_names, name);
}
/// Whether the algorithm returns minimum-cost paths (given an admissible heuristic). Not
/// theta: its any-angle paths may cost less than the grid's optimum, and more than the
/// shortest any-angle path.
[[nodiscard]] constexpr bool is_cost_optimal(Algorithm a) {
  return a == Algorithm::astar || a == Algorithm::dijkstra || a == Algorithm::ida || a == Algorithm::jps ||
         a == Algorithm::jps_plus;
}

}  // namespace waymark::grid
