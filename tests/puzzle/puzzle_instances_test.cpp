// Sliding-puzzle instance lists: the accepted line forms, a table of malformed inputs (each
// must name the file, the line and the reason), and the bundled Korf instances.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "waymark/core/errors.hpp"
#include "waymark/io/puzzle_instances.hpp"

namespace waymark::puzzle_instances_test {
using namespace puzzle;
using namespace io;
namespace {

PuzzleInstanceList parse(const std::string& text, const std::string& name = "list.txt") {
  std::istringstream in(text);
  return parse_puzzle_instances(in, name);
}

const std::vector<int> goal9{0, 1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<int> korf1{14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3};

TEST(PuzzleInstances, SixteenTilesAlone) {
  const PuzzleInstanceList list = parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n");
  EXPECT_EQ(list.width, 4);
  ASSERT_EQ(list.instances.size(), 1u);
  const PuzzleInstance& i = list.instances[0];
  EXPECT_EQ(i.line, 1u);
  EXPECT_FALSE(i.index.has_value());
  EXPECT_FALSE(i.optimal_length.has_value());
  EXPECT_EQ(i.tiles, korf1);
  EXPECT_EQ(i.state, SlidingPuzzle(4).make_state(korf1));
  EXPECT_EQ(i.state.blank, 9);
}

TEST(PuzzleInstances, IndexThenTilesAndIndexLengthThenTiles) {
  const PuzzleInstanceList list = parse(
      "1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n"
      "7 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n"
      "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
  EXPECT_EQ(list.width, 4);
  ASSERT_EQ(list.instances.size(), 3u);
  EXPECT_EQ(list.instances[0].index, 1);
  EXPECT_FALSE(list.instances[0].optimal_length.has_value());
  EXPECT_EQ(list.instances[0].tiles, korf1);
  EXPECT_EQ(list.instances[1].index, 7);
  EXPECT_EQ(list.instances[1].optimal_length, 57);
  EXPECT_EQ(list.instances[1].tiles, korf1);
  EXPECT_EQ(list.instances[1].line, 2u);
  EXPECT_FALSE(list.instances[2].index.has_value());
  EXPECT_EQ(list.instances[2].state, SlidingPuzzle(4).goal());
}

TEST(PuzzleInstances, NineTileBoardsInEveryForm) {
  const PuzzleInstanceList list = parse(
      "0 1 2 3 4 5 6 7 8\n"
      "12 1 0 2 3 4 5 6 7 8\n"
      "13 2 3 1 2 0 4 5 6 7 8\n");
  EXPECT_EQ(list.width, 3);
  ASSERT_EQ(list.instances.size(), 3u);
  EXPECT_EQ(list.instances[0].tiles, goal9);
  EXPECT_EQ(list.instances[0].state, SlidingPuzzle(3).goal());
  EXPECT_EQ(list.instances[1].index, 12);
  EXPECT_FALSE(list.instances[1].optimal_length.has_value());
  EXPECT_EQ(list.instances[1].tiles, (std::vector<int>{1, 0, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(list.instances[1].state.blank, 1);
  EXPECT_EQ(list.instances[2].index, 13);
  EXPECT_EQ(list.instances[2].optimal_length, 2);
  EXPECT_EQ(list.instances[2].tiles, (std::vector<int>{3, 1, 2, 0, 4, 5, 6, 7, 8}));
}

TEST(PuzzleInstances, CrlfBlankLinesCommentsAndTabs) {
  const PuzzleInstanceList list = parse(
      "# header\r\n"
      "\r\n"
      "1 0 1 2 3 4 5 6 7 8\r\n"
      "   # an indented comment\r\n"
      "\t\r\n"
      "2\t1\t0\t2\t3\t4\t5\t6\t7\t8\r\n"
      "#3 0 1 2 3 4 5 6 7 8\r\n"
      "  3   0 1 2 3 4 5 6 7 8   \r\n"
      "\r\n");
  EXPECT_EQ(list.width, 3);
  ASSERT_EQ(list.instances.size(), 3u);
  EXPECT_EQ(list.instances[0].line, 3u);
  EXPECT_EQ(list.instances[0].index, 1);
  EXPECT_EQ(list.instances[0].tiles, goal9);
  EXPECT_EQ(list.instances[1].line, 6u);
  EXPECT_EQ(list.instances[1].index, 2);
  EXPECT_EQ(list.instances[1].tiles, (std::vector<int>{1, 0, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(list.instances[2].line, 8u);
  EXPECT_EQ(list.instances[2].index, 3);
}

TEST(PuzzleInstances, TwoByTwoBoards) {
  const PuzzleInstanceList list = parse("0 1 2 3\n1 0 2 3\n9 1 1 0 2 3\n");
  EXPECT_EQ(list.width, 2);
  ASSERT_EQ(list.instances.size(), 3u);
  EXPECT_FALSE(list.instances[1].index.has_value());
  EXPECT_EQ(list.instances[1].tiles, (std::vector<int>{1, 0, 2, 3}));
  EXPECT_EQ(list.instances[2].index, 9);
  EXPECT_EQ(list.instances[2].optimal_length, 1);
  EXPECT_EQ(list.instances[2].tiles, (std::vector<int>{1, 0, 2, 3}));
}

struct BadList {
  const char* name;
  const char* text;
  std::size_t line;
  const char* reason_part;
};

void PrintTo(const BadList& b, std::ostream* out) { *out << b.name; }

class BadPuzzleList : public ::testing::TestWithParam<BadList> {};

TEST_P(BadPuzzleList, GivesFileLineAndReason) {
  const BadList& b = GetParam();
  try {
    (void)parse(b.text, "bad.txt");
    FAIL() << "no error for " << b.name;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "bad.txt");
    EXPECT_EQ(e.line(), b.line) << e.what();
    EXPECT_NE(e.reason().find(b.reason_part), std::string::npos) << e.what();
    const std::string where = b.line == 0 ? "bad.txt: " : "bad.txt:" + std::to_string(b.line) + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    PuzzleInstances, BadPuzzleList,
    ::testing::Values(
        BadList{"empty", "", 0, "no puzzle instances"},
        BadList{"blank_lines_only", "\n\n  \n", 0, "no puzzle instances"},
        BadList{"comments_only", "# one\n#two\n   # three\n", 0, "no puzzle instances"},
        BadList{"three_fields", "1 2 3\n", 1, "got 3 fields"},
        BadList{"seven_fields", "0 1 2 3 4 5 6\n", 1, "got 7 fields"},
        BadList{"eight_fields", "# c\n0 1 2 3 4 5 6 7\n", 2, "got 8 fields"},
        BadList{"twelve_fields", "0 1 2 3 4 5 6 7 8 9 10 11\n", 1, "got 12 fields"},
        BadList{"fifteen_fields", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 1, "got 15 fields"},
        BadList{"nineteen_fields", "1 2 57 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 1, "got 19 fields"},
        BadList{"wrong_count_later", "0 1 2 3 4 5 6 7 8\n\n# x\n0 1 2 3 4 5 6 7 8 9 10 11 12\n", 4,
                "expected 4, 9 or 16 tiles"},
        BadList{"bad_tile_word", "0 1 2 3 4 5 6 7 x\n", 1, "bad tile \"x\""},
        BadList{"bad_tile_decimal", "0 1 2 3 4 5 6 7 8.0\n", 1, "bad tile \"8.0\""},
        BadList{"bad_tile_plus", "0 1 2 3 4 5 6 7 +8\n", 1, "bad tile \"+8\""},
        BadList{"bad_tile_suffix", "0 1 2 3 4 5 6 7 8x\n", 1, "bad tile \"8x\""},
        BadList{"tile_too_large", "0 1 2 3 4 5 6 7 9\n", 1, "tile 9 out of range 0..8"},
        BadList{"tile_16", "1 2 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16\n", 1, "tile 16 out of range 0..15"},
        BadList{"tile_negative", "0 1 2 3 -4 5 6 7 8\n", 1, "tile -4 out of range 0..8"},
        BadList{"duplicate_tile", "0 1 2 3 4 5 6 7 7\n", 1, "tile 7 appears twice"},
        BadList{"two_blanks", "# c\n\n0 1 2 3 4 5 6 7 0\n", 3, "tile 0 appears twice"},
        BadList{"unsolvable", "0 2 1 3 4 5 6 7 8\n", 1, "unsolvable"},
        BadList{"unsolvable_korf1_swapped", "1 57 13 14 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n", 1, "unsolvable"},
        BadList{"unsolvable_later", "0 1 2 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n1 0 2 4 3 5 6 7 8\n", 3, "unsolvable"},
        BadList{"mixed_4x4_then_3x3",
                "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n0 1 2 3 4 5 6 7 8\n", 2,
                "a 3x3 board in a file of 4x4 boards"},
        BadList{"short_line_in_3x3_file", "0 1 2 3 4 5 6 7 8\n1 0 2 3\n", 2, "a 2x2 board in a file of 3x3 boards"},
        BadList{"mixed_3x3_then_4x4",
                "5 0 1 2 3 4 5 6 7 8\n\n6 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 3,
                "a 4x4 board in a file of 3x3 boards"},
        BadList{"bad_length_word", "1 x 0 1 2 3 4 5 6 7 8\n", 1, "bad solution length \"x\""},
        BadList{"bad_length_negative", "1 -3 0 1 2 3 4 5 6 7 8\n", 1, "bad solution length \"-3\""},
        BadList{"bad_length_decimal", "1 2.5 0 1 2 3 4 5 6 7 8\n", 1, "bad solution length \"2.5\""},
        BadList{"bad_index", "a 0 1 2 3 4 5 6 7 8\n", 1, "bad instance index \"a\""},
        BadList{"bad_index_with_length", "1a 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n", 1,
                "bad instance index \"1a\""},
        BadList{"crlf_line_numbers", "# c\r\n\r\n0 1 2 3 4 5 6 7 8\r\n0 1 2 3 4 5 6 7 x\r\n", 4, "bad tile \"x\""}),
    [](const ::testing::TestParamInfo<BadList>& param_info) { return std::string(param_info.param.name); });

TEST(PuzzleInstances, MissingFileNamesIt) {
  const std::string path = std::string(WAYMARK_DATA_DIR) + "/puzzles/no_such_list.txt";
  try {
    (void)load_puzzle_instances(path);
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(e.reason(), "cannot open file");
  }
}

TEST(PuzzleInstances, BundledKorfInstances1To50) {
  const std::string path = std::string(WAYMARK_DATA_DIR) + "/puzzles/korf100_1-50.txt";
  const PuzzleInstanceList list = load_puzzle_instances(path);
  EXPECT_EQ(list.width, 4);
  ASSERT_EQ(list.instances.size(), 50u);
  const SlidingPuzzle p(4);
  int total = 0;
  for (std::size_t i = 0; i < list.instances.size(); ++i) {
    const PuzzleInstance& inst = list.instances[i];
    EXPECT_EQ(inst.index, static_cast<long>(i + 1));
    ASSERT_TRUE(inst.optimal_length.has_value()) << i + 1;
    EXPECT_GE(*inst.optimal_length, 41);
    EXPECT_LE(*inst.optimal_length, 66);
    total += *inst.optimal_length;
    EXPECT_EQ(p.check(inst.tiles), PuzzleCheck::ok);
    EXPECT_EQ(inst.state, p.make_state(inst.tiles));
  }
  const PuzzleInstance& first = list.instances.front();
  EXPECT_EQ(first.line, 7u);  // after six comment lines
  EXPECT_EQ(first.optimal_length, 57);
  EXPECT_EQ(first.tiles, korf1);
  EXPECT_EQ(list.instances[16].optimal_length, 66);  // #17, the longest of Korf's 100
  EXPECT_EQ(list.instances[41].optimal_length, 42);
  EXPECT_EQ(list.instances.back().line, 56u);
  EXPECT_EQ(total, 2664);
}

}  // namespace
}  // namespace waymark::puzzle_instances_test
