// Names of the grid enums, as the CLI and JSON spell them.
#include "waymark/core/enum_names.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/grid/moves.hpp"

namespace waymark::grid {
namespace {

constexpr EnumNames<DiagonalRule, 4> diagonal_names{{
    {DiagonalRule::never, "never"},
    {DiagonalRule::always, "always"},
    {DiagonalRule::at_most_one_obstacle, "at-most-one-obstacle"},
    {DiagonalRule::no_corner_cutting, "no-corner-cutting"},
}};

constexpr EnumNames<HeuristicKind, 5> heuristic_names{{
    {HeuristicKind::manhattan, "manhattan"},
    {HeuristicKind::octile, "octile"},
    {HeuristicKind::euclidean, "euclidean"},
    {HeuristicKind::chebyshev, "chebyshev"},
    {HeuristicKind::zero, "zero"},
}};

}  // namespace

std::string_view to_string(DiagonalRule r) { return name_of(diagonal_names, r); }
std::optional<DiagonalRule> parse_diagonal_rule(std::string_view name) {
  return value_of(diagonal_names, name);
}
std::string_view to_string(HeuristicKind k) { return name_of(heuristic_names, k); }
std::optional<HeuristicKind> parse_heuristic(std::string_view name) {
  return value_of(heuristic_names, name);
}

bool is_admissible(HeuristicKind k, DiagonalRule rule) {
  return k != HeuristicKind::manhattan || !is_eight_connected(rule);
}

HeuristicKind default_heuristic(DiagonalRule rule) {
  return is_eight_connected(rule) ? HeuristicKind::octile : HeuristicKind::manhattan;
}

}  // namespace waymark::grid
