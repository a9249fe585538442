#include "waymark/puzzle/solver.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <memory>

#include "waymark/core/errors.hpp"
#include "waymark/core/stopwatch.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::puzzle {

namespace {

/// The board the in-place IDA* edits: tile per cell and cell per tile.
struct Board {
  std::array<std::uint8_t, max_puzzle_cells> tile{};
  std::array<std::uint8_t, max_puzzle_cells> cell{};
};

// ---- evaluators: the heuristic of a board and its change when one tile moves -------------
// Each has `Extra` (per-node state copied down the recursion), `needs_board` (whether
// update() reads the board after the move), initial() and update().

template <int W>
class ManhattanEval {
 public:
  static constexpr int cells = W * W;
  static constexpr bool needs_board = false;
  struct Extra {};

  ManhattanEval() {
    for (int t = 1; t < cells; ++t) {
      for (int from = 0; from < cells; ++from) {
        for (int to = 0; to < cells; ++to) {
          delta_[index(t, from, to)] = static_cast<std::int8_t>(distance(t, to) - distance(t, from));
        }
      }
    }
  }
  static int distance(int tile, int cell) {
    return std::abs(tile / W - cell / W) + std::abs(tile % W - cell % W);
  }
  int initial(const Board& b, Extra&) const {
    int h = 0;
    for (int c = 0; c < cells; ++c) {
      if (b.tile[static_cast<std::size_t>(c)] != 0) h += distance(b.tile[static_cast<std::size_t>(c)], c);
    }
    return h;
  }
  /// `tile` has moved from `from` to `to`.
  int update(int h, int tile, int from, int to, const Board&, Extra&) const {
    return h + delta_[index(tile, from, to)];
  }

 private:
  static std::size_t index(int tile, int from, int to) {
    return static_cast<std::size_t>((tile * cells + from) * cells + to);
  }
  std::array<std::int8_t, cells * cells * cells> delta_{};
};

/// Manhattan plus 2 × (tiles to remove per line). A horizontal move keeps the order of the
/// tiles in its row and changes two columns; a vertical move changes two rows.
template <int W>
class LinearConflictEval {
 public:
  static constexpr int cells = W * W;
  static constexpr bool needs_board = true;
  struct Extra {
    std::array<std::uint8_t, 2 * W> line{};  // rows 0..W-1, then columns
  };

