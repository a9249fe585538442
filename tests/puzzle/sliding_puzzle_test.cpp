// The sliding-tile puzzle world: geometry, moves, replay, the goal, board checks, and the
// solvability rule checked against a breadth-first search of the whole 2x2 and 3x3 state
// spaces (every permutation is reachable from the goal exactly when check() says ok).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/search/concepts.hpp"

namespace waymark::puzzle_sliding_puzzle_test {
using namespace search;
using namespace puzzle;
namespace {

static_assert(SearchSpace<SlidingPuzzle>);
static_assert(sizeof(PuzzleState) == 16);

constexpr int off = -1;
constexpr BlankMove U = BlankMove::up;
constexpr BlankMove D = BlankMove::down;
constexpr BlankMove L = BlankMove::left;
constexpr BlankMove R = BlankMove::right;

/// {up, down, left, right} targets of one cell.
using Targets = std::array<int, blank_move_count>;

Targets targets_of(const SlidingPuzzle& p, int cell) {
  return {p.target(cell, U), p.target(cell, D), p.target(cell, L), p.target(cell, R)};
}

std::vector<int> iota_tiles(int cells) {
  std::vector<int> t(static_cast<std::size_t>(cells));
  std::iota(t.begin(), t.end(), 0);
  return t;
}

/// Every state reachable from the goal (plain breadth-first search over tiles words).
std::unordered_set<std::uint64_t> reachable_from_goal(const SlidingPuzzle& p) {
  std::unordered_set<std::uint64_t> seen{p.goal().tiles};
  std::vector<PuzzleState> frontier{p.goal()};
  std::vector<PuzzleState> next;
  while (!frontier.empty()) {
    next.clear();
    for (const PuzzleState& s : frontier) {
      p.for_each_successor(s, [&](const PuzzleState& n, Cost) {
        if (seen.insert(n.tiles).second) next.push_back(n);
      });
    }
    frontier.swap(next);
  }
  return seen;
}

TEST(SlidingPuzzle, WidthOutsideTwoToFourThrows) {
  EXPECT_THROW(SlidingPuzzle(1), BuildError);
  EXPECT_THROW(SlidingPuzzle(5), BuildError);
  EXPECT_THROW(SlidingPuzzle(0), BuildError);
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    EXPECT_EQ(p.width(), w);
    EXPECT_EQ(p.cells(), w * w);
  }
}

TEST(SlidingPuzzle, TargetsAtCornersEdgesAndCentreOf3x3) {
  const SlidingPuzzle p(3);
  // 0 1 2
  // 3 4 5
  // 6 7 8
  EXPECT_EQ(targets_of(p, 0), (Targets{off, 3, off, 1}));
  EXPECT_EQ(targets_of(p, 1), (Targets{off, 4, 0, 2}));
  EXPECT_EQ(targets_of(p, 2), (Targets{off, 5, 1, off}));
  EXPECT_EQ(targets_of(p, 3), (Targets{0, 6, off, 4}));
  EXPECT_EQ(targets_of(p, 4), (Targets{1, 7, 3, 5}));
  EXPECT_EQ(targets_of(p, 5), (Targets{2, 8, 4, off}));
  EXPECT_EQ(targets_of(p, 6), (Targets{3, off, off, 7}));
  EXPECT_EQ(targets_of(p, 7), (Targets{4, off, 6, 8}));
  EXPECT_EQ(targets_of(p, 8), (Targets{5, off, 7, off}));
}

TEST(SlidingPuzzle, TargetsAtCornersEdgesAndInsideOf4x4) {
  const SlidingPuzzle p(4);
  //  0  1  2  3
  //  4  5  6  7
  //  8  9 10 11
  // 12 13 14 15
  EXPECT_EQ(targets_of(p, 0), (Targets{off, 4, off, 1}));
  EXPECT_EQ(targets_of(p, 3), (Targets{off, 7, 2, off}));
  EXPECT_EQ(targets_of(p, 12), (Targets{8, off, off, 13}));
  EXPECT_EQ(targets_of(p, 15), (Targets{11, off, 14, off}));
  EXPECT_EQ(targets_of(p, 1), (Targets{off, 5, 0, 2}));
  EXPECT_EQ(targets_of(p, 4), (Targets{0, 8, off, 5}));
  EXPECT_EQ(targets_of(p, 7), (Targets{3, 11, 6, off}));
  EXPECT_EQ(targets_of(p, 14), (Targets{10, off, 13, 15}));
  EXPECT_EQ(targets_of(p, 5), (Targets{1, 9, 4, 6}));
  EXPECT_EQ(targets_of(p, 10), (Targets{6, 14, 9, 11}));
}

TEST(SlidingPuzzle, TargetsMatchRowColumnArithmeticAndMoveBetweenInvertsThem) {
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    int moves = 0;
    for (int c = 0; c < p.cells(); ++c) {
      const int r = c / w, col = c % w;
      EXPECT_EQ(targets_of(p, c),
                (Targets{r > 0 ? c - w : off, r < w - 1 ? c + w : off, col > 0 ? c - 1 : off,
                         col < w - 1 ? c + 1 : off}))
          << "width " << w << " cell " << c;
      for (int m = 0; m < blank_move_count; ++m) {
        const auto move = static_cast<BlankMove>(m);
        const int to = p.target(c, move);
        if (to < 0) continue;
        ++moves;
        EXPECT_EQ(p.move_between(c, to), move) << "width " << w << " cell " << c;
      }
    }
    EXPECT_EQ(moves, 4 * w * (w - 1)) << "each of the 2w(w-1) adjacent pairs, both ways";
  }
}

