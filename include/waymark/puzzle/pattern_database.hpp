#pragma once
/// @file Additive disjoint pattern databases for the sliding-tile puzzle (Korf & Felner,
/// "Disjoint pattern database heuristics", AIJ 134, 2002): for a set of tiles, the exact
/// number of moves *of those tiles* needed to bring them home, the other tiles being
/// indistinguishable. Disjoint patterns count disjoint moves, so their values add up to an
/// admissible heuristic that dominates Manhattan distance.

#include <array>
#include <istream>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "waymark/puzzle/sliding_puzzle.hpp"

namespace waymark::puzzle {

/// Larger patterns need a table of cells!/(cells-k)! bytes: 8 tiles of 16 cells is 519 MB,
/// 9 would be 4 GB.
inline constexpr std::size_t max_pattern_tiles = 8;

namespace pdb_detail {
/// Calls f(std::integral_constant<std::size_t, k>{}) for a pattern of k tiles (1 <= k <=
/// max_pattern_tiles), so the loops over a pattern's tiles are unrolled for its size.
template <class F>
decltype(auto) with_pattern_size(std::size_t k, F&& f) {
  using std::integral_constant;
  switch (k) {
    case 1: return f(integral_constant<std::size_t, 1>{});
    case 2: return f(integral_constant<std::size_t, 2>{});
    case 3: return f(integral_constant<std::size_t, 3>{});
    case 4: return f(integral_constant<std::size_t, 4>{});
    case 5: return f(integral_constant<std::size_t, 5>{});
    case 6: return f(integral_constant<std::size_t, 6>{});
    case 7: return f(integral_constant<std::size_t, 7>{});
    default: return f(integral_constant<std::size_t, max_pattern_tiles>{});
  }
}

/// Rank of K distinct cells: digit i is cells[i] minus the earlier cells below it (its index
/// among the cells still free), weighted by the number of ways to place the later tiles.
/// Counting by comparisons keeps the K(K-1)/2 tests independent of each other.
template <std::size_t K>
[[nodiscard]] inline std::size_t rank(const std::uint8_t* cells, const std::size_t* weight) {
  std::size_t r = 0;
  for (std::size_t i = 0; i < K; ++i) {
    unsigned digit = cells[i];
    for (std::size_t j = 0; j < i; ++j) digit -= cells[j] < cells[i] ? 1u : 0u;
    r += digit * weight[i];
  }
  return r;
}
}  // namespace pdb_detail

/// Called during long builds with the fraction done, in [0, 1].
using ProgressFn = std::function<void(double fraction)>;

/// One pattern's table, indexed by the rank of the pattern tiles' cells: a perfect hash onto
/// 0 .. cells!/(cells-k)! - 1, one byte per placement (no unused entries).
/// Memory: 5.8 MB for 6 tiles of the 15-puzzle, 57.7 MB for 7, 519 MB for 8.
class PatternDatabase {
 public:
  PatternDatabase() = default;

  /// Backward breadth-first search from the goal over (placement, blank cell) states, where
  /// moving a pattern tile costs 1 and moving any other tile costs 0. The blank's free region
  /// is explored as a whole with bit masks, so each (placement, region) pair is handled once.
  /// @throws BuildError for an empty pattern, a tile outside 1..cells-1 or a repeated tile.
  static PatternDatabase build(const SlidingPuzzle& puzzle, std::span<const int> tiles,
                               const ProgressFn& progress = {});

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] std::span<const std::uint8_t> tiles() const { return tiles_; }
  [[nodiscard]] std::size_t size() const { return values_.size(); }
  [[nodiscard]] const std::uint8_t* data() const { return values_.data(); }

  /// The rank of a placement: `cells[i]` is the cell of tiles()[i] (distinct cells).
  [[nodiscard]] std::size_t rank(const std::uint8_t* cells) const {
    return pdb_detail::with_pattern_size(tiles_.size(), [&](auto k) {
      return pdb_detail::rank<decltype(k)::value>(cells, weight_.data());
    });
  }
  [[nodiscard]] int value(std::size_t rank) const { return values_[rank]; }
  /// The table's value for a whole board (slow path: finds the tiles first).
  [[nodiscard]] int lookup(const PuzzleState& s) const;

  /// The largest value in the table (the hardest placement). Placements no board can have
  /// (only when a pattern holds every tile: half of them have the wrong parity) are skipped.
  [[nodiscard]] int max_value() const;
  /// Whether the value is 0 at the placement with every tile home and nowhere else: what the
  /// solvers rely on to recognise the goal (checked when a database is loaded).
  [[nodiscard]] bool zero_only_at_goal() const;

  friend bool operator==(const PatternDatabase& a, const PatternDatabase& b) {
    return a.width_ == b.width_ && a.tiles_ == b.tiles_ && a.values_ == b.values_;
  }

 private:
  friend class AdditivePatternDatabase;
  [[nodiscard]] int cells_count() const { return width_ * width_; }

  void set_tiles(int width, std::vector<std::uint8_t> tiles);
  template <std::size_t K>
  void breadth_first(const SlidingPuzzle& puzzle, const ProgressFn& progress);

  int width_ = 0;
  std::vector<std::uint8_t> tiles_;
  std::array<std::size_t, max_pattern_tiles> weight_{};  ///< rank weight of each tile's digit
  std::vector<std::uint8_t> values_;
};

/// A disjoint partition of the tiles 1..cells-1 into patterns.
using PdbPartition = std::vector<std::vector<int>>;