  LinearConflictEval() {
    for (int line = 0; line < W; ++line) {
      for (int t = 1; t < cells; ++t) {
        row_digit_[index(line, t)] = static_cast<std::uint16_t>(t / W == line ? t % W + 1 : 0);
        column_digit_[index(line, t)] = static_cast<std::uint16_t>(t % W == line ? t / W + 1 : 0);
      }
    }
    for (int p = 1, i = 0; i < W; ++i, p *= W + 1) place_[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(p);
    for (std::size_t code = 0; code < conflicts_.size(); ++code) {
      std::array<int, W> slots{};
      std::size_t rest = code;
      for (int i = 0; i < W; ++i, rest /= W + 1) slots[static_cast<std::size_t>(i)] = static_cast<int>(rest % (W + 1)) - 1;
      conflicts_[code] = static_cast<std::uint8_t>(line_conflict_tiles(slots.data(), W));
    }
  }
  int initial(const Board& b, Extra& x) const {
    int lc = 0;
    for (int line = 0; line < W; ++line) {
      x.line[static_cast<std::size_t>(line)] = row_conflicts(b, line);
      x.line[static_cast<std::size_t>(W + line)] = column_conflicts(b, line);
      lc += x.line[static_cast<std::size_t>(line)] + x.line[static_cast<std::size_t>(W + line)];
    }
    typename ManhattanEval<W>::Extra none;
    return manhattan_.initial(b, none) + 2 * lc;
  }
  int update(int h, int tile, int from, int to, const Board& b, Extra& x) const {
    typename ManhattanEval<W>::Extra none;
    h = manhattan_.update(h, tile, from, to, b, none);
    const bool vertical = from / W != to / W;
    const int a = vertical ? from / W : W + from % W;
    const int c = vertical ? to / W : W + to % W;
    const std::uint8_t new_a = vertical ? row_conflicts(b, from / W) : column_conflicts(b, from % W);
    const std::uint8_t new_c = vertical ? row_conflicts(b, to / W) : column_conflicts(b, to % W);
    h += 2 * (new_a - x.line[static_cast<std::size_t>(a)] + new_c - x.line[static_cast<std::size_t>(c)]);
    x.line[static_cast<std::size_t>(a)] = new_a;
    x.line[static_cast<std::size_t>(c)] = new_c;
    return h;
  }

 private:
  static std::size_t index(int line, int tile) { return static_cast<std::size_t>(line * cells + tile); }
  std::uint8_t row_conflicts(const Board& b, int row) const {
    unsigned code = 0;
    for (int i = 0; i < W; ++i) code += row_digit_[index(row, b.tile[static_cast<std::size_t>(row * W + i)])] * place_[static_cast<std::size_t>(i)];
    return conflicts_[code];
  }
  std::uint8_t column_conflicts(const Board& b, int column) const {
    unsigned code = 0;
    for (int i = 0; i < W; ++i) code += column_digit_[index(column, b.tile[static_cast<std::size_t>(i * W + column)])] * place_[static_cast<std::size_t>(i)];
    return conflicts_[code];
  }
  static constexpr std::size_t code_count() {
    std::size_t n = 1;
    for (int i = 0; i < W; ++i) n *= W + 1;
    return n;
  }

  ManhattanEval<W> manhattan_;
  // digit = 1 + the tile's goal slot along the line when the tile belongs in it, else 0
  std::array<std::uint16_t, W * cells> row_digit_{};
  std::array<std::uint16_t, W * cells> column_digit_{};
  std::array<std::uint16_t, W> place_{};
  std::array<std::uint8_t, code_count()> conflicts_{};
};

/// Additive pattern database: a move changes only the moved tile's part, once in the direct
/// sum and once in the reflected one.
template <int W>
class PatternEval {
 public:
  static constexpr int cells = W * W;
  static constexpr bool needs_board = true;
  struct Extra {
    std::array<std::uint8_t, max_puzzle_cells> part{};  // direct parts, then reflected ones
    int direct = 0;
    int reflected = 0;
  };

  explicit PatternEval(const AdditivePatternDatabase& db) : db_(&db) {
    direct_count_ = db.parts().size();
    for (std::size_t p = 0; p < db.parts().size(); ++p) {
      parts_.push_back(&db.parts()[p]);
      for (const std::uint8_t t : db.parts()[p].tiles) direct_of_[t] = static_cast<std::uint8_t>(p);
    }
    for (std::size_t p = 0; p < db.reflected_parts().size(); ++p) {
      parts_.push_back(&db.reflected_parts()[p]);
      for (const std::uint8_t t : db.reflected_parts()[p].tiles) {
        reflected_of_[t] = static_cast<std::uint8_t>(direct_count_ + p);
      }
    }
  }
  int initial(const Board& b, Extra& x) const {
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      x.part[p] = static_cast<std::uint8_t>(db_->part_value(*parts_[p], b.cell.data()));
      (p < direct_count_ ? x.direct : x.reflected) += x.part[p];
    }
    return std::max(x.direct, x.reflected);
  }
  int update(int, int tile, int, int, const Board& b, Extra& x) const {
    x.direct += refresh(direct_of_[static_cast<std::size_t>(tile)], b, x);
    if (parts_.size() > direct_count_) x.reflected += refresh(reflected_of_[static_cast<std::size_t>(tile)], b, x);
    return std::max(x.direct, x.reflected);
  }

 private:
  /// Looks part p up again; returns the change.
  int refresh(std::uint8_t p, const Board& b, Extra& x) const {
    const int v = db_->part_value(*parts_[p], b.cell.data());
    const int change = v - x.part[p];
    x.part[p] = static_cast<std::uint8_t>(v);
    return change;
  }

  const AdditivePatternDatabase* db_;
  std::vector<const AdditivePatternDatabase::Part*> parts_;
  std::size_t direct_count_ = 0;
  std::array<std::uint8_t, max_puzzle_cells> direct_of_{};
  std::array<std::uint8_t, max_puzzle_cells> reflected_of_{};
};

// ---- IDA* on one board, in place --------------------------------------------------------

template <int W, class Eval>
class InPlaceIda {
 public:
  static constexpr int cells = W * W;
  using Extra = typename Eval::Extra;

