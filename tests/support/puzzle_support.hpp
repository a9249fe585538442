#pragma once
// Helpers the puzzle tests share (solver, pattern database and allocation tests): the whole
// 8-puzzle by breadth-first search from the goal, random boards, Korf's instances, solution
// checks. Function-local statics in inline functions: one 8-puzzle table per test binary.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "waymark/io/puzzle_instances.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/puzzle/solver.hpp"

namespace waymark {

namespace puzzle_test {
using namespace puzzle;
using namespace io;

// ---- the whole 8-puzzle, by breadth-first search from the goal -----------------------------

constexpr std::size_t nine_factorial = 362880;
constexpr int eight_puzzle_states = 181440;
constexpr int eight_puzzle_diameter = 31;

/// Lehmer rank of the 3x3 board's permutation: a perfect index onto 0..9!-1.
inline std::size_t rank9(const PuzzleState& s) {
  std::size_t r = 0;
  for (int i = 0; i < 9; ++i) {
    const int t = s.tile_at(i);
    std::size_t smaller = 0;
    for (int j = i + 1; j < 9; ++j) smaller += s.tile_at(j) < t ? 1 : 0;
    r = r * static_cast<std::size_t>(9 - i) + smaller;
  }
  return r;
}

struct EightPuzzle {
  SlidingPuzzle puzzle{3};
  std::vector<std::int8_t> distance = std::vector<std::int8_t>(nine_factorial, -1);  ///< by rank9
  std::vector<PuzzleState> states;  ///< every reachable state, in breadth-first order

  [[nodiscard]] int distance_of(const PuzzleState& s) const { return distance[rank9(s)]; }
};

/// Computed once per test binary (a fraction of a second).
inline const EightPuzzle& eight() {
  static const EightPuzzle e = [] {
    EightPuzzle out;
    out.states.reserve(eight_puzzle_states);
    out.states.push_back(out.puzzle.goal());
    out.distance[rank9(out.puzzle.goal())] = 0;
    for (std::size_t head = 0; head < out.states.size(); ++head) {
      const PuzzleState s = out.states[head];
      const auto d = static_cast<std::int8_t>(out.distance[rank9(s)] + 1);
      out.puzzle.for_each_successor(s, [&](const PuzzleState& n, Cost) {
        std::int8_t& dn = out.distance[rank9(n)];
        if (dn < 0) {
          dn = d;
          out.states.push_back(n);
        }
      });
    }
    return out;
  }();
  return e;
}

/// `sol` succeeded with `length` moves that take `start` to the goal.
inline ::testing::AssertionResult solved_optimally(const SlidingPuzzle& p, const PuzzleState& start,
                                            const PuzzleSolution& sol, int length) {
  if (!sol.status.succeeded()) return ::testing::AssertionFailure() << "not solved";
  if (sol.moves.size() != static_cast<std::size_t>(length)) {
    return ::testing::AssertionFailure() << sol.moves.size() << " moves, the optimum is " << length << ": "
                                         << describe(sol.moves);
  }
  const std::optional<PuzzleState> end = p.replay(start, sol.moves);
  if (!end) return ::testing::AssertionFailure() << "a move leaves the board: " << describe(sol.moves);
  if (*end != p.goal()) {
    return ::testing::AssertionFailure() << "the moves do not reach the goal: " << describe(sol.moves);
  }
  return ::testing::AssertionSuccess();
}

/// The path's consecutive nodes differ by one legal move.
inline ::testing::AssertionResult is_move_sequence(const SlidingPuzzle& p, const std::vector<PuzzleState>& nodes) {
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const PuzzleState& a = nodes[i - 1];
    bool adjacent = false;
    p.for_each_successor(a, [&](const PuzzleState& n, Cost) { adjacent = adjacent || n == nodes[i]; });
    if (!adjacent) {
      return ::testing::AssertionFailure() << "nodes " << i - 1 << " and " << i << " are not one move apart";
    }
  }
  return ::testing::AssertionSuccess();
}

inline std::string board_string(const SlidingPuzzle& p, const PuzzleState& s) {
  std::string out;
  for (const int t : p.tiles(s)) out += std::to_string(t) + " ";
  return out;
}

/// Random solvable 8-puzzles: uniform permutations, kept when check() says ok.
inline std::vector<PuzzleState> random_eight_puzzles(std::size_t count, unsigned seed) {
  const SlidingPuzzle& p = eight().puzzle;
  std::mt19937 rng(seed);
  std::vector<int> tiles{0, 1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<PuzzleState> out;
  while (out.size() < count) {
    std::shuffle(tiles.begin(), tiles.end(), rng);
    if (p.check(tiles) == PuzzleCheck::ok) out.push_back(p.make_state(tiles));
  }
  return out;
}

/// Boards at the end of seeded random walks of `moves` moves from the goal.
inline std::vector<PuzzleState> scrambles(const SlidingPuzzle& p, int moves, std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, blank_move_count - 1);
  std::vector<PuzzleState> out;
  while (out.size() < count) {
    PuzzleState s = p.goal();
    for (int i = 0; i < moves;) {
      if (const auto n = p.apply(s, static_cast<BlankMove>(pick(rng)))) {
        s = *n;
        ++i;
      }
    }
    out.push_back(s);
  }
  return out;
}

/// The whole 8-puzzle, for the other test files.
inline const SlidingPuzzle& eight_puzzle() { return eight().puzzle; }
inline const std::vector<PuzzleState>& eight_puzzle_boards() { return eight().states; }
inline int eight_puzzle_distance(const PuzzleState& s) { return eight().distance_of(s); }

// ---- the 15-puzzle: Korf's instances ---------------------------------------------------------

inline const SlidingPuzzle& fifteen() {
  static const SlidingPuzzle p(4);
  return p;
}

inline const PuzzleInstanceList& korf_instances() {
  static const PuzzleInstanceList list =
      load_puzzle_instances(std::string(WAYMARK_DATA_DIR) + "/puzzles/korf100_1-50.txt");
  return list;
}

inline const PuzzleInstance& korf(int index) {
  const PuzzleInstance& inst = korf_instances().instances.at(static_cast<std::size_t>(index - 1));
  EXPECT_EQ(inst.index, index);
  EXPECT_TRUE(inst.optimal_length.has_value());
  return inst;
}

/// IDA* solutions of the listed instances, each checked against the published length.
inline std::vector<PuzzleSolution> solve_korf(HeuristicKind h, std::span<const int> indices,
                                       const AdditivePatternDatabase* db = nullptr) {
  const SlidingPuzzle& p = fifteen();
  PuzzleSolver solver(p, h, db);
  std::vector<PuzzleSolution> out;
  for (const int index : indices) {
    const PuzzleInstance& inst = korf(index);
    PuzzleSolution sol = solver.ida(inst.state);
    EXPECT_TRUE(solved_optimally(p, inst.state, sol, inst.optimal_length.value_or(-1)))
        << "Korf #" << index << " with " << to_string(h);
    EXPECT_GT(sol.stats.expanded, 0u);
    EXPECT_GE(sol.stats.iterations, 1u);
    out.push_back(std::move(sol));
  }
  return out;
}

}  // namespace puzzle_test

}  // namespace waymark
