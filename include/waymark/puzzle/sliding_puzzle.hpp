#pragma once
/// @file The sliding-tile puzzle world: N×N boards (N = 2..4) with one blank, the goal with
/// the blank first (cell 0) and tile t on cell t, row-major.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/hash.hpp"

namespace waymark::puzzle {

inline constexpr int min_puzzle_width = 2;
/// A board of up to 16 cells packs into 64 bits (4 bits per cell).
inline constexpr int max_puzzle_width = 4;
inline constexpr int max_puzzle_cells = max_puzzle_width * max_puzzle_width;

/// The direction the blank moves (the tile it swaps with moves the other way).
enum class BlankMove : std::uint8_t { up, down, left, right };
inline constexpr int blank_move_count = 4;

/// 'U', 'D', 'L' or 'R'.
[[nodiscard]] char to_char(BlankMove m);
/// Moves as a string of U/D/L/R.
[[nodiscard]] std::string describe(std::span<const BlankMove> moves);

/// A board: the tile on cell c is bits 4c..4c+3 of `tiles` (0 = blank); `blank` caches the
/// blank's cell. 16 bytes, cheap to copy and hash.
struct PuzzleState {
  std::uint64_t tiles = 0;
  std::uint8_t blank = 0;

  [[nodiscard]] int tile_at(int cell) const {
    return static_cast<int>((tiles >> (4 * cell)) & 0xF);
  }
  /// The inverse view, for a board of `cells` cells: element t is the cell of tile t (t = 0:
  /// the blank).
  [[nodiscard]] std::array<std::uint8_t, max_puzzle_cells> cells_of_tiles(int cells) const {
    std::array<std::uint8_t, max_puzzle_cells> cell_of{};
    for (int c = 0; c < cells; ++c) cell_of[static_cast<std::size_t>(tile_at(c))] = static_cast<std::uint8_t>(c);
    return cell_of;
  }
  friend bool operator==(const PuzzleState&, const PuzzleState&) = default;
};

/// Why a list of tiles is not a board that can be solved.
enum class PuzzleCheck : std::uint8_t { ok, wrong_size, tile_out_of_range, duplicate_tile, unsolvable };

/// One-line reason for a failed check ("tile 16 out of range 0..15", "unsolvable: ...").
[[nodiscard]] std::string describe(PuzzleCheck check, std::span<const int> tiles, int width);

/// The puzzle of one board size: geometry, solvability and moves. Immutable and cheap; many
/// searches may share one. Models SearchSpace (node = PuzzleState, every move costs 1).
class SlidingPuzzle {
 public:
  using node_type = PuzzleState;
  static constexpr Cost move_cost = 1;

  /// @throws BuildError when width is outside [min_puzzle_width, max_puzzle_width].
  explicit SlidingPuzzle(int width);

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int cells() const { return width_ * width_; }
  [[nodiscard]] PuzzleState goal() const;

  /// Whether `tiles` (row-major, 0 = blank) is a permutation of 0..cells()-1 that can reach
  /// the goal. A board is solvable exactly when the parity of its permutation equals the
  /// parity of the blank's Manhattan distance from cell 0 (each move is one transposition
  /// and moves the blank one step).
  [[nodiscard]] PuzzleCheck check(std::span<const int> tiles) const;
  /// check() of a state's board (its tiles cell by cell), without allocating.
  [[nodiscard]] PuzzleCheck check(const PuzzleState& s) const;
  /// check(s) == ok.
  [[nodiscard]] bool is_solvable(const PuzzleState& s) const { return check(s) == PuzzleCheck::ok; }
  /// The state of a board that passed check().
  [[nodiscard]] PuzzleState make_state(std::span<const int> tiles) const;
  [[nodiscard]] std::vector<int> tiles(const PuzzleState& s) const;

  /// The cell the blank moves to, or -1 when the move leaves the board.
  [[nodiscard]] int target(int blank_cell, BlankMove m) const {
    return targets_[static_cast<std::size_t>(blank_cell)][static_cast<std::size_t>(m)];
  }
  /// The board after the move, or nullopt when the move leaves the board.
  [[nodiscard]] std::optional<PuzzleState> apply(const PuzzleState& s, BlankMove m) const;
  /// Replays `moves` from `start`; nullopt if one of them leaves the board.
  [[nodiscard]] std::optional<PuzzleState> replay(PuzzleState start,
                                                  std::span<const BlankMove> moves) const;
  /// The move that takes the blank from `from` to the adjacent cell `to`.
  [[nodiscard]] BlankMove move_between(int from, int to) const;

  template <class F>
  void for_each_successor(const PuzzleState& s, F&& f) const {
    for (int m = 0; m < blank_move_count; ++m) {
      const int to = targets_[s.blank][static_cast<std::size_t>(m)];
      if (to >= 0) f(swap_blank(s, to), move_cost);
    }
  }

  /// Moves the tile on `to` (adjacent to the blank) into the blank's cell.
  [[nodiscard]] static PuzzleState swap_blank(const PuzzleState& s, int to) {
    const std::uint64_t tile = (s.tiles >> (4 * to)) & 0xF;
    PuzzleState next;
    next.tiles = s.tiles ^ (tile << (4 * to)) ^ (tile << (4 * s.blank));
    next.blank = static_cast<std::uint8_t>(to);
    return next;
  }

 private:
  int width_;
  std::array<std::array<std::int8_t, blank_move_count>, max_puzzle_cells> targets_{};
};

}  // namespace waymark::puzzle

template <>
struct std::hash<waymark::puzzle::PuzzleState> {
  std::size_t operator()(const waymark::puzzle::PuzzleState& s) const noexcept {
    return static_cast<std::size_t>(waymark::mix64(s.tiles));
  }
};