  InPlaceIda(const SlidingPuzzle& puzzle, Eval eval) : puzzle_(&puzzle), eval_(std::move(eval)) {
    for (int c = 0; c < cells; ++c) {
      int n = 0;
      for (int m = 0; m < blank_move_count; ++m) {
        const int to = puzzle.target(c, static_cast<BlankMove>(m));
        if (to >= 0) neighbours_[static_cast<std::size_t>(c)][static_cast<std::size_t>(n++)] = static_cast<std::uint8_t>(to);
      }
      degree_[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(n);
    }
  }

  PuzzleSolution run(const PuzzleState& start, const PuzzleSolverOptions& options) {
    PuzzleSolution out;
    const Stopwatch watch;
    for (int c = 0; c < cells; ++c) {
      const auto t = static_cast<std::uint8_t>(start.tile_at(c));
      board_.tile[static_cast<std::size_t>(c)] = t;
      board_.cell[t] = static_cast<std::uint8_t>(c);
    }
    Extra x{};
    const int h = eval_.initial(board_, x);
    path_.clear();
    stats_ = SearchStats{};
    found_ = false;
    for (bound_ = h; !found_;) {
      if (options.on_iteration) options.on_iteration(bound_, stats_.expanded);
      ++stats_.iterations;
      next_bound_ = no_bound;
      search(0, h, start.blank, no_parent, x);
      if (!found_) bound_ = next_bound_;
    }
    out.status = Status{SearchState::success, StatusDetail::none};
    int blank = start.blank;
    for (const std::uint8_t to : path_) {
      out.moves.push_back(puzzle_->move_between(blank, to));
      blank = to;
    }
    stats_.max_open_size = path_.size() + 1;
    stats_.time_s = watch.seconds();
    out.stats = stats_;
    return out;
  }

 private:
  static constexpr int no_parent = -1;
  static constexpr int no_bound = 1 << 30;

  /// Depth-first below a node with f = g + h <= bound; sets found_ at the goal, leaving its
  /// moves in path_. A move back to `parent` is never tried.
  void search(int g, int h, int blank, int parent, const Extra& x) {
    ++stats_.expanded;
    if (h == 0) {  // every heuristic here is 0 exactly on the goal
      found_ = true;
      return;
    }
    const auto& next = neighbours_[static_cast<std::size_t>(blank)];
    const int degree = degree_[static_cast<std::size_t>(blank)];
    for (int i = 0; i < degree; ++i) {
      const int to = next[static_cast<std::size_t>(i)];
      if (to == parent) continue;
      ++stats_.generated;
      const int tile = board_.tile[static_cast<std::size_t>(to)];
      Extra y = x;
      if constexpr (Eval::needs_board) move(tile, to, blank);
      const int child_h = eval_.update(h, tile, to, blank, board_, y);
      const int f = g + 1 + child_h;
      if (f <= bound_) {
        if constexpr (!Eval::needs_board) move(tile, to, blank);
        path_.push_back(static_cast<std::uint8_t>(to));
        search(g + 1, child_h, to, blank, y);
        if (found_) return;
        path_.pop_back();
        if constexpr (!Eval::needs_board) move(tile, blank, to);
      } else if (f < next_bound_) {
        next_bound_ = f;
      }
      if constexpr (Eval::needs_board) move(tile, blank, to);
    }
  }

  /// Slides `tile` from `from` into the blank on `to`.
  void move(int tile, int from, int to) {
    board_.tile[static_cast<std::size_t>(to)] = static_cast<std::uint8_t>(tile);
    board_.tile[static_cast<std::size_t>(from)] = 0;
    board_.cell[static_cast<std::size_t>(tile)] = static_cast<std::uint8_t>(to);
  }

  const SlidingPuzzle* puzzle_;
  Eval eval_;
  std::array<std::array<std::uint8_t, blank_move_count>, cells> neighbours_{};
  std::array<std::uint8_t, cells> degree_{};
  Board board_;
  std::vector<std::uint8_t> path_;  // the blank's cells after each move
  SearchStats stats_;
  int bound_ = 0;
  int next_bound_ = no_bound;
  bool found_ = false;
};

/// The PDB as a generic Heuristic (the engine copies heuristics; this is a reference).
struct PdbRef {
  const AdditivePatternDatabase* db;
  Cost operator()(const PuzzleState& s, const PuzzleState& goal) const { return (*db)(s, goal); }
};

/// One A* query, its path turned into the blank's moves.
template <class H>
PuzzleSolution astar_query(const SlidingPuzzle& puzzle, search::AStar<SlidingPuzzle, H>& search, const PuzzleState& start) {
  PuzzleSolution out;
  out.status = solve(search, start, puzzle.goal());
  out.stats = search.stats();
  const auto& nodes = search.path().nodes;
  for (std::size_t i = 1; i < nodes.size() && out.status.succeeded(); ++i) {
    out.moves.push_back(puzzle.move_between(nodes[i - 1].blank, nodes[i].blank));
  }
  return out;
}

}  // namespace

/// The searches are chosen once, at construction, and kept: their tables (the heuristic's,
/// A*'s node table and heap) are built once and reused by every query.
struct PuzzleSolver::Impl {
  const SlidingPuzzle* puzzle;
  PuzzleSolverOptions options;
  std::function<PuzzleSolution(const PuzzleState&)> ida;
  std::function<PuzzleSolution(const PuzzleState&)> astar;
  std::function<int(const PuzzleState&)> estimate;

