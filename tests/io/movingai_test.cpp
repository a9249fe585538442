#include <gtest/gtest.h>

#include <sstream>

#include "support/random_grid.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::io_movingai_test {
using namespace grid;
using namespace io;
namespace {

GridMap parse_map(const std::string& text, const MapLoadOptions& o = {}) {
  std::istringstream in(text);
  return parse_movingai_map(in, "test.map", o);
}
Scenario parse_scen(const std::string& text) {
  std::istringstream in(text);
  return parse_movingai_scenario(in, "test.scen");
}

TEST(MovingAiMap, ParsesCellsAndCrlf) {
  const GridMap m = parse_map("type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.G@O\r\nTSW.\r\n");
  EXPECT_EQ(m.width(), 4);
  EXPECT_EQ(m.height(), 2);
  EXPECT_TRUE(m.passable(0, 0));
  EXPECT_TRUE(m.passable(1, 0));
  EXPECT_FALSE(m.passable(2, 0));
  EXPECT_FALSE(m.passable(3, 0));
  EXPECT_FALSE(m.passable(0, 1));
  EXPECT_TRUE(m.passable(1, 1));   // swamp: passable, cost 1 by default
  EXPECT_FALSE(m.passable(2, 1));  // water: blocked by default
  EXPECT_FALSE(m.has_costs());
}

TEST(MovingAiMap, TerrainOptionGivesSwampAndWaterCosts) {
  const GridMap m = parse_map("type octile\nheight 1\nwidth 3\nmap\nSW.\n",
                              MapLoadOptions{.terrain = TerrainCosts{.swamp = 3, .water = 5}});
  EXPECT_DOUBLE_EQ(m.cost_multiplier(m.cell(0, 0)), 3);
  EXPECT_DOUBLE_EQ(m.cost_multiplier(m.cell(1, 0)), 5);
  EXPECT_DOUBLE_EQ(m.cost_multiplier(m.cell(2, 0)), 1);
  EXPECT_TRUE(m.passable(1, 0));
}

TEST(MovingAiMap, BundledCrlfStreetMapLoads) {
  const GridMap m = load_movingai_map(test::data_dir + "/maps/Boston_0_256.map");
  EXPECT_EQ(m.width(), 256);
  EXPECT_EQ(m.height(), 256);
  EXPECT_GT(m.passable_count(), 0u);
}

struct BadInput {
  const char* name;
  const char* text;
  std::size_t line;
  const char* reason_part;
};

/// Parsing `b.text` must throw a LoadError naming `file`, b.line and b.reason_part.
template <class Parse>
void expect_load_error(Parse parse, const BadInput& b, const std::string& file) {
  try {
    (void)parse(b.text);
    FAIL() << "no error for " << b.name;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(e.line(), b.line) << e.what();
    EXPECT_NE(e.reason().find(b.reason_part), std::string::npos) << e.what();
  }
}

class BadMap : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadMap, GivesFileLineAndReason) {
  expect_load_error([](const char* text) { return parse_map(text); }, GetParam(), "test.map");
}

