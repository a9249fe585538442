#pragma once
/// @file Which moves a grid allows: 4-connected, or 8-connected under a diagonal rule.

#include <cstdint>
#include <numbers>
#include <optional>
#include <string_view>

namespace waymark::grid {

/// When a diagonal step between two passable cells is allowed. `never` is 4-connectivity;
/// the others are 8-connectivity. For a diagonal from (x,y) to (x+dx,y+dy) the two cardinal
/// cells it passes are (x+dx,y) and (x,y+dy).
/// Fixed values (WM_DIAGONAL_* in the C API).
enum class DiagonalRule : std::uint8_t {
  never = 0,                 ///< 4-connected
  always = 1,                ///< any diagonal to a passable cell, even between two walls
  at_most_one_obstacle = 2,  ///< at least one of the two cardinal cells is passable
  no_corner_cutting = 3,     ///< both cardinal cells passable (Moving AI benchmark semantics)
};

[[nodiscard]] constexpr bool is_eight_connected(DiagonalRule r) { return r != DiagonalRule::never; }

/// Whether `rule` lets a move (or a straight segment) pass diagonally through a cell corner
/// whose two side cells have these passabilities.
[[nodiscard]] constexpr bool diagonal_rule_allows(DiagonalRule rule, bool side_a_open, bool side_b_open) {
  switch (rule) {
    case DiagonalRule::never: return false;
    case DiagonalRule::always: return true;
    case DiagonalRule::at_most_one_obstacle: return side_a_open || side_b_open;
    case DiagonalRule::no_corner_cutting: return side_a_open && side_b_open;
  }
  return false;
}

/// Length of a cardinal and a diagonal step, in cells.
inline constexpr double cardinal_step = 1.0;
inline constexpr double diagonal_step = std::numbers::sqrt2;

/// "never", "always", "at-most-one-obstacle", "no-corner-cutting".
[[nodiscard]] std::string_view to_string(DiagonalRule r);
[[nodiscard]] std::optional<DiagonalRule> parse_diagonal_rule(std::string_view name);

}  // namespace waymark::grid
