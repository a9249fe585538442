// Pattern databases: tables equal to a brute-force computation on small patterns (8- and
// 15-puzzle), additive sums with mirror reuse and reflection, admissible and above Manhattan
// (pdb-663 on Korf's instances and near the goal), saved and loaded, rejected when invalid or
// corrupt, and driving PuzzleSolver.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/puzzle_support.hpp"
#include "support/forge.hpp"
#include "support/temp_files.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/puzzle_instances.hpp"
#include "waymark/puzzle/heuristics.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/puzzle/solver.hpp"

namespace waymark::puzzle_pattern_database_test {
using namespace puzzle;
using namespace io;


namespace {
using namespace puzzle_test;

// ---- brute-force pattern values -------------------------------------------------------------

/// The exact pattern value by brute force: 0-1 breadth-first search from the goal over
/// (pattern tiles' cells, blank cell), a pattern-tile move costing 1 and any other move 0;
/// a placement's value is the least over the blank's cells. Indexed by the placement code
/// sum cells[i]·n^i (n = cells), -1 for codes that are not placements or are unreachable.
std::vector<int> brute_force_pattern(const SlidingPuzzle& p, const std::vector<int>& pattern) {
  const auto n = static_cast<std::size_t>(p.cells());
  const std::size_t k = pattern.size();
  std::size_t placements = 1;
  for (std::size_t i = 0; i < k; ++i) placements *= n;
  constexpr int unreached = 1 << 20;
  std::vector<int> dist(placements * n, unreached);  // code + blank·n^k
  const auto decode = [&](std::size_t code, std::vector<int>& cells) {
    cells.resize(k);
    for (std::size_t i = 0; i < k; ++i, code /= n) cells[i] = static_cast<int>(code % n);
    return static_cast<int>(code);  // the blank
  };
  const auto encode = [&](const std::vector<int>& cells, int blank) {
    std::size_t code = static_cast<std::size_t>(blank);
    for (std::size_t i = k; i-- > 0;) code = code * n + static_cast<std::size_t>(cells[i]);
    return code;
  };
  std::deque<std::size_t> queue;
  const std::size_t start = encode(pattern, 0);  // tile t on cell t, blank on cell 0
  dist[start] = 0;
  queue.push_back(start);
  std::vector<int> cells;
  while (!queue.empty()) {
    const std::size_t code = queue.front();
    queue.pop_front();
    const int blank = decode(code, cells);
    const int d = dist[code];
    for (int m = 0; m < blank_move_count; ++m) {
      const int to = p.target(blank, static_cast<BlankMove>(m));
      if (to < 0) continue;
      const auto moved = std::find(cells.begin(), cells.end(), to);
      const int cost = moved == cells.end() ? 0 : 1;
      if (moved != cells.end()) *moved = blank;
      const std::size_t next = encode(cells, to);
      if (moved != cells.end()) *moved = to;
      if (d + cost < dist[next]) {
        dist[next] = d + cost;
        if (cost == 0) {
          queue.push_front(next);
        } else {
          queue.push_back(next);
        }
      }
    }
  }
  std::vector<int> value(placements, -1);
  for (std::size_t code = 0; code < dist.size(); ++code) {
    if (dist[code] == unreached) continue;
    int& v = value[code % placements];
    if (v < 0 || dist[code] < v) v = dist[code];
  }
  return value;
}

/// The brute-force value of `pattern` on board `s`.
int brute_force_value(const SlidingPuzzle& p, const std::vector<int>& pattern, const std::vector<int>& table,
                      const PuzzleState& s) {
  const auto cell_of = s.cells_of_tiles(p.cells());
  std::size_t code = 0;
  for (std::size_t i = pattern.size(); i-- > 0;) {
    code = code * static_cast<std::size_t>(p.cells()) + cell_of[static_cast<std::size_t>(pattern[i])];
  }
  return table[code];
}

/// Runs `f(cells, code)` for every placement of k tiles on distinct cells.
template <class F>
void for_each_placement(std::size_t n, std::size_t k, F&& f) {
  std::size_t total = 1;
  for (std::size_t i = 0; i < k; ++i) total *= n;
  std::vector<std::uint8_t> cells(k);
  for (std::size_t code = 0; code < total; ++code) {
    std::uint32_t used = 0;
    bool distinct = true;
    std::size_t rest = code;
    for (std::size_t i = 0; i < k; ++i, rest /= n) {
      cells[i] = static_cast<std::uint8_t>(rest % n);
      distinct = distinct && (used >> cells[i] & 1u) == 0;
      used |= 1u << cells[i];
    }
    if (distinct) f(cells, code);
  }
}

/// A board with the pattern tiles on `cells` and the other tiles (blank included) filling the
/// remaining cells in increasing order; it need not be solvable.
PuzzleState board_with(const SlidingPuzzle& p, const std::vector<int>& pattern,
                       const std::vector<std::uint8_t>& cells) {
  std::vector<int> tiles(static_cast<std::size_t>(p.cells()), -1);
  std::vector<bool> in_pattern(static_cast<std::size_t>(p.cells()), false);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    tiles[cells[i]] = pattern[i];
    in_pattern[static_cast<std::size_t>(pattern[i])] = true;
  }
  int next = 0;
  for (int& t : tiles) {
    if (t >= 0) continue;
    while (in_pattern[static_cast<std::size_t>(next)]) ++next;
    t = next++;
  }
  return p.make_state(tiles);
}

int tile_manhattan(int width, int tile, int cell) {
  return std::abs(tile / width - cell / width) + std::abs(tile % width - cell % width);
}

/// Every 15-puzzle board within 14 moves of the goal with its distance (breadth-first
/// search from the goal; about 61,000 boards), computed once per process.
const std::vector<std::pair<PuzzleState, int>>& fifteen_near_goal() {
  static const std::vector<std::pair<PuzzleState, int>> boards = [] {
    const SlidingPuzzle& p = fifteen();
    std::unordered_map<std::uint64_t, int> dist{{p.goal().tiles, 0}};
    std::vector<std::pair<PuzzleState, int>> out{{p.goal(), 0}};
    for (std::size_t head = 0; head < out.size(); ++head) {
      const PuzzleState s = out[head].first;  // named, not a structured binding: clang 14 cannot capture one
      const int d = out[head].second;
      if (d == 14) break;
      p.for_each_successor(s, [&](const PuzzleState& n, Cost) {
        if (dist.emplace(n.tiles, d + 1).second) out.emplace_back(n, d + 1);
      });
    }
    return out;
  }();
  return boards;
}

/// Boards along a seeded random walk from the goal.
std::vector<PuzzleState> random_walk(const SlidingPuzzle& p, int steps, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, blank_move_count - 1);
  std::vector<PuzzleState> out;
  PuzzleState s = p.goal();
  while (out.size() < static_cast<std::size_t>(steps)) {
    if (const auto n = p.apply(s, static_cast<BlankMove>(pick(rng)))) {
      s = *n;
      out.push_back(s);
    }
  }
  return out;
}

