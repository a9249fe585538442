#pragma once
/// @file Sliding-puzzle instance lists: one board per line, row-major tiles with 0 for the
/// blank, either `tiles…`, `index tiles…` or `index length tiles…` (Korf's 100 as distributed
/// in ../shared/data/korf100). `#` starts a comment, to the end of the line; blank lines are
/// skipped. The board size (2×2, 3×3 or 4×4) is taken from the first board; every line must agree.

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "waymark/puzzle/sliding_puzzle.hpp"

namespace waymark::io {

struct PuzzleInstance {
  std::size_t line = 0;               ///< line in the file, for messages
  std::optional<long> index;          ///< as written, when given
  std::optional<int> optimal_length;  ///< as written, when given: the solver checks against it
  std::vector<int> tiles;
  puzzle::PuzzleState state;
};

struct PuzzleInstanceList {
  int width = 0;
  std::vector<PuzzleInstance> instances;
};

/// @throws LoadError (file, line, reason) for a malformed line, a board of another size, a
/// tile that is missing, repeated or out of range, and an unsolvable board.
[[nodiscard]] PuzzleInstanceList load_puzzle_instances(const std::string& path);
[[nodiscard]] PuzzleInstanceList parse_puzzle_instances(std::istream& in, const std::string& name);

}  // namespace waymark::io
