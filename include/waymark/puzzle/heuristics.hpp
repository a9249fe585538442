#pragma once
/// @file Heuristics for the sliding-tile puzzle: Manhattan distance and linear conflict, as
/// Heuristic functors for the generic searches (any goal board) and as tables the fast
/// solver updates move by move.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "waymark/core/cost.hpp"
#include "waymark/core/enum_names.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"

namespace waymark::puzzle {

/// The heuristics the puzzle solver offers. The PDBs are for the 15-puzzle.
enum class HeuristicKind : std::uint8_t { manhattan, linear_conflict, pdb_663, pdb_78 };

inline constexpr EnumNames<HeuristicKind, 4> heuristic_names{{
    {HeuristicKind::manhattan, "manhattan"},
    {HeuristicKind::linear_conflict, "linear-conflict"},
    {HeuristicKind::pdb_663, "pdb-663"},
    {HeuristicKind::pdb_78, "pdb-78"},
}};
[[nodiscard]] constexpr std::string_view to_string(HeuristicKind h) { return name_of(heuristic_names, h); }
[[nodiscard]] constexpr std::optional<HeuristicKind> parse_heuristic(std::string_view s) {
  return value_of(heuristic_names, s);
}
[[nodiscard]] constexpr bool uses_pattern_database(HeuristicKind h) {
  return h == HeuristicKind::pdb_663 || h == HeuristicKind::pdb_78;
}

/// Extra moves forced by the tiles of one line (row or column) that belong in that line:
/// tiles whose goal order disagrees with their order on the board must leave the line and
/// come back, two moves each. `goal_slots[i]` is the goal position along the line of the
/// tile in the line's i-th cell, or -1 for a blank or a tile that belongs elsewhere. The
/// count is the number of tiles minus the longest run in increasing goal order that can
/// stay (Hansson, Mayer & Yung 1992, as the minimal set to remove).
[[nodiscard]] int line_conflict_tiles(const int* goal_slots, int length);

/// Sum over tiles of the row and column distance to the tile's cell on `goal`.
class ManhattanHeuristic {
 public:
  explicit ManhattanHeuristic(const SlidingPuzzle& puzzle) : width_(puzzle.width()) {}
  [[nodiscard]] Cost operator()(const PuzzleState& s, const PuzzleState& goal) const;

 private:
  int width_;
};

/// Manhattan distance plus two moves for every tile that must leave its goal row or column
/// to let another pass. Admissible and consistent; dominates Manhattan.
class LinearConflictHeuristic {
 public:
  explicit LinearConflictHeuristic(const SlidingPuzzle& puzzle) : width_(puzzle.width()) {}
  [[nodiscard]] Cost operator()(const PuzzleState& s, const PuzzleState& goal) const;

 private:
  int width_;
};

}  // namespace waymark::puzzle