/// A move changes only the parts that hold the moved tile (the solver's incremental update
/// looks up just those again).
bool only_the_moved_tiles_parts_change(const SlidingPuzzle& p, const AdditivePatternDatabase& db,
                                       const PuzzleState& s, const PuzzleState& n) {
  const int moved = s.tile_at(n.blank);
  const auto before = s.cells_of_tiles(p.cells());
  const auto after = n.cells_of_tiles(p.cells());
  for (const auto parts : {db.parts(), db.reflected_parts()}) {
    for (const AdditivePatternDatabase::Part& part : parts) {
      const bool holds = std::find(part.tiles.begin(), part.tiles.end(), moved) != part.tiles.end();
      if (!holds && db.part_value(part, before.data()) != db.part_value(part, after.data())) return false;
    }
  }
  return true;
}

// ---- pattern databases small enough to check against brute force -----------------------------

struct SmallPattern {
  int width;
  std::vector<int> tiles;
};

void PrintTo(const SmallPattern& s, std::ostream* out) {
  *out << s.width << "x" << s.width << " " << ::testing::PrintToString(s.tiles);
}

class SmallPatternDatabase : public ::testing::TestWithParam<SmallPattern> {};

TEST_P(SmallPatternDatabase, EqualsBruteForceForEveryPlacement) {
  const SmallPattern& param = GetParam();
  const SlidingPuzzle p(param.width);
  const PatternDatabase db = PatternDatabase::build(p, param.tiles);
  const std::vector<int> expected = brute_force_pattern(p, param.tiles);
  const auto n = static_cast<std::size_t>(p.cells());
  const std::size_t k = param.tiles.size();
  std::size_t placements = 1;
  for (std::size_t i = 0; i < k; ++i) placements *= n - i;
  EXPECT_EQ(db.size(), placements);
  EXPECT_EQ(db.width(), param.width);
  EXPECT_TRUE(std::equal(db.tiles().begin(), db.tiles().end(), param.tiles.begin(), param.tiles.end()));
  std::vector<bool> rank_seen(db.size(), false);
  int failures = 0, max_expected = 0;
  std::size_t unreachable = 0;
  for_each_placement(n, k, [&](const std::vector<std::uint8_t>& cells, std::size_t code) {
    const std::size_t r = db.rank(cells.data());
    if (r >= db.size() || rank_seen[r]) {
      if (++failures <= 10) ADD_FAILURE() << "rank " << r << " out of range or repeated";
      return;
    }
    rank_seen[r] = true;
    // A pattern of all the tiles fixes the blank's cell: half its placements are unsolvable
    // and keep the table's "unreached" byte.
    const int want = expected[code] < 0 ? 255 : expected[code];
    if (want == 255) {
      ++unreachable;
    } else {
      max_expected = std::max(max_expected, want);
    }
    if (db.value(r) != want || db.lookup(board_with(p, param.tiles, cells)) != want) {
      if (++failures <= 10) {
        ADD_FAILURE() << "placement " << ::testing::PrintToString(std::vector<int>(cells.begin(), cells.end()))
                      << ": table " << db.value(r) << ", brute force " << want;
      }
    }
  });
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(unreachable, k + 1 == n ? placements / 2 : 0);
  // max_value() skips the placements no board can have.
  EXPECT_EQ(db.max_value(), max_expected);
}