TEST(SlidingPuzzle, MoveNamesAndStrings) {
  EXPECT_EQ(to_char(U), 'U');
  EXPECT_EQ(to_char(D), 'D');
  EXPECT_EQ(to_char(L), 'L');
  EXPECT_EQ(to_char(R), 'R');
  const std::vector<BlankMove> moves{R, D, L, U, U};
  EXPECT_EQ(describe(moves), "RDLUU");
  EXPECT_EQ(describe(std::span<const BlankMove>{}), "");
}

TEST(SlidingPuzzle, GoalHasBlankFirstAndTileTOnCellT) {
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    const PuzzleState g = p.goal();
    EXPECT_EQ(g.blank, 0);
    EXPECT_EQ(p.tiles(g), iota_tiles(p.cells()));
    for (int c = 0; c < p.cells(); ++c) EXPECT_EQ(g.tile_at(c), c);
    EXPECT_EQ(p.make_state(iota_tiles(p.cells())), g);
    EXPECT_EQ(p.check(p.tiles(g)), PuzzleCheck::ok);
  }
  EXPECT_EQ(SlidingPuzzle(4).goal().tiles, 0xFEDCBA9876543210ull);
  EXPECT_EQ(SlidingPuzzle(3).goal().tiles, 0x876543210ull);
}

TEST(SlidingPuzzle, MakeStateAndTilesRoundTrip) {
  const SlidingPuzzle p(4);
  const std::vector<int> korf1{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3};
  const PuzzleState s = p.make_state(korf1);
  EXPECT_EQ(s.blank, 9);
  EXPECT_EQ(s.tile_at(0), 14);
  EXPECT_EQ(s.tile_at(15), 3);
  EXPECT_EQ(p.tiles(s), korf1);
  EXPECT_EQ(p.check(korf1), PuzzleCheck::ok);
  EXPECT_EQ(std::hash<PuzzleState>{}(s), std::hash<PuzzleState>{}(p.make_state(korf1)));
  EXPECT_NE(s, p.goal());
}

TEST(SlidingPuzzle, ApplyMovesTheBlankAndSwapsOneTile) {
  const SlidingPuzzle p(3);
  const PuzzleState g = p.goal();
  EXPECT_FALSE(p.apply(g, U).has_value());
  EXPECT_FALSE(p.apply(g, L).has_value());
  const std::optional<PuzzleState> right = p.apply(g, R);
  ASSERT_TRUE(right.has_value());
  EXPECT_EQ(right->blank, 1);
  EXPECT_EQ(p.tiles(*right), (std::vector<int>{1, 0, 2, 3, 4, 5, 6, 7, 8}));
  const std::optional<PuzzleState> down = p.apply(*right, D);
  ASSERT_TRUE(down.has_value());
  EXPECT_EQ(down->blank, 4);
  EXPECT_EQ(p.tiles(*down), (std::vector<int>{1, 4, 2, 3, 0, 5, 6, 7, 8}));
  EXPECT_EQ(SlidingPuzzle::swap_blank(*right, 4), *down);
  // Every move is undone by the opposite one.
  const std::array<std::pair<BlankMove, BlankMove>, 4> opposite{{{U, D}, {D, U}, {L, R}, {R, L}}};
  for (const auto& [m, back] : opposite) {
    const std::optional<PuzzleState> there = p.apply(*down, m);
    ASSERT_TRUE(there.has_value());
    EXPECT_EQ(p.apply(*there, back), down);
  }
}