INSTANTIATE_TEST_SUITE_P(
    MovingAiMap, BadMap,
    ::testing::Values(
        BadInput{"empty", "", 0, "missing 'type'"},
        BadInput{"missing_header", "height 2\nwidth 2\nmap\n..\n..\n", 1, "expected 'type octile'"},
        BadInput{"not_octile", "type hex\nheight 1\nwidth 1\nmap\n.\n", 1, "expected 'type octile', got 'type hex'"},
        BadInput{"over_cell_limit", "type octile\nheight 32768\nwidth 32768\nmap\n", 4,
                 "more than the limit of 33554432 (MapLoadOptions::max_cells"},
        BadInput{"control_bytes_escaped", "type octile\nheight 1\nwidth 2\nmap\n.\x1b\n", 5,
                 "bad cell character '\\x1b' at column 1"},
        BadInput{"no_width", "type octile\nheight 2\nmap\n..\n..\n", 3, "expected 'height N' or 'width N'"},
        BadInput{"eof_in_header", "type octile\nheight 2\n", 2, "missing 'height' or 'width'"},
        BadInput{"zero_height", "type octile\nheight 0\nwidth 2\nmap\n", 2, "height must be an integer"},
        BadInput{"negative_width", "type octile\nheight 2\nwidth -3\nmap\n", 3, "width must be an integer"},
        BadInput{"huge_width", "type octile\nheight 2\nwidth 99999999\nmap\n", 3, "width must be"},
        BadInput{"text_width", "type octile\nheight 2\nwidth two\nmap\n", 3, "width must be"},
        BadInput{"no_map_line", "type octile\nheight 1\nwidth 2\n..\n", 4, "expected 'map'"},
        BadInput{"short_row", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6, "row 1 has 2 cells"},
        BadInput{"long_row", "type octile\nheight 2\nwidth 3\nmap\n....\n...\n", 5, "row 0 has 4 cells"},
        BadInput{"truncated", "type octile\nheight 3\nwidth 2\nmap\n..\n..\n", 6, "truncated"},
        BadInput{"bad_char", "type octile\nheight 1\nwidth 3\nmap\n.x.\n", 5, "bad cell character 'x' at column 1"},
        BadInput{"extra_rows", "type octile\nheight 1\nwidth 2\nmap\n..\n..\n", 6, "unexpected text"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

class BadScen : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadScen, GivesFileLineAndReason) {
  expect_load_error([](const char* text) { return parse_scen(text); }, GetParam(), "test.scen");
}

INSTANTIATE_TEST_SUITE_P(
    MovingAiScen, BadScen,
    ::testing::Values(
        BadInput{"empty", "", 0, "missing 'version 1'"},
        BadInput{"missing_header", "0\ta.map\t4\t4\t0\t0\t1\t1\t1.41421356\n", 1, "expected 'version 1'"},
        BadInput{"wrong_version", "version 7\n", 1, "expected 'version 1'"},
        BadInput{"few_columns", "version 1\n0\ta.map\t4\t4\t0\t0\t1\n", 2, "expected 9 columns"},
        BadInput{"many_columns", "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\t1.0\t9\n", 2, "expected 9 columns"},
        BadInput{"negative_coord", "version 1\n0\ta.map\t4\t4\t-1\t0\t1\t1\t1.0\n", 2, "bad number '-1' in column 5"},
        BadInput{"text_coord", "version 1\n0\ta.map\t4\t4\t0\tzero\t1\t1\t1.0\n", 2, "bad number 'zero'"},
        BadInput{"out_of_range", "version 1\n0\ta.map\t4\t4\t0\t0\t4\t1\t3.0\n", 2, "outside the 4x4 map"},
        BadInput{"negative_length", "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\t-1.5\n", 2, "finite number >= 0"},
        BadInput{"nan_length", "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\tnan\n", 2, "finite number >= 0"},
        BadInput{"inf_length", "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\tinf\n", 2, "finite number >= 0"},
        BadInput{"garbage_length", "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\t1.4x\n", 2, "finite number >= 0"},
        BadInput{"bad_bucket", "version 1\nb\ta.map\t4\t4\t0\t0\t1\t1\t1.0\n", 2, "bad bucket"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(MovingAiScen, ParsesLinesPrecisionAndCrlf) {
  const Scenario s = parse_scen("version 1\r\n3\tmaps/x.map\t49\t49\t19\t26\t19\t29\t3.00000000\r\n\r\n"
                                "0\tx.map\t49\t49\t1\t2\t3\t4\t12.5\n");
  ASSERT_EQ(s.queries.size(), 2u);
  const ScenarioQuery& q = s.queries[0];
  EXPECT_EQ(q.bucket, 3);
  EXPECT_EQ(q.map, "maps/x.map");
  EXPECT_EQ(q.start, (CellCoord{19, 26}));
  EXPECT_EQ(q.goal, (CellCoord{19, 29}));
  EXPECT_DOUBLE_EQ(q.optimal, 3.0);
  EXPECT_DOUBLE_EQ(q.printed_unit, 1e-8);
  EXPECT_EQ(q.line, 2u);
  EXPECT_EQ(s.queries[1].line, 4u);
  EXPECT_DOUBLE_EQ(s.queries[1].printed_unit, 0.1);
}

TEST(MovingAiScen, MatchesOptimalAcceptsRoundingTruncationAndTheFilesOwnSlack) {
  ScenarioQuery q;
  q.optimal = 43.11269836;  // arena.map.scen line 106: 12 + 22·sqrt(2) = 43.1126983722...
  q.printed_unit = 1e-8;
  EXPECT_TRUE(q.matches_optimal(12 + 22 * std::sqrt(2.0)));
  EXPECT_TRUE(q.matches_optimal(43.112698355));
  // A path one diagonal-vs-two-cardinals off is 0.59 longer; far smaller errors are caught too.
  EXPECT_FALSE(q.matches_optimal(43.1126996));
  EXPECT_FALSE(q.matches_optimal(43.1126971));
  q.optimal = 3.0;
  EXPECT_TRUE(q.matches_optimal(3.0));
  EXPECT_FALSE(q.matches_optimal(3.0 + 1e-7));
  EXPECT_FALSE(q.matches_optimal(2.9999999));
}

TEST(MovingAiScen, ValidateQueryAgainstMap) {
  const GridMap m = parse_map("type octile\nheight 2\nwidth 2\nmap\n.@\n..\n");
  const Scenario s = parse_scen("version 1\n0\tm.map\t2\t2\t0\t0\t1\t1\t1.41\n"
                                "0\tm.map\t2\t2\t0\t0\t1\t0\t1\n"
                                "0\tm.map\t3\t2\t0\t0\t1\t1\t1\n");
  EXPECT_NO_THROW(validate_query(s, s.queries[0], m, "m.map"));
  try {
    validate_query(s, s.queries[1], m, "m.map");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_NE(e.reason().find("(1,0) is blocked"), std::string::npos);
  }
  // The message names the map checked against (here another file than the scenario's).
  try {
    validate_query(s, s.queries[2], m, "other.map");
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 4u);
    EXPECT_NE(e.reason().find("the scenario's map 'm.map' is 3x2 but 'other.map' is 2x2"), std::string::npos) << e.reason();
  }
}

TEST(MovingAiMap, FileShorterThanItsHeaderIsRefusedWithoutAllocatingTheDeclaredSize) {
  // 32768² cells with the limit raised: the header is legal, the rows are missing. The rows
  // are read before anything grows, so this fails at once (under ASan a 1 GiB allocation would
  // show as a peak far above the few MB this test uses).
  MapLoadOptions o;
  o.max_cells = std::size_t{1} << 30;
  try {
    (void)parse_map("type octile\nheight 32768\nwidth 32768\nmap\n" + std::string(32768, 'S') + "\n", o);
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 5u);  // the last line read
    EXPECT_NE(e.reason().find("truncated: expected 32768 rows, found 1"), std::string::npos) << e.what();
  }
}

TEST(MovingAiMap, ALineWithoutEndIsRefusedAtTheLineLimit) {
  // What `--map /dev/zero` reads: NUL bytes and no line break.
  try {
    (void)parse_map(std::string(1 << 20, '\0'));
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(e.reason().find("line longer than 65536 bytes"), std::string::npos) << e.what();
  }
}

TEST(MovingAiMap, NulBytesAreEscapedInMessages) {
  try {
    (void)parse_map(std::string("type\0octile\nheight 1\n", 21));
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.reason(), "expected 'type octile', got 'type\\x00octile'");
  }
}

TEST(MovingAiMap, RowsAtTheLineLimitStillLoad) {
  const int w = 32768;
  const GridMap m = parse_map("type octile\nheight 1\nwidth " + std::to_string(w) + "\nmap\n" + std::string(w, '.') + "\r\n");
  EXPECT_EQ(m.width(), w);
}

TEST(MovingAi, MissingFileIsALoadError) {
  EXPECT_THROW((void)load_movingai_map("/nonexistent/x.map"), LoadError);
  EXPECT_THROW((void)load_movingai_scenario("/nonexistent/x.map.scen"), LoadError);
}

}  // namespace
}  // namespace waymark::io_movingai_test