INSTANTIATE_TEST_SUITE_P(PatternDatabase, SmallPatternDatabase,
                         ::testing::Values(SmallPattern{2, {1, 2, 3}}, SmallPattern{2, {2}},
                                           SmallPattern{3, {1, 2, 3, 4}}, SmallPattern{3, {5, 6, 7, 8}},
                                           SmallPattern{3, {8, 1, 6}}, SmallPattern{4, {13, 14, 15}},
                                           SmallPattern{4, {1, 2, 3, 4}}, SmallPattern{4, {15, 5, 10}}));

// A table holds the fewest pattern-tile moves over every cell of the blank, and the cell that
// achieves it on one side of a move may be unreachable from the other side: one move can
// change a pattern's value by more than 1. So the sum is admissible but not consistent (A*
// must reopen closed nodes, which the solver's A* does).
TEST(PatternDatabase, ValueIsTheLeastOverTheBlankSoOneMoveCanChangeItByMore) {
  struct Example {
    int width;
    std::vector<int> pattern;
    std::vector<int> board;
    BlankMove move;
    int before, after;
  };
  const std::vector<Example> examples{
      // 4 8 5 / 1 3 6 / _ 2 7, then tile 2 slides left: 10 -> 13.
      {3, {1, 2, 3, 4}, {4, 8, 5, 1, 3, 6, 0, 2, 7}, BlankMove::right, 10, 13},
      // 12 9 10 5 / 11 1 7 2 / 3 15 _ 13 / 8 14 4 6, then tile 15 slides right: 9 -> 6.
      {4, {13, 14, 15}, {12, 9, 10, 5, 11, 1, 7, 2, 3, 15, 0, 13, 8, 14, 4, 6}, BlankMove::left, 9, 6},
  };
  for (const Example& e : examples) {
    const SlidingPuzzle p(e.width);
    const PatternDatabase db = PatternDatabase::build(p, e.pattern);
    const std::vector<int> expected = brute_force_pattern(p, e.pattern);
    const PuzzleState s = p.make_state(e.board);
    const PuzzleState n = *p.apply(s, e.move);
    EXPECT_EQ(db.lookup(s), e.before);
    EXPECT_EQ(db.lookup(n), e.after);
    EXPECT_EQ(brute_force_value(p, e.pattern, expected, s), e.before);
    EXPECT_EQ(brute_force_value(p, e.pattern, expected, n), e.after);
  }
}