TEST(SlidingPuzzle, SuccessorsAreTheLegalMovesAtCostOne) {
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    // The blank on every cell (tile 0 swapped there from the goal by a permutation).
    for (int c = 0; c < p.cells(); ++c) {
      std::vector<int> tiles = iota_tiles(p.cells());
      std::swap(tiles[0], tiles[static_cast<std::size_t>(c)]);
      const PuzzleState s = p.make_state(tiles);
      ASSERT_EQ(s.blank, c);
      std::vector<PuzzleState> expected;
      for (int m = 0; m < blank_move_count; ++m) {
        if (const auto n = p.apply(s, static_cast<BlankMove>(m))) expected.push_back(*n);
      }
      std::vector<PuzzleState> got;
      p.for_each_successor(s, [&](const PuzzleState& n, Cost cost) {
        EXPECT_EQ(cost, 1.0);
        got.push_back(n);
      });
      EXPECT_EQ(got, expected) << "width " << w << " blank on " << c;
      const int r = c / w, col = c % w;
      const auto interior = [&](int x) { return x > 0 && x < w - 1 ? 1 : 0; };
      EXPECT_EQ(got.size(), static_cast<std::size_t>(2 + interior(r) + interior(col)));
      for (const PuzzleState& n : got) EXPECT_EQ(p.tiles(n)[s.blank], s.tile_at(n.blank));
    }
  }
}

TEST(SlidingPuzzle, ReplayFollowsMovesAndRejectsMovesOffTheBoard) {
  const SlidingPuzzle p3(3);
  const PuzzleState g3 = p3.goal();
  EXPECT_EQ(p3.replay(g3, {}), g3);
  EXPECT_EQ(p3.replay(g3, std::vector<BlankMove>{R, L}), g3);
  EXPECT_EQ(p3.replay(g3, std::vector<BlankMove>{D, R, U, L, D, R, U, L, D, R, U, L}), g3)
      << "three turns around a 2x2 block cycle three tiles back home";
  const std::optional<PuzzleState> corner = p3.replay(g3, std::vector<BlankMove>{R, R, D, D});
  ASSERT_TRUE(corner.has_value());
  EXPECT_EQ(corner->blank, 8);
  EXPECT_EQ(p3.tiles(*corner), (std::vector<int>{1, 2, 5, 3, 4, 8, 6, 7, 0}));
  EXPECT_FALSE(p3.replay(g3, std::vector<BlankMove>{U}).has_value());
  EXPECT_FALSE(p3.replay(g3, std::vector<BlankMove>{L}).has_value());
  EXPECT_FALSE(p3.replay(g3, std::vector<BlankMove>{R, R, R}).has_value());
  EXPECT_FALSE(p3.replay(g3, std::vector<BlankMove>{D, D, D, U}).has_value());
  EXPECT_FALSE(p3.replay(g3, std::vector<BlankMove>{R, R, D, D, R, L}).has_value())
      << "an illegal move in the middle fails the replay even if later moves are legal";
  EXPECT_FALSE(p3.replay(*corner, std::vector<BlankMove>{D}).has_value());
  EXPECT_FALSE(p3.replay(*corner, std::vector<BlankMove>{R}).has_value());

  const SlidingPuzzle p4(4);
  EXPECT_TRUE(p4.replay(p4.goal(), std::vector<BlankMove>{R, R, R}).has_value());
  EXPECT_FALSE(p4.replay(p4.goal(), std::vector<BlankMove>{R, R, R, R}).has_value());
  EXPECT_TRUE(p4.replay(p4.goal(), std::vector<BlankMove>{D, D, D}).has_value());
  EXPECT_FALSE(p4.replay(p4.goal(), std::vector<BlankMove>{D, D, D, D}).has_value());
}

