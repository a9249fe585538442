#pragma once
/// @file Jump point search (Harabor & Grastien 2011) for uniform-cost 8-connected grids
/// without corner cutting (a diagonal needs both cardinal cells it passes to be free — the
/// Moving AI rule). Successors are jump points: the search skips the symmetric runs of cells in
/// between, so the engine expands far fewer nodes with identical path costs.
///
/// Use it as a space of the best-first engine: `AStar<JumpPointSpace, OctileHeuristic>`. Paths
/// come back as jump points; expand_jump_path() fills in the cells between them.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "waymark/core/cost.hpp"
#include "waymark/core/divider.hpp"
#include "waymark/core/path.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_space.hpp"
#include "waymark/grid/moves.hpp"
#include "waymark/grid/padded_grid.hpp"

namespace waymark::grid {

/// The eight move directions as ints 0..7, clockwise from north (N, NE, E, SE, S, SW, W, NW);
/// even = cardinal, odd = diagonal.
inline constexpr int direction_count = 8;
inline constexpr std::array<int, direction_count> direction_dx{0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, direction_count> direction_dy{-1, -1, 0, 1, 1, 1, 0, -1};

/// Bit set of directions (bit i = direction i).
using DirectionSet = std::uint8_t;
inline constexpr DirectionSet all_directions = 0xFF;

[[nodiscard]] constexpr bool is_diagonal(int dir) { return (dir & 1) != 0; }
/// Direction of a unit move (dx, dy ∈ {-1, 0, 1}); -1 for (0, 0).
[[nodiscard]] constexpr int direction_of(int dx, int dy) {
  constexpr std::array<int, 9> by_offset{7, 0, 1, 6, -1, 2, 5, 4, 3};  // index (dy+1)·3 + (dx+1)
  return by_offset[static_cast<std::size_t>((dy + 1) * 3 + (dx + 1))];
}

/// The direction `eighths` eighth-turns clockwise from `dir` (negative: anticlockwise).
[[nodiscard]] constexpr int turn(int dir, int eighths) {
  return (dir + eighths + direction_count) % direction_count;
}

/// A straight or diagonal run between two cells: its direction and its number of moves.
struct Run {
  int direction;
  int steps;
};
/// The run from `a` to `b`, which must lie on one row, column or diagonal (direction -1 when
/// a == b).
[[nodiscard]] constexpr Run run_between(CellCoord a, CellCoord b) {
  const int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
  const int ax = b.x > a.x ? b.x - a.x : a.x - b.x, ay = b.y > a.y ? b.y - a.y : a.y - b.y;
  return {direction_of(dx, dy), ax > ay ? ax : ay};
}

/// Tuning of jump point search.
struct JumpParams {
  /// Cells the straight side scans of one diagonal jump may pass over before the jump stops at
  /// the cell reached and reports it as a jump point (each diagonal step scans at least two). That keeps paths optimal (the search
  /// goes on from that cell) and bounds the work of one expansion — the side scans of one long
  /// diagonal over an open map are what could otherwise take milliseconds — so a search budget
  /// in scanned cells or time holds on huge open maps. Checked after each diagonal step, so a
  /// jump may pass this by two rows; a straight jump always runs to its end (one row at most).
  /// 4,096 (65,536 before issue 30): one expansion then scans at most
  /// jump_expansion_scan_bound() cells — 32,784 on a 1024² map instead of 278,544 — and the
  /// search times on open Moving AI maps stay the same (docs/request_queue.md).
  /// [Limit: >= 1]
  std::uint32_t max_jump_cells = 1u << 12;
};

/// The most cells one expansion of jump point search scans (SearchStats::scanned) on a
/// width × height map: a start's expansion jumps in all 8 directions, a later one in at most 2
/// diagonal and 3 straight ones; a straight jump scans at most one row or column (D = the
/// longer side + 1 cells), a diagonal one stops once its side scans passed max_jump_cells but
/// its last step scans two more rows, and moves at most D cells: 4·(L + 3D) + 4·D. A search
/// budget in scanned cells (Budget::scanned) is checked between expansions, so a step of jps
/// ends at most this far past it. JPS+ (JumpPointPlusSpace) reads one table entry per
/// direction instead: at most 8 per expansion.
[[nodiscard]] constexpr std::uint64_t jump_expansion_scan_bound(const JumpParams& params, int width, int height) {
  const std::uint64_t d = static_cast<std::uint64_t>(width > height ? width : height) + 1;
  return 4 * (params.max_jump_cells + 3 * d) + 4 * d;
}

/// Why a grid/rule combination cannot use jump point search, or nullopt when it can.
[[nodiscard]] std::optional<std::string> jump_search_unsupported(const GridMap& map, DiagonalRule rule);

/// Jump-point rules over a PaddedGrid: which directions to search from a node, which moves
/// are allowed and where neighbours are forced. Shared by online JPS (BlockJumps) and by the
/// JPS+ table builder.
class JumpRules {
 public:
  explicit JumpRules(const PaddedGrid& grid);

  [[nodiscard]] const PaddedGrid& grid() const { return *grid_; }
  [[nodiscard]] std::int32_t offset(int dir) const { return offsets_[static_cast<std::size_t>(dir)]; }

  /// Directions worth searching from padded cell `p` reached moving in `arrival` (-1: start):
  /// the natural ones, plus the forced ones around obstacles.
  [[nodiscard]] DirectionSet successors(std::uint32_t p, int arrival) const;

  /// Whether a single move from `p` in `dir` is allowed (target free; diagonals also need
  /// both cardinal cells they pass).
  [[nodiscard]] bool can_move(std::uint32_t p, int dir) const;

  /// Whether `p`, entered moving in cardinal `dir`, has a forced neighbour.
  [[nodiscard]] bool has_forced_neighbour(std::uint32_t p, int dir) const;

  /// Result of a jump: the padded index reached (0: none — index 0 is border) and the number
  /// of single moves it took. (8 bytes on purpose: a 12-byte result is assembled on the stack
  /// and read back whole, a store-forwarding stall that cost JPS 4%.)
  struct Jump {
    std::uint32_t to = 0;
    std::int32_t steps = 0;
  };

 private:
  /// Whether, entering `p` moving `dir`, the neighbour on `side` is forced.
  [[nodiscard]] bool side_forced(std::uint32_t p, int dir, int side) const;

  const PaddedGrid* grid_;
  std::array<std::int32_t, direction_count> offsets_{};
};

/// Jumps of online JPS, scanning 64 cells per step (the block-based jumps of Harabor &
/// Grastien, "Improving jump point search", ICAPS 2014): the grid is kept as bit rows in four
/// orientations, so a jump in any cardinal direction reads a row left to right, and the
/// first blocked cell or forced neighbour among 64 is one count-trailing-zeros away.
/// Memory: 4 bits per padded cell.
class BlockJumps {
 public:
  explicit BlockJumps(const JumpRules& rules);
  /// A copy of `other`'s bit rows for `rules` (a copy of other's rules).
  BlockJumps(const BlockJumps& other, const JumpRules& rules) : BlockJumps(other) { rules_ = &rules; }

  [[nodiscard]] const JumpRules& rules() const { return *rules_; }

  /// Follows `dir` from `p` to the next jump point, or the goal (padded; 0: none), or
  /// nothing (to = 0); adds the cells it looked at to `scanned`. A diagonal jump whose side
  /// scans have passed over `limit` cells stops at the cell reached (a jump point by decree).
  [[nodiscard]] JumpRules::Jump jump(std::uint32_t p, int dir, std::uint32_t goal, std::uint32_t limit,
                                     std::uint64_t& scanned) const;

  /// Copies the passability of the map's cells in `area` into the bit rows again.
  void copy_cells(const GridMap& map, CellRect area);

 private:
  /// A position in one orientation's bit rows: column x of row y.
  struct Oriented {
    std::int32_t x;
    std::int32_t y;
  };
  /// Bit x of row y: the oriented cell (x, y) is open; each row ends with a spare zero word so
  /// a 64-bit window can start anywhere in the row.
  struct BitRows {
    std::int32_t words_per_row = 0;
    std::vector<std::uint64_t> words;
    [[nodiscard]] std::uint64_t window(std::int32_t x, std::int32_t y) const;
  };

  [[nodiscard]] Oriented orient(int cardinal, std::int32_t px, std::int32_t py) const;
  /// A cardinal jump from padded (px, py): the moves to the jump point, or minus the cells
  /// passed over when a wall comes first. Either way its absolute value is the cells looked at.
  [[nodiscard]] std::int32_t scan(int cardinal, std::int32_t px, std::int32_t py, std::int32_t goal_x,
                                  std::int32_t goal_y) const;
  void set_open(std::int32_t px, std::int32_t py, bool open);

  const JumpRules* rules_;
  std::int32_t padded_width_;
  std::int32_t padded_height_;
  Divider row_of_padded_;
  std::array<BitRows, 4> rows_;  ///< by cardinal direction / 2: N, E, S, W
};

/// Cost of `steps` moves in one direction on a uniform grid.
[[nodiscard]] inline Cost run_cost(int dir, std::int32_t steps, double cell_size) {
  return static_cast<Cost>(steps) * cell_size * (is_diagonal(dir) ? diagonal_step : cardinal_step);
}

/// Online JPS as a search space (models ParentAwareSearchSpace, ScanningSearchSpace and
/// DenseSearchSpace over the map's CellIds). Keeps its own padded bit copy of the map (4 bits
/// per cell plus a byte per padded cell) and a reference to the map, which must outlive it.
/// Stale after a map edit until sync(); unsupported while the map has costs (JPS needs uniform
/// ones): searches refuse those queries at once.
class JumpPointSpace : public GridCells {
 public:
  explicit JumpPointSpace(const GridMap& map, JumpParams params = {})
      : GridCells(map), params_(params), grid_(map), rules_(grid_), jumps_(rules_), synced_version_(map.version()) {}
  explicit JumpPointSpace(const GridMap&&, JumpParams = {}) = delete;  // would dangle
  JumpPointSpace(const JumpPointSpace& other)
      : GridCells(other), params_(other.params_), grid_(other.grid_), rules_(grid_), jumps_(other.jumps_, rules_),
        synced_version_(other.synced_version_) {}
  JumpPointSpace& operator=(const JumpPointSpace&) = delete;

  [[nodiscard]] const JumpParams& params() const { return params_; }

  /// Jump points reachable from `n`, pruned by the direction from `parent`; adds the cells the
  /// jumps passed over to `scanned`.
  template <class F>
  void for_each_successor(CellId n, const CellId* parent, CellId goal, F&& f, std::uint64_t& scanned) const {
    const std::uint32_t p = grid_.index(n);
    const DirectionSet dirs =
        rules_.successors(p, parent ? run_between(map_->coord(*parent), map_->coord(n)).direction : -1);
    const std::uint32_t goal_p = goal.valid() ? grid_.index(goal) : 0;  // 0: border, never reached
    for (int d = 0; d < direction_count; ++d) {
      if ((dirs & (1u << d)) == 0) continue;
      const JumpRules::Jump j = jumps_.jump(p, d, goal_p, params_.max_jump_cells, scanned);
      if (j.to != 0) f(grid_.cell(j.to), run_cost(d, j.steps, map_->cell_size()));
    }
  }
  template <class F>
  void for_each_successor(CellId n, const CellId* parent, CellId goal, F&& f) const {
    std::uint64_t scanned = 0;
    for_each_successor(n, parent, goal, std::forward<F>(f), scanned);
  }
  /// Without a parent or goal: every jump point from `n` (as from a start node).
  template <class F>
  void for_each_successor(CellId n, F&& f) const {
    for_each_successor(n, nullptr, CellId::invalid(), std::forward<F>(f));
  }

  /// The map was edited since the last sync().
  [[nodiscard]] bool stale() const { return map_->edited_since(synced_version_); }
  /// The map has cost multipliers, which jumps cannot weigh: searches refuse (invalid_query |
  /// unsupported) until every multiplier is back at 1.
  [[nodiscard]] bool unsupported() const { return map_->has_costs(); }
  /// Copies the cells of every passability edit since the last sync into the padded grid and
  /// bit rows. Returns the cells copied. Not thread-safe: no search may run meanwhile.
  std::size_t sync();

 private:
  JumpParams params_;
  PaddedGrid grid_;
  JumpRules rules_;   ///< refers to grid_
  BlockJumps jumps_;  ///< refers to rules_
  std::uint64_t synced_version_;
};

/// Every cell along a path of jump points (consecutive points lie on one straight or diagonal
/// line). `cells` is cleared first; it keeps its capacity, so reuse does not allocate.
void expand_jump_path(const GridMap& map, const std::vector<CellId>& jump_points, std::vector<CellId>& cells);

}  // namespace waymark::grid