TEST(PatternDatabase, AdditiveEightPuzzleDatabaseEqualsBruteForceAndSolvesOptimally) {
  const SlidingPuzzle& p = eight_puzzle();
  const std::vector<int> low{1, 2, 3, 4}, high{5, 6, 7, 8};
  const AdditivePatternDatabase db = AdditivePatternDatabase::build(p, {low, high});
  EXPECT_EQ(db.width(), 3);
  EXPECT_EQ(db.tables().size(), 2u);
  EXPECT_EQ(db.reflected_parts().size(), 2u);
  const std::vector<int> bf_low = brute_force_pattern(p, low);
  const std::vector<int> bf_high = brute_force_pattern(p, high);
  const auto code_of = [&](const std::vector<int>& tiles, const std::array<int, 9>& cell_of) {
    std::size_t code = 0;
    for (std::size_t i = tiles.size(); i-- > 0;) {
      code = code * 9 + static_cast<std::size_t>(cell_of[static_cast<std::size_t>(tiles[i])]);
    }
    return code;
  };
  const auto sum = [&](const std::array<int, 9>& cell_of) {
    return bf_low[code_of(low, cell_of)] + bf_high[code_of(high, cell_of)];
  };
  const auto mirror = [](int c) { return c % 3 * 3 + c / 3; };
  int failures = 0;
  for (const PuzzleState& s : eight_puzzle_boards()) {
    std::array<int, 9> cell_of{}, mirrored{};
    for (int c = 0; c < 9; ++c) {
      cell_of[static_cast<std::size_t>(s.tile_at(c))] = c;
      // On the board reflected in the main diagonal, tile mirror(t) sits on mirror(c).
      mirrored[static_cast<std::size_t>(mirror(s.tile_at(c)))] = mirror(c);
    }
    const int want = std::max(sum(cell_of), sum(mirrored));
    const int d = eight_puzzle_distance(s);
    if ((db(s) != want || db(s) > d) && ++failures <= 10) {
      ADD_FAILURE() << board_string(p, s) << ": db " << db(s) << ", brute force " << want << ", distance " << d;
    }
  }
  EXPECT_EQ(failures, 0);
  // The solver takes any additive database of its width (the enum only says "a database").
  PuzzleSolver solver(p, HeuristicKind::pdb_663, &db);
  for (const PuzzleState& s : random_eight_puzzles(100, 3)) {
    ASSERT_TRUE(solved_optimally(p, s, solver.ida(s), eight_puzzle_distance(s))) << board_string(p, s);
    ASSERT_TRUE(solved_optimally(p, s, solver.astar(s), eight_puzzle_distance(s))) << board_string(p, s);
  }
}

/// 15-puzzle partitions of 3-tile patterns: cheap to build and to brute-force.
int mirror4(int t) { return t % 4 * 4 + t / 4; }
std::vector<int> mirrored_pattern(const std::vector<int>& pattern) {
  std::vector<int> out;
  for (const int t : pattern) out.push_back(mirror4(t));
  return out;
}
const PdbPartition rows_of_three{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}};
// {1,2,3} and {4,8,12} are mirror images, as are {6,7,11} and {9,13,14}; {5,10,15} is its own.
const PdbPartition mirror_pairs{{1, 2, 3}, {6, 7, 11}, {5, 10, 15}, {4, 8, 12}, {9, 13, 14}};