TEST(SlidingPuzzle, CheckWrongSizeOutOfRangeAndDuplicate) {
  const SlidingPuzzle p(3);
  struct Case {
    std::vector<int> tiles;
    PuzzleCheck check;
    std::string reason;
  };
  const std::vector<Case> cases{
      {{}, PuzzleCheck::wrong_size, "expected 9 tiles, got 0"},
      {{0, 1, 2, 3, 4, 5, 6, 7}, PuzzleCheck::wrong_size, "expected 9 tiles, got 8"},
      {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, PuzzleCheck::wrong_size, "expected 9 tiles, got 10"},
      {{0, 1, 2, 3, 4, 5, 6, 7, 9}, PuzzleCheck::tile_out_of_range, "tile 9 out of range 0..8"},
      {{0, 1, 2, 3, -1, 5, 6, 7, 8}, PuzzleCheck::tile_out_of_range, "tile -1 out of range 0..8"},
      {{0, 1, 2, 3, 3, 5, 6, 7, 8}, PuzzleCheck::duplicate_tile, "tile 3 appears twice"},
      {{1, 1, 2, 3, 4, 5, 6, 7, 8}, PuzzleCheck::duplicate_tile, "tile 1 appears twice"},
      {{0, 0, 2, 3, 4, 5, 6, 7, 8}, PuzzleCheck::duplicate_tile, "tile 0 appears twice"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(p.check(c.tiles), c.check) << c.reason;
    EXPECT_EQ(describe(c.check, c.tiles, 3), c.reason);
  }
  const SlidingPuzzle p4(4);
  const std::vector<int> sixteen{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16};
  EXPECT_EQ(p4.check(sixteen), PuzzleCheck::tile_out_of_range);
  EXPECT_EQ(describe(PuzzleCheck::tile_out_of_range, sixteen, 4), "tile 16 out of range 0..15");
  EXPECT_EQ(p4.check(iota_tiles(9)), PuzzleCheck::wrong_size);
  EXPECT_EQ(describe(PuzzleCheck::ok, iota_tiles(16), 4), "ok");
}

TEST(SlidingPuzzle, SwappingTwoTilesOfTheGoalIsUnsolvable) {
  for (int w = min_puzzle_width; w <= max_puzzle_width; ++w) {
    const SlidingPuzzle p(w);
    for (int a = 1; a < p.cells(); ++a) {
      for (int b = a + 1; b < p.cells(); ++b) {
        std::vector<int> tiles = iota_tiles(p.cells());
        std::swap(tiles[static_cast<std::size_t>(a)], tiles[static_cast<std::size_t>(b)]);
        ASSERT_EQ(p.check(tiles), PuzzleCheck::unsolvable) << "width " << w << " swap " << a << "," << b;
      }
    }
    std::vector<int> tiles = iota_tiles(p.cells());
    std::swap(tiles[1], tiles[2]);
    const std::string why = describe(PuzzleCheck::unsolvable, tiles, w);
    EXPECT_NE(why.find("unsolvable"), std::string::npos) << why;
  }
}

TEST(SlidingPuzzle, RandomWalksStaySolvableAndATileSwapMakesThemUnsolvable) {
  const SlidingPuzzle p(4);
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<int> pick_move(0, blank_move_count - 1);
  std::uniform_int_distribution<int> pick_cell(0, p.cells() - 1);
  PuzzleState s = p.goal();
  for (int step = 0; step < 2000; ++step) {
    if (const auto n = p.apply(s, static_cast<BlankMove>(pick_move(rng)))) s = *n;
    std::vector<int> tiles = p.tiles(s);
    ASSERT_EQ(p.check(tiles), PuzzleCheck::ok) << step;
    ASSERT_EQ(p.make_state(tiles), s);
    int a = pick_cell(rng), b = pick_cell(rng);
    if (a == b || a == s.blank || b == s.blank) continue;
    std::swap(tiles[static_cast<std::size_t>(a)], tiles[static_cast<std::size_t>(b)]);
    ASSERT_EQ(p.check(tiles), PuzzleCheck::unsolvable) << step;
  }
}

/// Runs `f` on every permutation of 0..n-1.
template <class F>
void for_each_permutation(int n, F&& f) {
  std::vector<int> tiles = iota_tiles(n);
  do {
    f(tiles);
  } while (std::next_permutation(tiles.begin(), tiles.end()));
}

TEST(SlidingPuzzle, TwoByTwoHasTwelveReachableStatesExactlyTheSolvableOnes) {
  const SlidingPuzzle p(2);
  const std::unordered_set<std::uint64_t> reachable = reachable_from_goal(p);
  EXPECT_EQ(reachable.size(), 12u);
  int permutations = 0, ok = 0;
  for_each_permutation(4, [&](const std::vector<int>& tiles) {
    ++permutations;
    const bool is_ok = p.check(tiles) == PuzzleCheck::ok;
    ok += is_ok ? 1 : 0;
    EXPECT_EQ(is_ok, reachable.contains(p.make_state(tiles).tiles)) << ::testing::PrintToString(tiles);
    if (!is_ok) {
      EXPECT_EQ(p.check(tiles), PuzzleCheck::unsolvable);
    }
  });
  EXPECT_EQ(permutations, 24);
  EXPECT_EQ(ok, 12);
}

TEST(SlidingPuzzle, EightPuzzleParityRuleMatchesFullBreadthFirstSearch) {
  const SlidingPuzzle p(3);
  const std::unordered_set<std::uint64_t> reachable = reachable_from_goal(p);
  EXPECT_EQ(reachable.size(), 181440u);
  int permutations = 0, ok = 0, mismatches = 0;
  for_each_permutation(9, [&](const std::vector<int>& tiles) {
    ++permutations;
    const PuzzleCheck c = p.check(tiles);
    const bool is_ok = c == PuzzleCheck::ok;
    ok += is_ok ? 1 : 0;
    if (is_ok != reachable.contains(p.make_state(tiles).tiles) ||
        (!is_ok && c != PuzzleCheck::unsolvable)) {
      if (++mismatches <= 5) ADD_FAILURE() << ::testing::PrintToString(tiles) << " check " << static_cast<int>(c);
    }
  });
  EXPECT_EQ(permutations, 362880);
  EXPECT_EQ(ok, 181440);
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace waymark::puzzle_sliding_puzzle_test