  /// The IDA* evaluator for boards of width W and the same heuristic for the generic engine.
  template <int W, class Eval, class H>
  void bind(Eval eval, H heuristic) {
    auto in_place = std::make_shared<InPlaceIda<W, Eval>>(*puzzle, std::move(eval));
    ida = [in_place, this](const PuzzleState& s) { return in_place->run(s, options); };
    auto best_first = std::make_shared<search::AStar<SlidingPuzzle, H>>(*puzzle, heuristic, search::AStarPriority{}, search::NullObserver{},
                                                                search::BestFirstOptions{.max_nodes = options.max_nodes});
    astar = [best_first, this](const PuzzleState& s) { return astar_query(*puzzle, *best_first, s); };
    estimate = [heuristic, this](const PuzzleState& s) { return static_cast<int>(heuristic(s, puzzle->goal())); };
  }
  template <int W>
  void bind(HeuristicKind heuristic, const AdditivePatternDatabase* pdb) {
    switch (heuristic) {
      case HeuristicKind::manhattan: return bind<W>(ManhattanEval<W>{}, ManhattanHeuristic(*puzzle));
      case HeuristicKind::linear_conflict: return bind<W>(LinearConflictEval<W>{}, LinearConflictHeuristic(*puzzle));
      case HeuristicKind::pdb_663:
      case HeuristicKind::pdb_78: break;
    }
    bind<W>(PatternEval<W>(*pdb), PdbRef{pdb});
  }
};

PuzzleSolver::PuzzleSolver(const SlidingPuzzle& puzzle, HeuristicKind heuristic,
                           const AdditivePatternDatabase* pdb, PuzzleSolverOptions options)
    : impl_(std::make_unique<Impl>(Impl{&puzzle, std::move(options), {}, {}, {}})) {
  if (uses_pattern_database(heuristic)) {
    if (pdb == nullptr) throw BuildError(std::string(to_string(heuristic)) + " needs a pattern database");
    if (pdb->width() != puzzle.width()) {
      throw BuildError("the pattern database is for " + std::to_string(pdb->width()) + "x" +
                       std::to_string(pdb->width()) + " boards, not " + std::to_string(puzzle.width()) + "x" +
                       std::to_string(puzzle.width()));
    }
  }
  switch (puzzle.width()) {
    case 2: impl_->bind<2>(heuristic, pdb); break;
    case 3: impl_->bind<3>(heuristic, pdb); break;
    default: impl_->bind<4>(heuristic, pdb); break;
  }
}

PuzzleSolver::~PuzzleSolver() = default;

int PuzzleSolver::estimate(const PuzzleState& s) const { return impl_->estimate(s); }

namespace {
PuzzleSolution unsolvable() { return PuzzleSolution{Status{SearchState::failure, StatusDetail::none}, {}, {}}; }
}  // namespace

PuzzleSolution PuzzleSolver::ida(const PuzzleState& start) {
  return impl_->puzzle->is_solvable(start) ? impl_->ida(start) : unsolvable();
}

PuzzleSolution PuzzleSolver::astar(const PuzzleState& start) {
  return impl_->puzzle->is_solvable(start) ? impl_->astar(start) : unsolvable();
}

}  // namespace waymark::puzzle