TEST(PatternDatabase, SmallFifteenPuzzlePartitionsEqualBruteForceWithAndWithoutMirroring) {
  const SlidingPuzzle& p = fifteen();
  const AdditivePatternDatabase rows = AdditivePatternDatabase::build(p, rows_of_three);
  const AdditivePatternDatabase rows_direct = AdditivePatternDatabase::build(p, rows_of_three, {}, false);
  const AdditivePatternDatabase pairs = AdditivePatternDatabase::build(p, mirror_pairs);
  // Shapes: the rows build five tables and also sum on the mirrored board; the mirror pairs
  // build three tables, look two patterns up on the mirrored board, and need no reflection.
  EXPECT_EQ(rows.tables().size(), 5u);
  EXPECT_EQ(rows.parts().size(), 5u);
  EXPECT_EQ(rows.reflected_parts().size(), 5u);
  EXPECT_TRUE(rows_direct.reflected_parts().empty());
  EXPECT_EQ(pairs.tables().size(), 3u);
  EXPECT_EQ(pairs.parts().size(), 5u);
  EXPECT_TRUE(pairs.reflected_parts().empty());
  int mirrored_parts = 0;
  for (const auto& part : pairs.parts()) mirrored_parts += part.mirrored ? 1 : 0;
  EXPECT_EQ(mirrored_parts, 2);

  // Brute force: each pattern's exact values on the board itself (the goal is symmetric, so a
  // pattern's mirror image is just another pattern).
  std::vector<std::pair<std::vector<int>, std::vector<int>>> direct, reflected, pair_tables;
  for (const auto& pattern : rows_of_three) {
    direct.emplace_back(pattern, brute_force_pattern(p, pattern));
    const std::vector<int> image = mirrored_pattern(pattern);
    reflected.emplace_back(image, brute_force_pattern(p, image));
  }
  for (const auto& pattern : mirror_pairs) pair_tables.emplace_back(pattern, brute_force_pattern(p, pattern));
  const auto sum = [&](const auto& tables, const PuzzleState& s) {
    int total = 0;
    for (const auto& [pattern, table] : tables) total += brute_force_value(p, pattern, table, s);
    return total;
  };

  std::vector<std::pair<PuzzleState, int>> boards = fifteen_near_goal();
  for (const PuzzleState& s : random_walk(p, 3000, 15)) boards.emplace_back(s, 1000);  // distance unknown
  int failures = 0;
  const auto fail = [&](const PuzzleState& s, const std::string& what) {
    if (++failures <= 10) ADD_FAILURE() << what << " on " << board_string(p, s);
  };
  for (const auto& board : boards) {
    const PuzzleState& s = board.first;  // named, not a structured binding: the lambda below captures it
    const int d = board.second;
    const int r = rows(s), rd = rows_direct(s), m = pairs(s);
    if (rd != sum(direct, s)) fail(s, "rows without reflection " + std::to_string(rd) + " != brute force");
    if (r != std::max(sum(direct, s), sum(reflected, s))) fail(s, "rows with reflection != brute force");
    if (m != sum(pair_tables, s)) fail(s, "mirror pairs " + std::to_string(m) + " != brute force");
    const auto manhattan = static_cast<int>(ManhattanHeuristic(p)(s, p.goal()));
    if (r > d || m > d) fail(s, "inadmissible");
    if (rd < manhattan || m < manhattan) fail(s, "below manhattan");
    p.for_each_successor(s, [&](const PuzzleState& n, Cost) {
      if (!only_the_moved_tiles_parts_change(p, rows, s, n) || !only_the_moved_tiles_parts_change(p, pairs, s, n)) {
        fail(s, "a part without the moved tile changed");
      }
    });
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(boards.size(), 60000u);
}

using test::TempFiles;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_load_error(const std::string& path, const std::string& reason_part) {
  try {
    (void)AdditivePatternDatabase::load(path);
    ADD_FAILURE() << "no error loading " << path;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
  }
}

/// Saves `db`, loads it back, and checks the copy equals it and gives the same values.
void expect_round_trip(const AdditivePatternDatabase& db, const std::string& path,
                       const std::vector<PuzzleState>& boards) {
  db.save(path);
  const AdditivePatternDatabase loaded = AdditivePatternDatabase::load(path);
  EXPECT_TRUE(loaded == db);
  EXPECT_EQ(loaded.width(), db.width());
  ASSERT_EQ(loaded.tables().size(), db.tables().size());
  for (std::size_t t = 0; t < db.tables().size(); ++t) {
    EXPECT_TRUE(loaded.tables()[t] == db.tables()[t]);
    EXPECT_TRUE(std::equal(db.tables()[t].data(), db.tables()[t].data() + db.tables()[t].size(),
                           loaded.tables()[t].data()));
  }
  EXPECT_TRUE(std::equal(loaded.parts().begin(), loaded.parts().end(), db.parts().begin(), db.parts().end()));
  EXPECT_TRUE(std::equal(loaded.reflected_parts().begin(), loaded.reflected_parts().end(),
                         db.reflected_parts().begin(), db.reflected_parts().end()));
  int differences = 0;
  for (const PuzzleState& s : boards) differences += loaded(s) != db(s) ? 1 : 0;
  EXPECT_EQ(differences, 0);
}

TEST(PatternDatabase, SaveAndLoadRoundTripAndRejectBadFiles) {
  const SlidingPuzzle& p = fifteen();
  const TempFiles files;
  const std::vector<PuzzleState> boards = random_walk(p, 2000, 7);
  const AdditivePatternDatabase rows = AdditivePatternDatabase::build(p, rows_of_three);
  expect_round_trip(rows, files.path("rows.pdb"), boards);
  expect_round_trip(AdditivePatternDatabase::build(p, rows_of_three, {}, false), files.path("direct.pdb"), boards);
  expect_round_trip(AdditivePatternDatabase::build(p, mirror_pairs), files.path("pairs.pdb"), boards);
  expect_round_trip(AdditivePatternDatabase::build(eight_puzzle(), {{1, 2, 3, 4}, {5, 6, 7, 8}}),
                    files.path("eight.pdb"),
                    random_eight_puzzles(500, 5));
  // A loaded database drives the solver.
  const AdditivePatternDatabase eight_db = AdditivePatternDatabase::load(files.path("eight.pdb"));
  PuzzleSolver solver(eight_puzzle(), HeuristicKind::pdb_663, &eight_db);
  for (const PuzzleState& s : random_eight_puzzles(20, 20)) {
    EXPECT_TRUE(solved_optimally(eight_puzzle(), s, solver.ida(s), eight_puzzle_distance(s)));
  }

  const std::string bytes = read_bytes(files.path("rows.pdb"));
  ASSERT_GT(bytes.size(), 5 * 3360u);
  expect_load_error(files.write("half.pdb", bytes.substr(0, bytes.size() / 2)), "truncated");
  expect_load_error(files.write("no_checksum.pdb", bytes.substr(0, bytes.size() - 3)), "truncated");
  expect_load_error(files.write("magic_only.pdb", bytes.substr(0, 4)), "truncated");
  expect_load_error(files.write("empty.pdb", ""), "truncated");
  std::string flipped = bytes;
  flipped[bytes.size() / 3] = static_cast<char>(flipped[bytes.size() / 3] ^ 0x10);  // a table value
  expect_load_error(files.write("flipped.pdb", flipped), "checksum mismatch");
  std::string flipped_last = bytes;
  flipped_last.back() = static_cast<char>(flipped_last.back() ^ 0x01);  // the checksum itself
  expect_load_error(files.write("flipped_last.pdb", flipped_last), "checksum mismatch");
  expect_load_error(files.write("longer.pdb", bytes + "x"), "data after the checksum");
  expect_load_error(files.write("text.pdb", "hello, this is not a pattern database\n"),
                    "not a waymark pattern database");
  expect_load_error(files.path("missing.pdb"), "cannot open file");
  // Forged with a matching checksum: a table value made 0 away from the goal would make the
  // solvers stop on a board that is not solved (the fuzzer's finding).
  const std::uint8_t zero = 0;
  expect_load_error(files.write("zeroed.pdb", test::forge(bytes, bytes.size() / 3, &zero, 1)),
                    "a table is 0 away from its goal placement");

  EXPECT_THROW(rows.save(files.path("no/such/dir/x.pdb")), SaveError);
}

TEST(PatternDatabase, BuildReportsProgressUpToOne) {
  const SlidingPuzzle& p = fifteen();
  std::vector<double> single, additive;
  (void)PatternDatabase::build(p, std::vector<int>{1, 2, 3, 4}, [&](double f) { single.push_back(f); });
  // The additive build runs its tables on parallel threads and reports under a lock.
  (void)AdditivePatternDatabase::build(p, rows_of_three, [&](double f) { additive.push_back(f); });
  for (const auto* fractions : {&single, &additive}) {
    ASSERT_FALSE(fractions->empty());
    EXPECT_TRUE(std::is_sorted(fractions->begin(), fractions->end()));
    EXPECT_GT(fractions->front(), 0.0);
    EXPECT_NEAR(fractions->back(), 1.0, 1e-12);
  }
}

TEST(PatternDatabase, InvalidPartitionsThrowBuildError) {
  const SlidingPuzzle& p = fifteen();
  const std::vector<std::pair<PdbPartition, std::string>> bad{
      {{{1, 2, 3, 4, 5, 6, 7, 8}, {8, 9, 10, 11, 12, 13, 14, 15}}, "tile twice"},
      {{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}}, "tile 15 missing"},
      {{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}, "tile 0"},
      {{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 16}}, "tile 16"},
      {{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12, 13, 14, 15}}, "nine tiles"},
      {{{1, 2, 3, 4, 5, 6, 7}, {}, {8, 9, 10, 11, 12, 13, 14, 15}}, "empty pattern"},
      {{{1, 2, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}, "tile twice in one pattern"},
      {{}, "no patterns"},
  };
  for (const auto& [partition, what] : bad) {
    EXPECT_THROW((void)AdditivePatternDatabase::build(p, partition), BuildError) << what;
  }
  EXPECT_THROW((void)PatternDatabase::build(p, std::vector<int>{}), BuildError);
  EXPECT_THROW((void)PatternDatabase::build(p, std::vector<int>{0, 1}), BuildError);
  EXPECT_THROW((void)PatternDatabase::build(p, std::vector<int>{15, 16}), BuildError);
  EXPECT_THROW((void)PatternDatabase::build(p, std::vector<int>{3, 3}), BuildError);
  EXPECT_THROW((void)PatternDatabase::build(p, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}), BuildError);
  EXPECT_THROW((void)PatternDatabase::build(SlidingPuzzle(3), std::vector<int>{9}), BuildError);
}

