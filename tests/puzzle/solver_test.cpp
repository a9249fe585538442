// Optimal sliding-tile solving: PuzzleSolver (in-place IDA* and A*) and the generic engines
// against breadth-first distances of the whole 8-puzzle; Manhattan and linear conflict
// admissible and consistent; Korf's 15-puzzle instances; the solver's search handles (stepped
// IDA* equal to the one-shot solve, cancel, events, refused queries, A* limits). The pattern
// database tests are in pattern_database_test.cpp; the helpers both use are in
// support/puzzle_support.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/puzzle_support.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/puzzle_instances.hpp"
#include "waymark/puzzle/heuristics.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/ida_star.hpp"

namespace waymark::puzzle_solver_test {
using namespace search;
using namespace puzzle;
using namespace io;


namespace {
using namespace puzzle_test;

// Chosen for speed: IDA* with the heuristic solves each instance of its list in at most
// 0.05 s in Release (lengths 42..57).
constexpr std::array<int, 3> korf_manhattan{12, 19, 42};
constexpr std::array<int, 8> korf_linear_conflict{9, 12, 19, 30, 31, 42, 47, 48};

constexpr std::array<HeuristicKind, 2> simple_heuristics{HeuristicKind::manhattan,
                                                           HeuristicKind::linear_conflict};
constexpr std::array<Algorithm, 2> algorithms{Algorithm::ida, Algorithm::astar};

TEST(PuzzleSolver, HeuristicAndAlgorithmNames) {
  EXPECT_EQ(to_string(HeuristicKind::manhattan), "manhattan");
  EXPECT_EQ(to_string(HeuristicKind::linear_conflict), "linear-conflict");
  EXPECT_EQ(to_string(HeuristicKind::pdb_663), "pdb-663");
  EXPECT_EQ(to_string(HeuristicKind::pdb_78), "pdb-78");
  for (const auto& [h, name] : heuristic_names) EXPECT_EQ(parse_heuristic(name), h);
  EXPECT_FALSE(parse_heuristic("pdb").has_value());
  EXPECT_TRUE(uses_pattern_database(HeuristicKind::pdb_78));
  EXPECT_FALSE(uses_pattern_database(HeuristicKind::linear_conflict));
  EXPECT_EQ(name_of(algorithm_names, Algorithm::astar), "astar");
  EXPECT_EQ(value_of(algorithm_names, "ida"), Algorithm::ida);
}

TEST(PuzzleSolver, EightPuzzleHasDiameter31) {
  const EightPuzzle& e = eight();
  ASSERT_EQ(e.states.size(), static_cast<std::size_t>(eight_puzzle_states));
  EXPECT_EQ(e.distance_of(e.states.back()), eight_puzzle_diameter);
  // The number of states per depth (OEIS A089473) for the first few depths.
  std::array<int, 8> per_depth{};
  for (const PuzzleState& s : e.states) {
    const int d = e.distance_of(s);
    if (d < static_cast<int>(per_depth.size())) ++per_depth[static_cast<std::size_t>(d)];
  }
  EXPECT_EQ(per_depth, (std::array<int, 8>{1, 2, 4, 8, 16, 20, 39, 62}));
}

TEST(PuzzleSolver, EveryEightPuzzleWithinTwelveMovesSolvedOptimally) {
  const EightPuzzle& e = eight();
  const SlidingPuzzle& p = e.puzzle;
  std::size_t checked = 0;
  for (const HeuristicKind h : simple_heuristics) {
    PuzzleSolver solver(p, h);
    checked = 0;
    for (const PuzzleState& s : e.states) {
      const int d = e.distance_of(s);
      if (d > 12) break;  // breadth-first order
      ++checked;
      for (const Algorithm a : algorithms) {
        const PuzzleSolution sol = solver.solve(a, s);
        ASSERT_TRUE(solved_optimally(p, s, sol, d))
            << to_string(h) << " " << name_of(algorithm_names, a) << " on " << board_string(p, s);
      }
    }
  }
  EXPECT_EQ(checked, 1850u);  // 1 + 2 + 4 + 8 + 16 + 20 + 39 + 62 + 116 + 152 + 286 + 396 + 748
}

TEST(PuzzleSolver, RandomEightPuzzlesMatchBreadthFirstDistance) {
  const EightPuzzle& e = eight();
  const SlidingPuzzle& p = e.puzzle;
  std::vector<PuzzleState> boards = random_eight_puzzles(300, 8);
  // Plus the hardest boards (the two at distance 31).
  for (const PuzzleState& s : e.states) {
    if (e.distance_of(s) == eight_puzzle_diameter) boards.push_back(s);
  }
  ASSERT_EQ(boards.size(), 302u);
  PuzzleSolver manhattan(p, HeuristicKind::manhattan);
  PuzzleSolver conflict(p, HeuristicKind::linear_conflict);
  int longest = 0;
  for (const PuzzleState& s : boards) {
    const int d = e.distance_of(s);
    longest = std::max(longest, d);
    for (PuzzleSolver* solver : {&manhattan, &conflict}) {
      const PuzzleSolution ida = solver->ida(s);
      ASSERT_TRUE(solved_optimally(p, s, ida, d)) << "IDA* on " << board_string(p, s);
      EXPECT_EQ(ida.stats.iterations, 1 + static_cast<std::uint64_t>(d - solver->estimate(s)) / 2)
          << "bounds rise by 2 (both heuristics keep the parity of the distance)";
      const PuzzleSolution astar = solver->astar(s);
      ASSERT_TRUE(solved_optimally(p, s, astar, d)) << "A* on " << board_string(p, s);
    }
  }
  EXPECT_EQ(longest, eight_puzzle_diameter);
}

TEST(PuzzleSolver, GenericEnginesOnTheEightPuzzle) {
  const EightPuzzle& e = eight();
  const SlidingPuzzle& p = e.puzzle;
  const PuzzleState goal = p.goal();
  AStar<SlidingPuzzle, ManhattanHeuristic> astar(p, ManhattanHeuristic(p));
  IdaStar<SlidingPuzzle, LinearConflictHeuristic> ida(p, LinearConflictHeuristic(p), {},
                                                      IdaStarOptions{.transposition_table = false});
  for (const PuzzleState& s : random_eight_puzzles(60, 60)) {
    const int d = e.distance_of(s);
    ASSERT_TRUE(solve(astar, s, goal).succeeded());
    EXPECT_EQ(astar.path().cost, d) << board_string(p, s);
    EXPECT_EQ(astar.path().steps(), static_cast<std::size_t>(d));
    EXPECT_EQ(astar.path().nodes.front(), s);
    EXPECT_EQ(astar.path().nodes.back(), goal);
    EXPECT_TRUE(is_move_sequence(p, astar.path().nodes));

    ASSERT_TRUE(solve(ida, s, goal).succeeded());
    EXPECT_EQ(ida.path().cost, d) << board_string(p, s);
    EXPECT_EQ(ida.path().steps(), static_cast<std::size_t>(d));
    EXPECT_EQ(ida.path().nodes.front(), s);
    EXPECT_EQ(ida.path().nodes.back(), goal);
    EXPECT_TRUE(is_move_sequence(p, ida.path().nodes));
  }
  // Any goal, not only the puzzle's: the heuristics take the goal board as an argument.
  const std::vector<PuzzleState> pair = random_eight_puzzles(2, 99);
  ASSERT_TRUE(solve(astar, pair[0], pair[1]).succeeded());
  ASSERT_TRUE(solve(ida, pair[0], pair[1]).succeeded());
  EXPECT_EQ(ida.path().cost, astar.path().cost);
  EXPECT_EQ(astar.path().nodes.back(), pair[1]);
}

TEST(PuzzleSolver, TwoByTwoPuzzleSolvedOptimally) {
  const SlidingPuzzle p(2);
  // Breadth-first distances of the 12 reachable boards.
  std::unordered_map<std::uint64_t, int> dist{{p.goal().tiles, 0}};
  std::vector<PuzzleState> queue{p.goal()};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const PuzzleState s = queue[head];
    p.for_each_successor(s, [&](const PuzzleState& n, Cost) {
      if (dist.emplace(n.tiles, dist[s.tiles] + 1).second) queue.push_back(n);
    });
  }
  ASSERT_EQ(queue.size(), 12u);
  for (const HeuristicKind h : simple_heuristics) {
    PuzzleSolver solver(p, h);
    for (const PuzzleState& s : queue) {
      for (const Algorithm a : algorithms) {
        EXPECT_TRUE(solved_optimally(p, s, solver.solve(a, s), dist[s.tiles])) << board_string(p, s);
      }
    }
  }
}

// ---- heuristics -----------------------------------------------------------------------------

TEST(PuzzleHeuristics, LineConflictTiles) {
  const auto conflicts = [](std::vector<int> slots) {
    return line_conflict_tiles(slots.data(), static_cast<int>(slots.size()));
  };
  EXPECT_EQ(conflicts({0, 1, 2, 3}), 0);
  EXPECT_EQ(conflicts({-1, -1, -1, -1}), 0);
  EXPECT_EQ(conflicts({1, 0, -1, -1}), 1);
  EXPECT_EQ(conflicts({3, 2, 1, 0}), 3);
  EXPECT_EQ(conflicts({2, 0, 1, -1}), 1);  // 0 and 1 stay, 2 leaves
  EXPECT_EQ(conflicts({1, -1, 0}), 1);
  EXPECT_EQ(conflicts({3, 0, 1, 2}), 1);
  EXPECT_EQ(conflicts({1, 3, 0, 2}), 2);  // longest increasing run 1,3 or 1,2 or 0,2
}

TEST(PuzzleHeuristics, ManhattanAndLinearConflictOnKnownBoards) {
  const SlidingPuzzle p(3);
  const PuzzleState goal = p.goal();
  const ManhattanHeuristic m(p);
  const LinearConflictHeuristic lc(p);
  // Tiles 1 and 2 swapped in the top row (blank at cell 0): a conflict in row 0.
  const PuzzleState swapped = p.make_state(std::vector<int>{0, 2, 1, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(m(swapped, goal), 2);
  EXPECT_EQ(lc(swapped, goal), 4);
  // A reversed bottom row: 8 7 6 has 2 tiles to remove.
  const PuzzleState reversed = p.make_state(std::vector<int>{0, 1, 2, 3, 4, 5, 8, 7, 6});
  EXPECT_EQ(m(reversed, goal), 4);
  EXPECT_EQ(lc(reversed, goal), 8);
  // The goal as seen from another goal: the heuristics are symmetric in their arguments here.
  EXPECT_EQ(m(goal, swapped), 2);
  EXPECT_EQ(lc(goal, swapped), 4);
}

TEST(PuzzleHeuristics, AdmissibleDominatingAndConsistentOnTheWholeEightPuzzle) {
  const EightPuzzle& e = eight();
  const SlidingPuzzle& p = e.puzzle;
  const PuzzleState goal = p.goal();
  const ManhattanHeuristic manhattan(p);
  const LinearConflictHeuristic conflict(p);
  const PuzzleSolver m_solver(p, HeuristicKind::manhattan);
  const PuzzleSolver lc_solver(p, HeuristicKind::linear_conflict);
  int failures = 0, zero_m = 0, zero_lc = 0;
  const auto fail = [&](const PuzzleState& s, const std::string& what) {
    if (++failures <= 10) ADD_FAILURE() << what << " on " << board_string(p, s);
  };
  for (const PuzzleState& s : e.states) {
    const int d = e.distance_of(s);
    const auto m = static_cast<int>(manhattan(s, goal));
    const auto lc = static_cast<int>(conflict(s, goal));
    if (m > d) fail(s, "manhattan " + std::to_string(m) + " > distance " + std::to_string(d));
    if (lc > d) fail(s, "linear conflict " + std::to_string(lc) + " > distance " + std::to_string(d));
    if (lc < m) fail(s, "linear conflict below manhattan");
    if ((m - d) % 2 != 0 || (lc - d) % 2 != 0) fail(s, "parity differs from the distance's");
    zero_m += m == 0 ? 1 : 0;
    zero_lc += lc == 0 ? 1 : 0;
    if ((m == 0) != (d == 0) || (lc == 0) != (d == 0)) fail(s, "zero off the goal or nonzero on it");
    if (m_solver.estimate(s) != m || lc_solver.estimate(s) != lc) fail(s, "PuzzleSolver::estimate differs");
    p.for_each_successor(s, [&](const PuzzleState& n, Cost) {
      if (std::abs(static_cast<int>(manhattan(n, goal)) - m) > 1) fail(s, "manhattan inconsistent");
      if (std::abs(static_cast<int>(conflict(n, goal)) - lc) > 1) fail(s, "linear conflict inconsistent");
    });
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(zero_m, 1);
  EXPECT_EQ(zero_lc, 1);
}

// ---- failures and edge cases ------------------------------------------------------------------

TEST(PuzzleSolver, UnsolvableBoardsFailAtOnce) {
  const SlidingPuzzle p4(4);
  // Korf's instance 1 with tiles 14 and 13 swapped.
  const PuzzleState unsolvable = p4.make_state(std::vector<int>{13, 14, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3});
  ASSERT_EQ(p4.check(p4.tiles(unsolvable)), PuzzleCheck::unsolvable);
  // A cheap database (five 3-tile patterns) stands in for pdb-663.
  const AdditivePatternDatabase small =
      AdditivePatternDatabase::build(p4, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}});
  for (const HeuristicKind h :
       {HeuristicKind::manhattan, HeuristicKind::linear_conflict, HeuristicKind::pdb_663}) {
    PuzzleSolver solver(p4, h, &small);
    for (const Algorithm a : algorithms) {
      const PuzzleSolution sol = solver.solve(a, unsolvable);
      EXPECT_TRUE(sol.status.failed()) << to_string(h);
      EXPECT_TRUE(sol.moves.empty());
      EXPECT_EQ(sol.stats.expanded, 0u);
    }
  }
  const SlidingPuzzle p3(3);
  PuzzleSolver solver3(p3, HeuristicKind::linear_conflict);
  const PuzzleState unsolvable3 = p3.make_state(std::vector<int>{0, 2, 1, 3, 4, 5, 6, 7, 8});
  EXPECT_TRUE(solver3.ida(unsolvable3).status.failed());
  EXPECT_TRUE(solver3.astar(unsolvable3).status.failed());
}

TEST(PuzzleSolver, GoalNeedsNoMoves) {
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    for (const HeuristicKind h : simple_heuristics) {
      PuzzleSolver solver(p, h);
      EXPECT_EQ(solver.estimate(p.goal()), 0);
      for (const Algorithm a : algorithms) {
        const PuzzleSolution sol = solver.solve(a, p.goal());
        EXPECT_TRUE(sol.status.succeeded()) << w;
        EXPECT_TRUE(sol.moves.empty()) << w;
      }
    }
  }
}

TEST(PuzzleSolver, PatternHeuristicsNeedADatabaseOfTheSameWidth) {
  const SlidingPuzzle p3(3), p4(4);
  EXPECT_THROW(PuzzleSolver(p4, HeuristicKind::pdb_663), BuildError);
  EXPECT_THROW(PuzzleSolver(p4, HeuristicKind::pdb_78), BuildError);
  const AdditivePatternDatabase db3 = AdditivePatternDatabase::build(p3, {{1, 2, 3, 4}, {5, 6, 7, 8}});
  EXPECT_THROW(PuzzleSolver(p4, HeuristicKind::pdb_663, &db3), BuildError);
  EXPECT_NO_THROW(PuzzleSolver(p3, HeuristicKind::pdb_663, &db3));
  EXPECT_NO_THROW(PuzzleSolver(p4, HeuristicKind::manhattan, &db3)) << "ignored when not needed";
}

TEST(PuzzleSolver, AStarNodeLimitFailsWithOutOfNodes) {
  const SlidingPuzzle p(4);
  PuzzleSolver solver(p, HeuristicKind::manhattan, nullptr, PuzzleSolverOptions{.query = {.max_nodes = 1000}});
  const PuzzleState korf1 = p.make_state(std::vector<int>{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3});
  const PuzzleSolution sol = solver.astar(korf1);
  EXPECT_TRUE(sol.status.failed());
  EXPECT_TRUE(sol.status.has(StatusDetail::out_of_nodes));
  EXPECT_TRUE(sol.moves.empty());
}

// ---- the 15-puzzle: Korf's instances ----------------------------------------------------------

TEST(PuzzleSolver, KorfInstancesWithManhattan) { (void)solve_korf(HeuristicKind::manhattan, korf_manhattan); }

TEST(PuzzleSolver, KorfInstancesWithLinearConflict) {
  (void)solve_korf(HeuristicKind::linear_conflict, korf_linear_conflict);
}

TEST(PuzzleSolver, IdaReportsEachIterationBound) {
  const SlidingPuzzle& p = fifteen();
  std::vector<int> bounds;
  std::vector<std::uint64_t> expanded;
  PuzzleSolverOptions options;
  options.on_iteration = [&](int bound, std::uint64_t n) {
    bounds.push_back(bound);
    expanded.push_back(n);
  };
  PuzzleSolver solver(p, HeuristicKind::manhattan, nullptr, options);
  const PuzzleInstance& inst = korf(42);
  const PuzzleSolution sol = solver.ida(inst.state);
  ASSERT_TRUE(solved_optimally(p, inst.state, sol, 42));
  ASSERT_FALSE(bounds.empty());
  EXPECT_EQ(bounds.front(), solver.estimate(inst.state));
  EXPECT_EQ(bounds.back(), 42);
  for (std::size_t i = 1; i < bounds.size(); ++i) {
    EXPECT_EQ(bounds[i], bounds[i - 1] + 2);
    EXPECT_GE(expanded[i], expanded[i - 1]);
  }
  EXPECT_EQ(expanded.front(), 0u);
  EXPECT_EQ(sol.stats.iterations, bounds.size());
}

TEST(PuzzleSolver, AStarOnEasyFifteenPuzzles) {
  const SlidingPuzzle& p = fifteen();
  PuzzleSolver conflict(p, HeuristicKind::linear_conflict, nullptr,
                        PuzzleSolverOptions{.query = {.max_nodes = 4'000'000}});
  for (const int index : {9, 12}) {
    const PuzzleInstance& inst = korf(index);
    EXPECT_TRUE(solved_optimally(p, inst.state, conflict.astar(inst.state), inst.optimal_length.value_or(-1)))
        << "Korf #" << index;
  }
}

// ---- search handles ---------------------------------------------------------------------------

/// The blank's moves along a path of boards.
std::vector<BlankMove> moves_along(const SlidingPuzzle& p, const Path<PuzzleState>& path) {
  std::vector<BlankMove> moves;
  for (std::size_t i = 1; i < path.nodes.size(); ++i) {
    moves.push_back(p.move_between(path.nodes[i - 1].blank, path.nodes[i].blank));
  }
  return moves;
}


/// An iteration as PuzzleSolverOptions::on_iteration reports it: bound, expanded so far.
using IterationLog = std::vector<std::pair<int, std::uint64_t>>;

/// Budgets a stepped IDA* must give the one-shot result under.
const std::vector<std::pair<std::string, Budget>>& stepping_budgets() {
  static const std::vector<std::pair<std::string, Budget>> budgets{
      {"1 expansion", Budget::of_expansions(1)},
      {"13 expansions", Budget::of_expansions(13)},
      {"40 scanned", Budget::of_scanned(40)},
      {"20 us", Budget::of_time(std::chrono::microseconds(20))},
  };
  return budgets;
}

/// Steps an IDA* handle from `start` under `budget` and checks it against the one-shot solve of
/// the same solver: moves, expanded, generated, iterations and the bounds reported.
void expect_stepped_equals_one_shot(const SlidingPuzzle& p, HeuristicKind h, const PuzzleState& start,
                                    const std::string& budget_name, const Budget& budget,
                                    const AdditivePatternDatabase* db = nullptr) {
  SCOPED_TRACE(std::string(to_string(h)) + ", " + budget_name + ", board " + board_string(p, start));
  IterationLog log;
  PuzzleSolverOptions options;
  options.on_iteration = [&log](int bound, std::uint64_t expanded) { log.emplace_back(bound, expanded); };
  PuzzleSolver solver(p, h, db, options);
  const PuzzleSolution one_shot = solver.ida(start);
  ASSERT_TRUE(one_shot.status.succeeded());
  const IterationLog one_shot_log = std::exchange(log, {});

  SearchHandle<PuzzleState> handle = solver.make_search(Algorithm::ida, {});
  Status status = handle.begin(start, p.goal());
  std::uint64_t slices = 0;
  while (status.running()) {
    const SearchStats before = handle.stats();
    status = handle.step(budget);
    if (!status.running()) break;
    ++slices;
    // A step ends right after the expansion that used its budget up.
    if (budget.expansions != Budget::unlimited) {
      ASSERT_EQ(handle.stats().expanded - before.expanded, budget.expansions);
    }
    if (budget.scanned != Budget::unlimited) {
      ASSERT_GE(handle.stats().generated - before.generated, budget.scanned);
    }
    EXPECT_TRUE(handle.path().empty());
  }
  ASSERT_TRUE(status.succeeded()) << describe(status);
  EXPECT_EQ(moves_along(p, handle.path()), one_shot.moves);
  EXPECT_EQ(handle.stats().expanded, one_shot.stats.expanded);
  EXPECT_EQ(handle.stats().generated, one_shot.stats.generated);
  EXPECT_EQ(handle.stats().scanned, one_shot.stats.generated);
  EXPECT_EQ(handle.stats().iterations, one_shot.stats.iterations);
  EXPECT_EQ(handle.stats().max_open_size, one_shot.stats.max_open_size);
  EXPECT_EQ(log, one_shot_log) << "on_iteration differs";
  EXPECT_EQ(handle.path().cost, static_cast<Cost>(one_shot.moves.size()));
  EXPECT_EQ(handle.path().nodes.front(), start);
  EXPECT_EQ(handle.path().nodes.back(), p.goal());
  EXPECT_TRUE(is_move_sequence(p, handle.path().nodes));
  if (budget.expansions == 1 && one_shot.stats.expanded > 1) {
    EXPECT_EQ(slices + 2, one_shot.stats.expanded) << "begin enters the root, the last step finds the goal";
  }
}

TEST(PuzzleSearchHandle, SteppedIdaEqualsOneShotSolveOnEightPuzzles) {
  const SlidingPuzzle& p = eight().puzzle;
  std::vector<PuzzleState> boards = random_eight_puzzles(5, 31);
  for (const PuzzleState& s : eight().states) {
    if (eight().distance_of(s) == eight_puzzle_diameter) boards.push_back(s);
  }
  for (const HeuristicKind h : simple_heuristics) {
    for (const PuzzleState& s : boards) {
      for (const auto& [name, budget] : stepping_budgets()) expect_stepped_equals_one_shot(p, h, s, name, budget);
    }
  }
  // A pattern database: the frames carry its per-part values (the evaluator's Extra state).
  const AdditivePatternDatabase db = AdditivePatternDatabase::build(p, {{1, 2, 3, 4}, {5, 6, 7, 8}});
  for (const PuzzleState& s : boards) {
    for (const auto& [name, budget] : stepping_budgets()) {
      expect_stepped_equals_one_shot(p, HeuristicKind::pdb_663, s, name, budget, &db);
    }
  }
}

TEST(PuzzleSearchHandle, SteppedIdaEqualsOneShotSolveOnFifteenPuzzles) {
  const SlidingPuzzle& p = fifteen();
  for (const PuzzleState& s : scrambles(p, 40, 3, 15)) {
    for (const auto& [name, budget] : stepping_budgets()) {
      expect_stepped_equals_one_shot(p, HeuristicKind::manhattan, s, name, budget);
    }
  }
  for (const int index : {9, 12}) {
    for (const auto& [name, budget] : stepping_budgets()) {
      expect_stepped_equals_one_shot(p, HeuristicKind::linear_conflict, korf(index).state, name, budget);
    }
  }
}

TEST(PuzzleSearchHandle, CancelEndsTheQueryWithTheCancelledFlag) {
  const SlidingPuzzle& p = fifteen();
  const PuzzleState hard = korf(12).state;
  PuzzleSolver solver(p, HeuristicKind::linear_conflict, nullptr, PuzzleSolverOptions{.query = {.max_nodes = 1'000'000}});
  for (const Algorithm a : algorithms) {
    SCOPED_TRACE(name_of(algorithm_names, a));
    SearchHandle<PuzzleState> handle = solver.make_search(a, {});
    ASSERT_TRUE(handle.begin(hard, p.goal()).running());
    ASSERT_TRUE(handle.step(100).running());
    const std::uint64_t expanded = handle.stats().expanded;
    handle.cancel();
    const Status s = handle.step();
    EXPECT_TRUE(s.failed());
    EXPECT_TRUE(s.has(StatusDetail::cancelled));
    EXPECT_EQ(handle.status(), s);
    EXPECT_TRUE(handle.path().empty());
    EXPECT_EQ(handle.stats().expanded, expanded) << "cancelled before any further expansion";
    // The handle answers the next query as usual.
    const PuzzleState easy = scrambles(p, 20, 1, 3).front();
    ASSERT_TRUE(handle.run(easy, p.goal()).succeeded());
    EXPECT_EQ(handle.path().nodes.back(), p.goal());
  }
}

TEST(PuzzleSearchHandle, EventsMatchTheStats) {
  const SlidingPuzzle& p = eight().puzzle;
  const PuzzleSolver solver(p, HeuristicKind::linear_conflict);
  EventRecorder<PuzzleState> recorder;
  for (const PuzzleState& s : random_eight_puzzles(10, 44)) {
    for (const Algorithm a : algorithms) {
      SCOPED_TRACE(std::string(name_of(algorithm_names, a)) + " on " + board_string(p, s));
      recorder.clear();
      SearchHandle<PuzzleState> handle = solver.make_search(a, QueryOptions<PuzzleState>{.events = &recorder});
      std::uint64_t running_steps = 0;
      handle.begin(s, p.goal());
      while (handle.step(50).running()) ++running_steps;
      ASSERT_TRUE(handle.status().succeeded());
      ASSERT_FALSE(recorder.truncated());
      const std::vector<Event<PuzzleState>>& events = recorder.events();
      ASSERT_GE(events.size(), 2u);
      EXPECT_EQ(events.front().kind, EventKind::begin);
      EXPECT_EQ(events.front().node, p.goal());
      EXPECT_EQ(events.back().kind, EventKind::end);
      EXPECT_EQ(events.back().status, handle.status());
      std::map<EventKind, std::uint64_t> count;
      std::uint64_t opened_without_parent = 0, wrong = 0;
      for (const Event<PuzzleState>& e : events) {
        ++count[e.kind];
        if (e.kind == EventKind::open && !e.has_parent) ++opened_without_parent;
        if (e.kind == EventKind::expand && e.h != solver.estimate(e.node)) ++wrong;
        if (e.kind == EventKind::open && e.has_parent && !is_move_sequence(p, {e.parent, e.node})) ++wrong;
        if (e.kind == EventKind::goal && (e.node != p.goal() || e.g != handle.path().cost)) ++wrong;
      }
      EXPECT_EQ(wrong, 0u) << "events whose boards or values are wrong";
      EXPECT_EQ(count[EventKind::begin], 1u);
      EXPECT_EQ(count[EventKind::end], 1u);
      EXPECT_EQ(count[EventKind::goal], 1u);
      EXPECT_EQ(count[EventKind::expand], handle.stats().expanded);
      EXPECT_EQ(count[EventKind::slice_end], running_steps);
      if (a == Algorithm::ida) {
        // Every board entered is opened and expanded (the goal too); all but the path's are
        // closed again; each iteration opens the start without a parent.
        EXPECT_EQ(count[EventKind::open], handle.stats().expanded);
        EXPECT_EQ(count[EventKind::close], handle.stats().expanded - handle.path().nodes.size());
        EXPECT_EQ(opened_without_parent, handle.stats().iterations);
      } else {
        EXPECT_EQ(opened_without_parent, 1u);
      }
      // Without a sink the same search.
      SearchHandle<PuzzleState> quiet = solver.make_search(a, {});
      ASSERT_TRUE(quiet.run(s, p.goal()).succeeded());
      EXPECT_EQ(quiet.stats().expanded, handle.stats().expanded);
      EXPECT_EQ(quiet.path().nodes, handle.path().nodes);
    }
  }
}

TEST(PuzzleSearchHandle, IdaRefusesOtherGoalsAndSeveralSources) {
  const SlidingPuzzle& p = eight().puzzle;
  const PuzzleSolver solver(p, HeuristicKind::manhattan);
  EventRecorder<PuzzleState> recorder;
  SearchHandle<PuzzleState> ida = solver.make_search(Algorithm::ida, QueryOptions<PuzzleState>{.events = &recorder});
  const std::vector<PuzzleState> boards = random_eight_puzzles(2, 5);
  const Status invalid = Status::failure(StatusDetail::invalid_query);
  const Status not_a_board = Status::failure(StatusDetail::invalid_query | StatusDetail::out_of_bounds);
  const std::array<Source<PuzzleState>, 2> two{{{boards[0], 0}, {boards[1], 0}}};
  const std::span<const Source<PuzzleState>> one(two.data(), 1);
  const PuzzleState goal = p.goal();
  // A board with tile 1 twice: not a board of the puzzle.
  PuzzleState repeated = goal;
  repeated.tiles = (repeated.tiles & ~(std::uint64_t{0xF} << 8)) | (std::uint64_t{1} << 8);

  EXPECT_EQ(ida.begin(boards[0], boards[1]), invalid) << "another goal";
  EXPECT_EQ(ida.begin(two, Goal<PuzzleState>::at(goal)), invalid) << "two sources";
  EXPECT_EQ(ida.begin({}, Goal<PuzzleState>::at(goal)), invalid) << "no source";
  EXPECT_EQ(ida.begin(one, Goal<PuzzleState>::none()), invalid) << "no goal";
  EXPECT_EQ(ida.begin(one, Goal<PuzzleState>::any_of(std::span<const PuzzleState>(&goal, 1))), invalid) << "a list";
  EXPECT_EQ(ida.begin(repeated, goal), not_a_board) << "a repeated tile";
  EXPECT_EQ(ida.step(), not_a_board);
  EXPECT_EQ(ida.stats().expanded, 0u);
  EXPECT_TRUE(ida.path().empty());
  // Each refused query still reports its begin and end.
  std::uint64_t begins = 0, ends = 0;
  for (const Event<PuzzleState>& e : recorder.events()) {
    begins += e.kind == EventKind::begin ? 1 : 0;
    if (e.kind == EventKind::end) {
      ++ends;
      EXPECT_TRUE(e.status == invalid || e.status == not_a_board) << describe(e.status);
    }
  }
  EXPECT_EQ(begins, 6u);
  EXPECT_EQ(ends, 6u);
  EXPECT_EQ(recorder.events().size(), 12u);
  // The same handle then solves a proper query.
  ASSERT_TRUE(ida.run(boards[0], goal).succeeded());
  EXPECT_EQ(ida.path().steps(), static_cast<std::size_t>(eight().distance_of(boards[0])));

  // A* takes any goal, but not a malformed board either.
  SearchHandle<PuzzleState> astar = solver.make_search(Algorithm::astar, {});
  EXPECT_EQ(astar.begin(repeated, goal), not_a_board);
  EXPECT_EQ(astar.begin(boards[0], repeated), not_a_board);
  ASSERT_TRUE(astar.run(boards[0], boards[1]).succeeded());
  EXPECT_EQ(astar.path().nodes.front(), boards[0]);
  EXPECT_EQ(astar.path().nodes.back(), boards[1]);
  EXPECT_TRUE(is_move_sequence(p, astar.path().nodes));
  astar.begin(two, Goal<PuzzleState>::at(goal));
  ASSERT_TRUE(astar.step().succeeded());
  EXPECT_EQ(astar.path().cost,
            std::min(eight().distance_of(boards[0]), eight().distance_of(boards[1])));
}

TEST(PuzzleSearchHandle, UnsolvableBoardFailsAtOnce) {
  const SlidingPuzzle& p = fifteen();
  // Korf's instance 1 with tiles 14 and 13 swapped.
  const PuzzleState unsolvable = p.make_state(std::vector<int>{13, 14, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3});
  ASSERT_EQ(p.check(p.tiles(unsolvable)), PuzzleCheck::unsolvable);
  const PuzzleSolver solver(p, HeuristicKind::manhattan);
  for (const Algorithm a : algorithms) {
    SCOPED_TRACE(name_of(algorithm_names, a));
    EventRecorder<PuzzleState> recorder;
    SearchHandle<PuzzleState> handle = solver.make_search(a, QueryOptions<PuzzleState>{.events = &recorder});
    EXPECT_EQ(handle.begin(unsolvable, p.goal()), Status::failure(StatusDetail::unreachable));
    EXPECT_EQ(handle.step(), Status::failure(StatusDetail::unreachable));
    EXPECT_EQ(handle.stats().expanded, 0u);
    EXPECT_TRUE(handle.path().empty());
    ASSERT_EQ(recorder.events().size(), 2u);
    EXPECT_EQ(recorder.events()[0].kind, EventKind::begin);
    EXPECT_EQ(recorder.events()[1].kind, EventKind::end);
    EXPECT_EQ(recorder.events()[1].status, Status::failure(StatusDetail::unreachable));
  }
}

TEST(PuzzleSearchHandle, AStarHandlesSolveEightPuzzlesOptimally) {
  const SlidingPuzzle& p = eight().puzzle;
  for (const HeuristicKind h : simple_heuristics) {
    const PuzzleSolver solver(p, h);
    SearchHandle<PuzzleState> astar = solver.make_search(Algorithm::astar, {});
    for (const PuzzleState& s : random_eight_puzzles(100, 77)) {
      const int d = eight().distance_of(s);
      ASSERT_TRUE(astar.run(s, p.goal()).succeeded()) << board_string(p, s);
      EXPECT_EQ(astar.path().cost, d) << board_string(p, s);
      EXPECT_EQ(astar.path().steps(), static_cast<std::size_t>(d));
      EXPECT_EQ(astar.path().nodes.front(), s);
      EXPECT_EQ(astar.path().nodes.back(), p.goal());
      EXPECT_TRUE(is_move_sequence(p, astar.path().nodes));
    }
  }
}

TEST(PuzzleSearchHandle, AStarHandleReportsOutOfNodes) {
  const SlidingPuzzle& p = fifteen();
  const PuzzleState korf1 = korf(1).state;
  constexpr std::size_t small_limit = 1000;
  const PuzzleSolver solver(p, HeuristicKind::manhattan);
  SearchHandle<PuzzleState> limited = solver.make_search(Algorithm::astar, QueryOptions<PuzzleState>{.max_nodes = small_limit});
  const Status s = limited.run(korf1, p.goal());
  EXPECT_TRUE(s.failed());
  EXPECT_TRUE(s.has(StatusDetail::out_of_nodes));
  EXPECT_FALSE(s.has(StatusDetail::partial_result));
  EXPECT_TRUE(limited.path().empty());
  EXPECT_LT(limited.stats().expanded, small_limit);
  // partial_result passes through: the path leads to the expanded board closest to the goal.
  SearchHandle<PuzzleState> partial = solver.make_search(
      Algorithm::astar, QueryOptions<PuzzleState>{.max_nodes = small_limit, .partial_result = true});
  const Status ps = partial.run(korf1, p.goal());
  EXPECT_TRUE(ps.failed());
  EXPECT_TRUE(ps.has(StatusDetail::out_of_nodes));
  EXPECT_TRUE(ps.has(StatusDetail::partial_result));
  ASSERT_FALSE(partial.path().empty());
  EXPECT_EQ(partial.path().nodes.front(), korf1);
  EXPECT_TRUE(is_move_sequence(p, partial.path().nodes));
  EXPECT_LT(solver.estimate(partial.path().nodes.back()), solver.estimate(korf1));
  // Without a limit in the query, the solver's applies.
  const PuzzleSolver bounded(p, HeuristicKind::manhattan, nullptr, PuzzleSolverOptions{.query = {.max_nodes = small_limit}});
  SearchHandle<PuzzleState> by_default = bounded.make_search(Algorithm::astar, {});
  EXPECT_TRUE(by_default.run(korf1, p.goal()).has(StatusDetail::out_of_nodes));
}

}  // namespace
}  // namespace waymark::puzzle_solver_test
