#include "waymark/puzzle/solver.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

#include "waymark/core/errors.hpp"
#include "waymark/core/text.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/budget.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/search_core.hpp"

namespace waymark::puzzle {

namespace {

using search::Goal;
using search::Source;

/// The board the in-place IDA* edits: tile per cell and cell per tile.
struct Board {
  std::array<std::uint8_t, max_puzzle_cells> tile{};
  std::array<std::uint8_t, max_puzzle_cells> cell{};
};

// ---- evaluators: the heuristic of a board and its change when one tile moves -------------
// Each has `Extra` (per-node state copied from a frame to its child), `needs_board` (whether
// update() reads the board after the move), initial() and update(), which is forced inline:
// it is the search's inner loop, and the compiler declines it in the large stepping loop.

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
  [[gnu::always_inline]] int update(int h, int tile, int from, int to, const Board&, Extra&) const {
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
  [[gnu::always_inline]] int update(int h, int tile, int from, int to, const Board& b, Extra& x) const {
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
  [[gnu::always_inline]] int update(int, int tile, int, int, const Board& b, Extra& x) const {
    x.direct += refresh(direct_of_[static_cast<std::size_t>(tile)], b, x);
    if (parts_.size() > direct_count_) x.reflected += refresh(reflected_of_[static_cast<std::size_t>(tile)], b, x);
    return std::max(x.direct, x.reflected);
  }

 private:
  /// Looks part p up again; returns the change.
  [[gnu::always_inline]] int refresh(std::uint8_t p, const Board& b, Extra& x) const {
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

// ---- which boards a search can take -------------------------------------------------------

/// A state as a puzzle sees it: one of its boards (as make_state() builds them: a permutation,
/// the blank's cell cached, nothing past the last cell) that can or cannot reach the goal, or
/// not one of its boards at all.
enum class BoardClass : std::uint8_t { solvable, unsolvable, malformed };

BoardClass classify(const SlidingPuzzle& puzzle, const PuzzleState& s) {
  const int cells = puzzle.cells();
  if (s.blank >= cells || s.tile_at(s.blank) != 0) return BoardClass::malformed;
  if (cells < max_puzzle_cells && (s.tiles >> (4 * cells)) != 0) return BoardClass::malformed;
  switch (puzzle.check(s)) {
    case PuzzleCheck::ok: return BoardClass::solvable;
    case PuzzleCheck::unsolvable: return BoardClass::unsolvable;
    default: return BoardClass::malformed;
  }
}

/// Why a query must not start: a state that is not a board of the puzzle (invalid_query and
/// out_of_bounds: no node of the world), or, for a one-board goal, no source that can reach it
/// (unreachable: the boards fall into two halves that no move joins, so a search would never
/// end). nullopt: it may start.
std::optional<Status> refusal(const SlidingPuzzle& puzzle, std::span<const Source<PuzzleState>> sources,
                              const Goal<PuzzleState>& goal) {
  const Status invalid = Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds);
  const bool one_board = goal.kind() == Goal<PuzzleState>::Kind::node;
  const BoardClass target = one_board ? classify(puzzle, goal.node()) : BoardClass::solvable;
  if (target == BoardClass::malformed) return invalid;
  bool reachable = sources.empty();  // no sources: the engine's own invalid_query
  for (const Source<PuzzleState>& s : sources) {
    const BoardClass c = classify(puzzle, s.node);
    if (c == BoardClass::malformed) return invalid;
    reachable = reachable || !one_board || c == target;
  }
  if (!reachable) return Status::failure(StatusDetail::unreachable);
  return std::nullopt;
}

// ---- IDA* on one board, in place, steppable -------------------------------------------------

/// PuzzleSolverOptions::on_iteration.
using IterationCallback = std::function<void(int bound, std::uint64_t expanded)>;

/// Korf's IDA* on one board edited in place, with an explicit stack of one frame per depth, so
/// it can stop after any expansion and resume (begin / step(budget)). A frame's next child is
/// evaluated in the slot above it; a child within the bound becomes the top by moving the top
/// pointer. The move back to a frame's parent cell is never generated (the child lists leave
/// it out). Reports to `Obs`; for NullObserver no board is even packed for it.
template <int W, class Eval, class Obs>
class InPlaceIda : public search::SearchCore<PuzzleState, Obs> {
  using Core = search::SearchCore<PuzzleState, Obs>;

 public:
  using Node = PuzzleState;
  static constexpr int cells = W * W;
  using Extra = typename Eval::Extra;

  InPlaceIda(const SlidingPuzzle& puzzle, Eval eval, Obs observer, IterationCallback on_iteration)
      : Core(std::move(observer)), puzzle_(&puzzle), eval_(std::move(eval)), on_iteration_(std::move(on_iteration)) {
    children_.fill(end_of_children);
    for (int c = 0; c < cells; ++c) {
      for (int parent = 0; parent <= no_parent; ++parent) {
        std::size_t at = first_child(c, parent);
        for (int m = 0; m < blank_move_count; ++m) {
          const int to = puzzle.target(c, static_cast<BlankMove>(m));
          if (to >= 0 && to != parent) children_[at++] = static_cast<std::uint8_t>(to);
        }
      }
    }
  }

  // Frames point into children_.
  InPlaceIda(const InPlaceIda&) = delete;
  InPlaceIda& operator=(const InPlaceIda&) = delete;

  /// One source and the puzzle's goal, or the query fails with invalid_query (the incremental
  /// heuristics know no other goal); an unsolvable board fails at once. Sets up the first
  /// iteration, whose root counts as expanded.
  void begin(std::span<const Source<PuzzleState>> sources, const Goal<PuzzleState>& goal) {
    const typename Core::Timer timer(this->stats_);
    this->start_query(goal);
    if (sources.size() != 1 || goal.kind() != Goal<PuzzleState>::Kind::node || goal.node() != puzzle_->goal()) {
      this->finish_failure(StatusDetail::invalid_query);
      return;
    }
    if (const std::optional<Status> refused = refusal(*puzzle_, sources, goal)) {
      this->finish(*refused);
      return;
    }
    start_ = sources.front().node;
    origin_cost_ = sources.front().cost;
    for (int c = 0; c < cells; ++c) {
      const auto t = static_cast<std::uint8_t>(start_.tile_at(c));
      board_.tile[static_cast<std::size_t>(c)] = t;
      board_.cell[t] = static_cast<std::uint8_t>(c);
    }
    root_x_ = Extra{};
    root_h_ = eval_.initial(board_, root_x_);
    start_iteration(root_h_);
  }

  /// Searches until the goal, cancel(), or the end of the budget (expansions; scanned =
  /// generated; time), checked after each expansion.
  Status step(const search::Budget& budget) {
    if (!this->status_.running()) return this->status_;
    const typename Core::Timer timer(this->stats_);
    if (this->cancelled_) {
      this->finish_failure(StatusDetail::cancelled);
    } else {
      const search::BudgetMeter meter(budget, this->stats_.expanded, this->stats_.generated);
      if (budget.is_unlimited()) run<Metering::none>(meter);
      else if (meter.expansions_only()) run<Metering::expansions>(meter);
      else run<Metering::full>(meter);
    }
    this->stats_.scanned = this->stats_.generated;
    return this->end_step();
  }

 private:
  static constexpr bool observed = !std::is_same_v<Obs, search::NullObserver>;
  /// How run() checks the budget after an expansion: not at all, against the expansion total
  /// only, or through the whole meter (scanned, time).
  enum class Metering : std::uint8_t { none, expansions, full };
  /// The parent "cell" of the root: one past the last cell.
  static constexpr int no_parent = cells;
  /// The excess over the bound while no child has exceeded it.
  static constexpr int no_excess = std::numeric_limits<int>::max();

  /// One depth of the search: the node reached there (its blank's cell; the board itself is
  /// board_ when the frame is on top) and how far its children have been tried. Every move
  /// costs 1, so a frame's g is its depth.
  struct Frame {
    const std::uint8_t* next;  ///< the next child to try, in children_
    int h;
    std::uint8_t blank;
    std::uint8_t parent;  ///< the blank's cell one depth up (no_parent at the root)
    [[no_unique_address]] Extra x;
  };
  /// children_ holds, for each (blank, parent) pair, the blank's cells after its moves in move
  /// order without the move back, then end_of_children.
  static constexpr std::uint8_t end_of_children = std::numeric_limits<std::uint8_t>::max();
  static constexpr std::size_t children_stride = blank_move_count + 1;
  static constexpr std::size_t first_child(int blank, int parent) {
    return static_cast<std::size_t>(blank * (no_parent + 1) + parent) * children_stride;
  }

  /// Starts the depth-first search under `bound` at the start board (where the pops of the
  /// previous iteration left it) and enters its root.
  void start_iteration(int bound) {
    bound_ = bound;
    excess_ = no_excess;
    if (on_iteration_) on_iteration_(bound_, this->stats_.expanded);
    ++this->stats_.iterations;
    // Depths 0..bound (every move costs 1 and h >= 0), plus the slot a child is evaluated in.
    const auto depths = static_cast<std::size_t>(bound) + 2;
    if (frames_.size() < depths) frames_.resize(depths);
    frames_[0] = Frame{&children_[first_child(start_.blank, no_parent)], root_h_, start_.blank,
                       static_cast<std::uint8_t>(no_parent), root_x_};
    top_ = 0;
    std::uint64_t expanded = this->stats_.expanded;
    const bool goal = enter(frames_.data(), root_h_, expanded);
    this->stats_.expanded = expanded;
    if (goal) found(frames_.data());
  }

  /// The depth-first search from the top frame, across iterations, until the goal, a failure
  /// or (metered) the end of `meter`'s budget. The counters and the top frame's h, blank,
  /// child cursor and slack (bound - g) live in locals, as a recursion would keep them in
  /// registers, and are saved on the way out; the board is written as bytes, which may alias
  /// any member. A child is within the bound when 1 + h <= slack; the least excess over it
  /// gives the next bound. The meter is taken by value: a local the board's byte writes cannot
  /// alias, so its limits stay in registers; an expansion-only budget (the CLI's default node
  /// limit) costs one compare an expansion.
  template <Metering M>
  void run(const search::BudgetMeter meter) {
    const std::uint64_t stop_at = meter.expansion_stop();
    std::uint64_t expanded = this->stats_.expanded;
    std::uint64_t generated = this->stats_.generated;
    Frame* f = frames_.data() + top_;
    const std::uint8_t* next = f->next;
    int h = f->h;
    int blank = f->blank;
    int slack = bound_ - static_cast<int>(depth(f));
    int excess = excess_;
    for (;;) {
      const int to = *next++;
      if (to == end_of_children) {
        if constexpr (observed) this->observer_.on_close(state(blank));
        if (f->parent != no_parent) {  // not the root
          // Undo the frame's move: its tile sits on the blank's previous cell.
          const int from = blank;
          --f;
          blank = f->blank;
          move(board_.tile[static_cast<std::size_t>(blank)], blank, from);
          next = f->next;
          h = f->h;
          ++slack;
          continue;
        }
        save(f, next, expanded, generated, excess);
        if (excess == no_excess) {  // nothing beyond the bound: every board was searched
          this->finish_failure(StatusDetail::unreachable);
          return;
        }
        start_iteration(bound_ + excess);
        if (!this->status_.running()) return;
        expanded = this->stats_.expanded;
        f = frames_.data();
        next = f->next;
        h = f->h;
        blank = f->blank;
        slack = bound_;
        excess = no_excess;
      } else {
        ++generated;
        const int tile = board_.tile[static_cast<std::size_t>(to)];
        Frame* const child = f + 1;
        child->x = f->x;
        if constexpr (Eval::needs_board) move(tile, to, blank);
        const int child_h = eval_.update(h, tile, to, blank, board_, child->x);
        if (child_h >= slack) {  // f = g + 1 + child_h > bound
          excess = std::min(excess, child_h + 1 - slack);
          if constexpr (Eval::needs_board) move(tile, blank, to);
          continue;
        }
        if constexpr (!Eval::needs_board) move(tile, to, blank);
        f->next = next;
        f = child;
        next = &children_[first_child(to, blank)];
        f->h = h = child_h;
        f->blank = static_cast<std::uint8_t>(to);
        f->parent = static_cast<std::uint8_t>(blank);
        blank = to;
        --slack;
        if (enter(f, h, expanded)) {
          save(f, next, expanded, generated, excess);
          found(f);
          return;
        }
      }
      if constexpr (M != Metering::none) {
        if (M == Metering::expansions ? expanded >= stop_at : meter.exhausted(expanded, generated)) {
          save(f, next, expanded, generated, excess);
          return;
        }
      }
    }
  }

  /// Keeps what run() held in locals for the next run() or start_iteration().
  void save(Frame* top, const std::uint8_t* next, std::uint64_t expanded, std::uint64_t generated, int excess) {
    top->next = next;
    this->stats_.expanded = expanded;
    this->stats_.generated = generated;
    excess_ = excess;
    top_ = depth(top);
  }

  /// Counts the top frame `f` (its h given) as expanded and reports it; true when it is the
  /// goal (every heuristic here is 0 exactly there).
  [[gnu::always_inline]] bool enter(const Frame* f, int h, std::uint64_t& expanded) {
    ++expanded;
    if constexpr (observed) {
      const PuzzleState node = state(f->blank);
      const Cost g = origin_cost_ + static_cast<Cost>(depth(f));
      if (f == frames_.data()) {
        this->observer_.on_open(node, static_cast<const PuzzleState*>(nullptr), g, h, false);
      } else {
        const PuzzleState parent = SlidingPuzzle::swap_blank(node, f->parent);
        this->observer_.on_open(node, &parent, g, h, false);
      }
      this->observer_.on_expand(node, g, h);
    }
    return h == 0;
  }

  [[nodiscard]] std::size_t depth(const Frame* f) const { return static_cast<std::size_t>(f - frames_.data()); }

  /// The top frame `f` holds the goal: the path is the start and each frame's move.
  void found(const Frame* f) {
    const std::size_t moves = depth(f);
    this->path_.clear();
    PuzzleState s = start_;
    this->path_.nodes.push_back(s);
    for (std::size_t d = 1; d <= moves; ++d) {
      s = SlidingPuzzle::swap_blank(s, frames_[d].blank);
      this->path_.nodes.push_back(s);
    }
    this->path_.cost = origin_cost_ + static_cast<Cost>(moves);
    this->observer_.on_goal(s, this->path_.cost);
    this->note_frontier_size(moves + 1);
    this->finish_success();
  }

  /// board_ packed as a state (for observers only).
  [[nodiscard]] PuzzleState state(int blank) const {
    PuzzleState s;
    for (int c = 0; c < cells; ++c) s.tiles |= std::uint64_t{board_.tile[static_cast<std::size_t>(c)]} << (4 * c);
    s.blank = static_cast<std::uint8_t>(blank);
    return s;
  }

  /// Slides `tile` from `from` into the blank on `to`.
  void move(int tile, int from, int to) {
    board_.tile[static_cast<std::size_t>(to)] = static_cast<std::uint8_t>(tile);
    board_.tile[static_cast<std::size_t>(from)] = 0;
    board_.cell[static_cast<std::size_t>(tile)] = static_cast<std::uint8_t>(to);
  }

  const SlidingPuzzle* puzzle_;
  Eval eval_;
  IterationCallback on_iteration_;
  std::array<std::uint8_t, first_child(cells, 0)> children_{};
  Board board_;
  std::vector<Frame> frames_;  ///< one per depth up to the bound; grows with the largest bound
  std::size_t top_ = 0;
  PuzzleState start_;
  Cost origin_cost_ = 0;  ///< the source's initial cost, added to the path's and events' g
  Extra root_x_{};
  int root_h_ = 0;
  int bound_ = 0;
  int excess_ = no_excess;  ///< the least f - bound_ over the children beyond the bound so far
};

// ---- A* through the engine ------------------------------------------------------------------

/// The PDB as a generic Heuristic (the engine copies heuristics; this is a reference).
struct PdbRef {
  const AdditivePatternDatabase* db;
  Cost operator()(const PuzzleState& s, const PuzzleState& goal) const { return (*db)(s, goal); }
};

/// A* on the generic engine, which any goal suits. What it would search without end (or
/// misread) is refused first, as refusal() says.
template <class H, class Obs>
class AStarModel final : public search::EngineModel<search::AStar<SlidingPuzzle, H, Obs>> {
  using Base = search::EngineModel<search::AStar<SlidingPuzzle, H, Obs>>;

 public:
  AStarModel(const SlidingPuzzle& puzzle, H heuristic, Obs observer, search::BestFirstOptions options)
      : Base(puzzle, std::move(heuristic), search::AStarPriority{}, observer, options),
        puzzle_(&puzzle),
        observer_(std::move(observer)) {}

  void begin(std::span<const Source<PuzzleState>> sources, const Goal<PuzzleState>& goal) override {
    refused_ = refusal(*puzzle_, sources, goal);
    if (!refused_) {
      Base::begin(sources, goal);
      return;
    }
    observer_.on_begin(goal);
    observer_.on_end(*refused_);
  }
  Status step(const search::Budget& budget) override { return refused_ ? *refused_ : Base::step(budget); }
  void cancel() override {
    if (!refused_) Base::cancel();
  }
  [[nodiscard]] Status status() const override { return refused_ ? *refused_ : Base::status(); }
  [[nodiscard]] const Path<PuzzleState>& path() const override { return refused_ ? no_path_ : Base::path(); }
  [[nodiscard]] const SearchStats& stats() const override { return refused_ ? no_stats_ : Base::stats(); }

 private:
  const SlidingPuzzle* puzzle_;
  Obs observer_;  ///< reports refused queries (the engine reports the others)
  std::optional<Status> refused_;
  Path<PuzzleState> no_path_;
  SearchStats no_stats_;
};

/// A handle's search for boards of width W.
template <int W, class Eval, class H, class Obs>
std::unique_ptr<search::SearchModel<PuzzleState>> model_for(const SlidingPuzzle& puzzle,
                                                            const PuzzleSolverOptions& options, Algorithm algorithm,
                                                            const search::QueryOptions<PuzzleState>& query,
                                                            const Eval& eval, const H& heuristic, Obs observer) {
  if (algorithm == Algorithm::ida) {
    return std::make_unique<search::EngineModel<InPlaceIda<W, Eval, Obs>>>(puzzle, eval, std::move(observer),
                                                                          options.on_iteration);
  }
  const search::BestFirstOptions best_first{.max_nodes = query.max_nodes != 0 ? query.max_nodes : options.query.max_nodes,
                                            .partial_result = query.partial_result};
  return std::make_unique<AStarModel<H, Obs>>(puzzle, heuristic, std::move(observer), best_first);
}

}  // namespace

/// The solver keeps a recipe for searches (the evaluators and heuristics, their tables built
/// once) and the two handles behind ida() and astar(), reused by every query.
struct PuzzleSolver::Impl {
  using ModelMaker = std::function<std::unique_ptr<search::SearchModel<PuzzleState>>(
      Algorithm, const search::QueryOptions<PuzzleState>&)>;

  const SlidingPuzzle* puzzle;
  PuzzleSolverOptions options;
  ModelMaker make_model;
  std::function<int(const PuzzleState&)> estimate;

  /// The IDA* evaluator for boards of width W and the same heuristic for the generic engine.
  template <int W, class Eval, class H>
  void bind(Eval eval, H heuristic) {
    make_model = [this, eval = std::move(eval), heuristic](Algorithm a, const search::QueryOptions<PuzzleState>& q)
        -> std::unique_ptr<search::SearchModel<PuzzleState>> {
      // Without a sink the searches get the no-op observer, which compiles away.
      if (q.events == nullptr) return model_for<W>(*puzzle, options, a, q, eval, heuristic, search::NullObserver{});
      return model_for<W>(*puzzle, options, a, q, eval, heuristic, search::EventObserver<PuzzleState>(q.events));
    };
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

  /// One query through `handle`, its path turned into the blank's moves.
  PuzzleSolution solve(search::SearchHandle<PuzzleState>& handle, const PuzzleState& start) const {
    PuzzleSolution out{search::run_within(handle, start, puzzle->goal(), options.limit), {}, handle.stats()};
    const std::vector<PuzzleState>& nodes = handle.path().nodes;
    for (std::size_t i = 1; i < nodes.size() && out.status.succeeded(); ++i) {
      out.moves.push_back(puzzle->move_between(nodes[i - 1].blank, nodes[i].blank));
    }
    return out;
  }
};

PuzzleSolver::PuzzleSolver(const SlidingPuzzle& puzzle, HeuristicKind heuristic,
                           const AdditivePatternDatabase* pdb, PuzzleSolverOptions options)
    : impl_(std::make_unique<Impl>(Impl{&puzzle, std::move(options), {}, {}})) {
  if (uses_pattern_database(heuristic)) {
    if (pdb == nullptr) throw BuildError(std::string(to_string(heuristic)) + " needs a pattern database");
    if (pdb->width() != puzzle.width()) {
      throw BuildError("the pattern database is for " + number_text(pdb->width()) + "x" +
                       number_text(pdb->width()) + " boards, not " + number_text(puzzle.width()) + "x" +
                       number_text(puzzle.width()));
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

search::SearchHandle<PuzzleState> PuzzleSolver::make_search(Algorithm algorithm,
                                                            const search::QueryOptions<PuzzleState>& query) const {
  return search::SearchHandle<PuzzleState>(impl_->make_model(algorithm, query));
}

Algorithm PuzzleSolver::default_algorithm() const { return impl_->options.algorithm; }

search::QueryOptions<PuzzleState> PuzzleSolver::default_query() const {
  return impl_->options.query.with_events<PuzzleState>(nullptr);
}

PuzzleSolution PuzzleSolver::solve(Algorithm algorithm, const PuzzleState& start) const {
  search::SearchHandle<PuzzleState> handle = make_search(algorithm, default_query());
  return impl_->solve(handle, start);
}

search::SearchResult<PuzzleState> PuzzleSolver::plan(const PuzzleState& start) const {
  return plan(start, impl_->puzzle->goal());
}

search::SearchResult<PuzzleState> PuzzleSolver::plan(const PuzzleState& start, Algorithm algorithm) const {
  return plan(start, impl_->puzzle->goal(), algorithm);
}

search::SearchResult<PuzzleState> PuzzleSolver::plan(const PuzzleState& start, const PuzzleState& goal,
                                                     Algorithm algorithm,
                                                     const search::QueryOptions<PuzzleState>& query) const {
  search::SearchHandle<PuzzleState> handle = make_search(algorithm, query);
  search::SearchResult<PuzzleState> result;
  result.status = search::run_within(handle, start, goal, impl_->options.limit);
  result.path = handle.path();
  result.stats = handle.stats();
  return result;
}

std::size_t PuzzleSolver::node_count() const {
  // cells! / 2 boards of one parity, saturated.
  std::size_t n = 1;
  const std::size_t cells = static_cast<std::size_t>(impl_->puzzle->cells());
  for (std::size_t k = 3; k <= cells; ++k) {
    if (n > std::numeric_limits<std::size_t>::max() / k) return std::numeric_limits<std::size_t>::max();
    n *= k;
  }
  return n;
}

}  // namespace waymark::puzzle