// ---- pdb-663 ------------------------------------------------------------------------------------

// Chosen for speed, like the lists in solver_test.cpp: IDA* with pdb-663 solves each instance
// in at most 0.05 s in Release.
constexpr std::array<int, 20> korf_pdb{1, 2, 4, 6, 9, 12, 13, 16, 19, 23, 28, 30, 31, 34, 38, 42, 44, 45, 47, 48};
// Built once per process (seconds in Release, far longer under the sanitizers): ctest runs
// every test in a process of its own, so only the two tests below use it.

const AdditivePatternDatabase& pdb663() {
  static const AdditivePatternDatabase db = AdditivePatternDatabase::build(fifteen(), partition_663());
  return db;
}

/// Checks on one board whose true distance is at most `bound`: the value is within it, at
/// least Manhattan (each part at least the Manhattan sum of its tiles), zero only on the
/// goal, the larger sum of the parts, and what PuzzleSolver::estimate reports.
void check_pdb663_on(const PuzzleSolver& solver, const PuzzleState& s, int bound, int& failures) {
  const SlidingPuzzle& p = fifteen();
  const AdditivePatternDatabase& db = pdb663();
  const auto fail = [&](const std::string& what) {
    if (++failures <= 10) ADD_FAILURE() << what << " on " << board_string(p, s);
  };
  const int h = db(s);
  if (h > bound) fail("pdb " + std::to_string(h) + " > true distance " + std::to_string(bound));
  if (static_cast<int>(LinearConflictHeuristic(p)(s, p.goal())) > bound) fail("linear conflict inadmissible");
  if (h < static_cast<int>(ManhattanHeuristic(p)(s, p.goal()))) fail("pdb below manhattan");
  if ((h == 0) != (s == p.goal())) fail("zero off the goal or nonzero on it");
  if (static_cast<int>(db(s, p.goal())) != h) fail("the Heuristic overload differs");
  if (solver.estimate(s) != h) fail("PuzzleSolver::estimate differs");
  const auto cell_of = s.cells_of_tiles(p.cells());
  const auto sum = [&](std::span<const AdditivePatternDatabase::Part> parts) {
    int total = 0;
    for (const AdditivePatternDatabase::Part& part : parts) {
      const int v = db.part_value(part, cell_of.data());
      int manhattan = 0;
      for (const std::uint8_t t : part.tiles) manhattan += tile_manhattan(4, t, cell_of[t]);
      if (v < manhattan) fail("a part's value is below its tiles' manhattan sum");
      total += v;
    }
    return total;
  };
  if (h != std::max(sum(db.parts()), sum(db.reflected_parts()))) fail("the value is not the larger sum of the parts");
}

