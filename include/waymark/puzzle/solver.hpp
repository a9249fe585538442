#pragma once
/// @file Optimal sliding-tile solvers: IDA* that moves tiles on one board in place and updates
/// the heuristic per move (Korf 1985), and A* through the generic best-first engine. Both are
/// steppable search handles (make_search) as well as one-shot calls (ida, astar).

#include <cstdint>
#include <optional>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "waymark/core/enum_names.hpp"
#include "waymark/core/stats.hpp"
#include "waymark/core/status.hpp"
#include "waymark/puzzle/heuristics.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/search_core.hpp"
#include "waymark/search/planner.hpp"

namespace waymark::puzzle {

enum class Algorithm : std::uint8_t { ida, astar };
inline constexpr EnumNames<Algorithm, 2> algorithm_names{{
    {Algorithm::ida, "ida"},
    {Algorithm::astar, "astar"},
}};
[[nodiscard]] constexpr std::string_view to_string(Algorithm a) { return name_of(algorithm_names, a); }
[[nodiscard]] constexpr std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return value_of(algorithm_names, name);
}

/// An optimal solution: the blank's moves from the start to the goal.
struct PuzzleSolution {
  Status status;
  std::vector<BlankMove> moves;
  /// expanded: nodes within the bound (IDA*) or taken from the open list (A*), summed over
  /// all iterations; generated: children looked at; iterations: IDA* bounds tried.
  SearchStats stats;
};

struct PuzzleSolverOptions {
  /// The search make_search() (and a request queue) hands out when not told another one.
  Algorithm algorithm = Algorithm::ida;
  /// The limits make_search() and plan() use when not told (the same search::QueryLimits as
  /// every world's). max_nodes, A*: the most states held at once (0 = no limit); beyond it the
  /// query fails with out_of_nodes. A state costs about 60 bytes (node record, hash slot, heap
  /// entry). It is also the limit of A* handles whose QueryOptions::max_nodes is 0.
  /// partial_result: A* only. weight, table and max_table_bytes do not apply.
  search::QueryLimits query{};
  /// The one-shot calls (ida, astar, solve) stop a query when it has spent this: expansions
  /// and wall time over the whole query (search::run_within); such a query fails flagged
  /// out_of_nodes or time_limit. Default: unlimited (every solvable board ends; IDA* may take
  /// long on hard boards with a weak heuristic).
  search::Budget limit{};
  /// IDA*: called before each iteration with its f bound and the nodes expanded so far (the
  /// first iteration's from begin(), the others' from step()). Copied into every handle.
  std::function<void(int bound, std::uint64_t expanded)> on_iteration;
};

/// The planner of one puzzle with one heuristic: hands out search handles with scratch of their
/// own (make_search), answers one-shot queries (plan, solve), and is the search source a
/// request queue takes. Holds no query state: any number of threads may share one solver, as
/// they share the puzzle and the pattern database (read-only).
class PuzzleSolver final : public search::PlannerBase<PuzzleSolver, PuzzleState, Algorithm> {
 public:
  using PlannerBase::make_search;
  using PlannerBase::plan;

  /// `pdb` must be given (and outlive the solver) for the PDB heuristics, for the same width.
  /// The solver uses the database it is given, whatever its partition: pdb_663 and pdb_78
  /// name the partitions the CLI builds (see AdditivePatternDatabase::covers).
  /// @throws BuildError when it is missing or is for another board size.
  PuzzleSolver(const SlidingPuzzle& puzzle, HeuristicKind heuristic,
               const AdditivePatternDatabase* pdb = nullptr, PuzzleSolverOptions options = {});
  PuzzleSolver(const SlidingPuzzle&&, HeuristicKind, const AdditivePatternDatabase* = nullptr,
               PuzzleSolverOptions = {}) = delete;  // would dangle
  ~PuzzleSolver() override;

  /// The heuristic value of a board (the same numbers both solvers use).
  [[nodiscard]] int estimate(const PuzzleState& s) const;

  /// A steppable search (begin / step(budget) / cancel / path / stats) of its own; the puzzle
  /// and the pattern database must outlive it. path() holds every board from the start to the
  /// goal, cost = the number of moves (plus the source's initial cost).
  /// - IDA*: exactly one source and the goal Goal::at(puzzle.goal()), else the query fails at
  ///   once with invalid_query. begin() sets up the first iteration (its root counts as
  ///   expanded); step() goes on across iterations. Memory: one frame per move of the bound,
  ///   kept between queries: after warm-up a query allocates nothing.
  /// - A*: the generic engine with a hashed node table, any goal; QueryOptions::max_nodes
  ///   (0: PuzzleSolverOptions::max_nodes) and partial_result apply. The weight is not used.
  /// Both: a state that is not a board of the puzzle fails with invalid_query and
  /// out_of_bounds; a start that cannot reach a one-board goal (unsolvable) fails at once,
  /// unreachable. With
  /// QueryOptions::events the search reports begin, open, expand, close (IDA*: a frame
  /// popped), goal, end and slice-end events; without it, nothing is made.
  /// make_search() and make_search(query): options.algorithm, and options.query (below).
  [[nodiscard]] search::SearchHandle<PuzzleState> make_search(
      Algorithm algorithm, const search::QueryOptions<PuzzleState>& query) const;
  /// What make_search() and plan() use when not told: options.algorithm and options.query.
  [[nodiscard]] Algorithm default_algorithm() const;
  [[nodiscard]] search::QueryOptions<PuzzleState> default_query() const;

  /// One query from `start` to `goal`, to its end, on a search made for it (within
  /// options.limit): status, path (every board; cost the number of moves) and stats.
  /// plan(start, goal[, algorithm]) uses the defaults above; plan(start[, algorithm]) goes to
  /// the puzzle's goal. Allocates; for repeated queries keep a handle from make_search().
  [[nodiscard]] search::SearchResult<PuzzleState> plan(const PuzzleState& start, const PuzzleState& goal,
                                                       Algorithm algorithm,
                                                       const search::QueryOptions<PuzzleState>& query) const;
  [[nodiscard]] search::SearchResult<PuzzleState> plan(const PuzzleState& start) const;
  [[nodiscard]] search::SearchResult<PuzzleState> plan(const PuzzleState& start, Algorithm algorithm) const;

  // Boards never change: stale() is false, sync() does nothing, world_version() is 0.
  /// The boards of the puzzle's parity (cells! / 2; saturated at the largest std::size_t).
  [[nodiscard]] std::size_t node_count() const override;
  /// Both searches keep scratch only for what they reach (IDA*'s frames, A*'s hashed table).
  [[nodiscard]] bool has_sparse_table(const search::QueryOptions<PuzzleState>&) const override { return true; }

  /// IDA*: memory linear in the solution length. Never fails on a solvable board; an
  /// unsolvable one (see SlidingPuzzle::check) would never finish, so it fails at once.
  /// One-shot: a search made for the query (make_search(Algorithm::ida, {})), its path as moves.
  [[nodiscard]] PuzzleSolution ida(const PuzzleState& start) const { return solve(Algorithm::ida, start); }
  /// A* over the generic engine with a hashed node table: fine for the 8-puzzle (181,440
  /// states), memory-bound on the 15-puzzle (set max_nodes). One-shot, as ida().
  [[nodiscard]] PuzzleSolution astar(const PuzzleState& start) const { return solve(Algorithm::astar, start); }
  [[nodiscard]] PuzzleSolution solve(Algorithm algorithm, const PuzzleState& start) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

static_assert(search::Planner<PuzzleSolver>);

}  // namespace waymark::puzzle
