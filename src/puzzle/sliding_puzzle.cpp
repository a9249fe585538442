#include "waymark/puzzle/sliding_puzzle.hpp"

#include <cstdlib>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"

namespace waymark::puzzle {

namespace {

constexpr std::array<int, blank_move_count> row_step{-1, 1, 0, 0};  // up, down, left, right
constexpr std::array<int, blank_move_count> col_step{0, 0, -1, 1};

/// Parity of the permutation cell -> tile (0 even, 1 odd), by counting cycles.
int permutation_parity(std::span<const int> tiles) {
  std::array<bool, max_puzzle_cells> seen{};
  int transpositions = 0;
  for (std::size_t start = 0; start < tiles.size(); ++start) {
    std::size_t length = 0;
    for (std::size_t c = start; !seen[c]; c = static_cast<std::size_t>(tiles[c])) {
      seen[c] = true;
      ++length;
    }
    if (length > 0) transpositions += static_cast<int>(length) - 1;
  }
  return transpositions % 2;
}

}  // namespace

char to_char(BlankMove m) {
  constexpr std::array<char, blank_move_count> letters{'U', 'D', 'L', 'R'};
  return letters[static_cast<std::size_t>(m)];
}

std::string describe(std::span<const BlankMove> moves) {
  std::string s;
  s.reserve(moves.size());
  for (const BlankMove m : moves) s.push_back(to_char(m));
  return s;
}

std::string describe(PuzzleCheck check, std::span<const int> tiles, int width) {
  const int cells = width * width;
  switch (check) {
    case PuzzleCheck::ok: return "ok";
    case PuzzleCheck::wrong_size:
      return "expected " + number_text(cells) + " tiles, got " + number_text(tiles.size());
    case PuzzleCheck::tile_out_of_range:
      for (const int t : tiles) {
        if (t < 0 || t >= cells) {
          return "tile " + number_text(t) + " out of range 0.." + number_text(cells - 1);
        }
      }
      break;
    case PuzzleCheck::duplicate_tile: {
      std::array<bool, max_puzzle_cells> seen{};
      for (const int t : tiles) {
        if (seen[static_cast<std::size_t>(t)]) return "tile " + number_text(t) + " appears twice";
        seen[static_cast<std::size_t>(t)] = true;
      }
      break;
    }
    case PuzzleCheck::unsolvable:
      return "unsolvable: the permutation's parity differs from the blank's distance to cell 0, "
             "so no sequence of moves reaches the goal";
  }
  return "invalid board";
}

SlidingPuzzle::SlidingPuzzle(int width) : width_(width) {
  if (width < min_puzzle_width || width > max_puzzle_width) {
    throw BuildError("sliding puzzle width " + number_text(width) + " outside " +
                     number_text(min_puzzle_width) + ".." + number_text(max_puzzle_width));
  }
  for (int cell = 0; cell < cells(); ++cell) {
    for (int m = 0; m < blank_move_count; ++m) {
      const int r = cell / width_ + row_step[static_cast<std::size_t>(m)];
      const int c = cell % width_ + col_step[static_cast<std::size_t>(m)];
      const bool inside = r >= 0 && r < width_ && c >= 0 && c < width_;
      targets_[static_cast<std::size_t>(cell)][static_cast<std::size_t>(m)] =
          static_cast<std::int8_t>(inside ? r * width_ + c : -1);
    }
  }
}

PuzzleState SlidingPuzzle::goal() const {
  PuzzleState s;
  for (int c = 0; c < cells(); ++c) s.tiles |= std::uint64_t(c) << (4 * c);
  return s;
}

PuzzleCheck SlidingPuzzle::check(std::span<const int> tiles) const {
  if (tiles.size() != static_cast<std::size_t>(cells())) return PuzzleCheck::wrong_size;
  std::array<bool, max_puzzle_cells> seen{};
  for (const int t : tiles) {
    if (t < 0 || t >= cells()) return PuzzleCheck::tile_out_of_range;
    if (seen[static_cast<std::size_t>(t)]) return PuzzleCheck::duplicate_tile;
    seen[static_cast<std::size_t>(t)] = true;
  }
  int blank = 0;
  while (tiles[static_cast<std::size_t>(blank)] != 0) ++blank;
  const int blank_distance = blank / width_ + blank % width_;
  return permutation_parity(tiles) == blank_distance % 2 ? PuzzleCheck::ok : PuzzleCheck::unsolvable;
}

PuzzleCheck SlidingPuzzle::check(const PuzzleState& s) const {
  std::array<int, max_puzzle_cells> tiles{};
  for (int c = 0; c < cells(); ++c) tiles[static_cast<std::size_t>(c)] = s.tile_at(c);
  return check(std::span<const int>(tiles.data(), static_cast<std::size_t>(cells())));
}

PuzzleState SlidingPuzzle::make_state(std::span<const int> tiles) const {
  PuzzleState s;
  for (std::size_t c = 0; c < tiles.size(); ++c) {
    s.tiles |= std::uint64_t(tiles[c]) << (4 * c);
    if (tiles[c] == 0) s.blank = static_cast<std::uint8_t>(c);
  }
  return s;
}

std::vector<int> SlidingPuzzle::tiles(const PuzzleState& s) const {
  std::vector<int> out(static_cast<std::size_t>(cells()));
  for (int c = 0; c < cells(); ++c) out[static_cast<std::size_t>(c)] = s.tile_at(c);
  return out;
}

std::optional<PuzzleState> SlidingPuzzle::apply(const PuzzleState& s, BlankMove m) const {
  const int to = target(s.blank, m);
  if (to < 0) return std::nullopt;
  return swap_blank(s, to);
}

std::optional<PuzzleState> SlidingPuzzle::replay(PuzzleState start,
                                                 std::span<const BlankMove> moves) const {
  for (const BlankMove m : moves) {
    const std::optional<PuzzleState> next = apply(start, m);
    if (!next) return std::nullopt;
    start = *next;
  }
  return start;
}

BlankMove SlidingPuzzle::move_between(int from, int to) const {
  const int d = to - from;
  if (d == -width_) return BlankMove::up;
  if (d == width_) return BlankMove::down;
  return d < 0 ? BlankMove::left : BlankMove::right;
}

}  // namespace waymark::puzzle