TEST(PatternDatabase, Pdb663SolvesKorfInstancesOptimally) {
  const SlidingPuzzle& p = fifteen();
  const AdditivePatternDatabase& db = pdb663();
  const std::vector<PuzzleSolution> solutions = solve_korf(HeuristicKind::pdb_663, korf_pdb, &db);
  // Along an optimal solution of length L, the board after i moves is L - i from the goal.
  const PuzzleSolver solver(p, HeuristicKind::pdb_663, &db);
  int failures = 0;
  for (std::size_t k = 0; k < korf_pdb.size(); ++k) {
    const PuzzleInstance& inst = korf(korf_pdb[k]);
    const std::vector<BlankMove>& moves = solutions[k].moves;
    const int length = inst.optimal_length.value_or(-1);
    if (moves.size() != static_cast<std::size_t>(length)) continue;  // reported above
    PuzzleState s = inst.state;
    for (int i = 0; i <= length; ++i) {
      check_pdb663_on(solver, s, length - i, failures);
      if (i < length) s = p.apply(s, moves[static_cast<std::size_t>(i)]).value_or(s);
    }
  }
  EXPECT_EQ(failures, 0);
  // A* with the same heuristic.
  PuzzleSolver astar(p, HeuristicKind::pdb_663, &db, PuzzleSolverOptions{.query = {.max_nodes = 4'000'000}});
  for (const int index : {9, 13, 19, 31, 42, 47}) {
    const PuzzleInstance& inst = korf(index);
    EXPECT_TRUE(solved_optimally(p, inst.state, astar.astar(inst.state), inst.optimal_length.value_or(-1)))
        << "Korf #" << index;
  }
}