/// The 6-6-3 partition of the 15-puzzle (`pdb-663`), the shape Korf & Felner used: the
/// left block {1,4,5,8,9,12}, the right block {2,3,6,7,10,11} and the bottom row
/// {13,14,15}. (The mirror-symmetric split — above, below and on the diagonal — needs only
/// one 6-tile table but expanded 26 times more nodes on Korf's instances 1-12.)
[[nodiscard]] PdbPartition partition_663();
/// The 7-8 partition of the 15-puzzle (`pdb-78`): tiles 1-7 (the top rows) and 8-15.
[[nodiscard]] PdbPartition partition_78();

/// A partition's tables, summed. The goal (blank on cell 0) is symmetric under reflection
/// in the main diagonal, which maps tile t to the tile whose goal cell is t's mirror image.
/// Two uses: a pattern that is the mirror image of another is looked up in the other's
/// table on the mirrored board (a symmetric partition builds half its tables), and the
/// whole sum can be taken on the mirrored board too, the heuristic being the larger of the
/// two sums (Culberson & Schaeffer's reflection; a no-op for symmetric partitions).
class AdditivePatternDatabase {
 public:
  /// How one pattern is looked up: `tiles[i]` is found on the board and its cell (mirrored
  /// when `mirrored`) is the i-th position ranked in `table`.
  struct Part {
    std::vector<std::uint8_t> tiles;
    bool mirrored = false;
    std::size_t table = 0;  ///< index into tables()
    friend bool operator==(const Part&, const Part&) = default;
  };

  AdditivePatternDatabase() = default;

  /// `reflection`: also sum the patterns on the mirrored board and take the larger sum
  /// (twice the lookups, fewer nodes). Ignored for a symmetric partition.
  /// @throws BuildError unless `partition` splits 1..cells-1 into disjoint, non-empty patterns.
  static AdditivePatternDatabase build(const SlidingPuzzle& puzzle, const PdbPartition& partition,
                                       const ProgressFn& progress = {}, bool reflection = true);

  /// Binary file: magic, version, width, the tables, the parts, a checksum.
  /// @throws SaveError when the file cannot be written.
  void save(const std::string& path) const;
  /// @throws LoadError (file, reason) for a missing, foreign, truncated or corrupt file.
  static AdditivePatternDatabase load(const std::string& path);
  /// The same from a stream; `name` is used in error messages.
  static AdditivePatternDatabase load(std::istream& in, const std::string& name);

  [[nodiscard]] int width() const { return width_; }
  /// Whether the parts are exactly the patterns of `partition` (in any order).
  [[nodiscard]] bool covers(const PdbPartition& partition) const;
  /// The patterns on the board itself.
  [[nodiscard]] std::span<const Part> parts() const { return parts_; }
  /// The patterns on the mirrored board: empty without reflection.
  [[nodiscard]] std::span<const Part> reflected_parts() const { return reflected_; }
  [[nodiscard]] std::span<const PatternDatabase> tables() const { return tables_; }
  /// The mirror image of a cell in the main diagonal.
  [[nodiscard]] int mirror(int cell) const { return cell % width_ * width_ + cell / width_; }

  /// Value of one part on a board given as tile -> cell.
  [[nodiscard]] int part_value(const Part& p, const std::uint8_t* cell_of_tile) const {
    return pdb_detail::with_pattern_size(p.tiles.size(), [&](auto k) {
      return part_value<decltype(k)::value>(p, cell_of_tile);
    });
  }

  /// The heuristic: the sum of all parts, or the larger of the two sums with reflection.
  /// Admissible, but not consistent: a table holds the least distance over every cell of the
  /// blank, and one move can bring the blank where that least distance is several lower
  /// (A* therefore keeps reopening closed nodes on).
  [[nodiscard]] int operator()(const PuzzleState& s) const;
  /// The same, as a Heuristic for the generic searches. The tables know only the puzzle's
  /// own goal: for any other goal this returns 0 (still admissible, no guidance).
  [[nodiscard]] Cost operator()(const PuzzleState& s, const PuzzleState& goal) const {
    return goal == goal_ ? (*this)(s) : 0;
  }

  friend bool operator==(const AdditivePatternDatabase& a, const AdditivePatternDatabase& b) {
    return a.width_ == b.width_ && a.parts_ == b.parts_ && a.reflected_ == b.reflected_ &&
           a.tables_ == b.tables_;
  }

 private:
  template <std::size_t K>
  [[nodiscard]] int part_value(const Part& p, const std::uint8_t* cell_of_tile) const {
    std::array<std::uint8_t, K> cells{};
    const std::uint8_t* tiles = p.tiles.data();
    if (p.mirrored) {
      for (std::size_t i = 0; i < K; ++i) cells[i] = mirror_[cell_of_tile[tiles[i]]];
    } else {
      for (std::size_t i = 0; i < K; ++i) cells[i] = cell_of_tile[tiles[i]];
    }
    const PatternDatabase& t = tables_[p.table];
    return t.values_[pdb_detail::rank<K>(cells.data(), t.weight_.data())];
  }
  void set_width(int width);

  int width_ = 0;
  PuzzleState goal_;
  std::array<std::uint8_t, max_puzzle_cells> mirror_{};
  std::vector<Part> parts_;
  std::vector<Part> reflected_;
  std::vector<PatternDatabase> tables_;
};

}  // namespace waymark::puzzle