TEST(PatternDatabase, Pdb663TablesAdmissibleAboveManhattanAndSavedExactly) {
  const SlidingPuzzle& p = fifteen();
  const AdditivePatternDatabase& db = pdb663();
  // Shape.
  EXPECT_EQ(db.width(), 4);
  ASSERT_EQ(db.tables().size(), 3u);
  std::multiset<std::size_t> sizes;
  for (const PatternDatabase& t : db.tables()) {
    sizes.insert(t.size());
    EXPECT_EQ(t.width(), 4);
    EXPECT_GT(t.max_value(), 0);
    EXPECT_LT(t.max_value(), 255) << "every placement is reached";
  }
  EXPECT_EQ(sizes, (std::multiset<std::size_t>{3360, 5765760, 5765760}));  // 16·15·14, 16!/10!
  EXPECT_EQ(db.parts().size(), 3u);
  EXPECT_EQ(db.reflected_parts().size(), 3u) << "6-6-3 is not its own mirror image";
  std::set<int> direct, reflected;
  for (const auto& part : db.parts()) direct.insert(part.tiles.begin(), part.tiles.end());
  for (const auto& part : db.reflected_parts()) reflected.insert(part.tiles.begin(), part.tiles.end());
  const std::set<int> all{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(direct, all);
  EXPECT_EQ(reflected, all);
  for (int c = 0; c < 16; ++c) {
    EXPECT_EQ(db.mirror(db.mirror(c)), c);
    EXPECT_EQ(db.mirror(c), mirror4(c));
  }
  EXPECT_EQ(db(p.goal()), 0);
  EXPECT_EQ(partition_78(), (PdbPartition{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}));

  // The 3-tile table equals brute force everywhere.
  for (const PatternDatabase& t : db.tables()) {
    if (t.tiles().size() != 3) continue;
    const std::vector<int> tiles(t.tiles().begin(), t.tiles().end());
    const std::vector<int> expected = brute_force_pattern(p, tiles);
    int wrong = 0;
    for_each_placement(16, 3, [&](const std::vector<std::uint8_t>& cells, std::size_t code) {
      wrong += t.value(t.rank(cells.data())) != expected[code] ? 1 : 0;
    });
    EXPECT_EQ(wrong, 0) << "table of " << ::testing::PrintToString(tiles);
  }

  // Admissible within 14 moves of the goal, where breadth-first search gives the distance;
  // above Manhattan there and along a random walk; a move changes only its tile's parts.
  const PuzzleSolver solver(p, HeuristicKind::pdb_663, &db);
  int failures = 0;
  const auto& near = fifteen_near_goal();
  EXPECT_GT(near.size(), 60000u);
  for (const auto& [s, d] : near) check_pdb663_on(solver, s, d, failures);
  const std::vector<PuzzleState> walk = random_walk(p, 20000, 663);
  for (std::size_t i = 0; i < walk.size(); ++i) {
    check_pdb663_on(solver, walk[i], 1000, failures);  // distance unknown: no upper bound
    if (i > 0 && !only_the_moved_tiles_parts_change(p, db, walk[i - 1], walk[i]) && ++failures <= 10) {
      ADD_FAILURE() << "a part without the moved tile changed at step " << i;
    }
  }
  EXPECT_EQ(failures, 0);

  // Saved and loaded back exactly.
  const TempFiles files;
  std::vector<PuzzleState> boards(walk.begin(), walk.begin() + 2000);
  for (const int index : korf_pdb) boards.push_back(korf(index).state);
  expect_round_trip(db, files.path("663.pdb"), boards);
}


}  // namespace
}  // namespace waymark::puzzle_pattern_database_test
