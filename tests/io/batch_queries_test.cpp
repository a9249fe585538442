// Query files for batch runs: plain lines and Moving AI scenarios, and the error each malformed
// file gets.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "support/random_grid.hpp"
#include "waymark/io/batch_queries.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::io_batch_queries_test {
namespace {

using io::BatchQueryFormat;
using io::BatchQueryList;
using io::BatchQueryOptions;

/// 16 columns, 12 rows; one wall cell at (5,5).
grid::GridMap small_map() {
  grid::GridMap map(16, 12);
  map.set_passable(5, 5, false);
  return map;
}

BatchQueryList parse(const std::string& text, const BatchQueryOptions& options = {}) {
  std::istringstream in(text);
  return io::parse_batch_queries(in, "q.txt", small_map(), options);
}

std::string error_of(const std::string& text, const BatchQueryOptions& options = {}) {
  return test::error_text<LoadError>([&] { (void)parse(text, options); });
}

TEST(BatchQueries, PlainLinesWithCommentsBlankLinesTabsAndCrlf) {
  const BatchQueryList list = parse("# start goal\n0 0 15 11\n\n  3\t4   5 6  # tabs and a comment\r\n\r\n15 11 0 0");
  EXPECT_EQ(list.format, BatchQueryFormat::plain);
  EXPECT_EQ(list.source, "q.txt");
  ASSERT_EQ(list.queries.size(), 3u);
  EXPECT_EQ(list.queries[0].start, (grid::CellCoord{0, 0}));
  EXPECT_EQ(list.queries[0].goal, (grid::CellCoord{15, 11}));
  EXPECT_EQ(list.queries[0].line, 2u);
  EXPECT_EQ(list.queries[1].start, (grid::CellCoord{3, 4}));
  EXPECT_EQ(list.queries[1].goal, (grid::CellCoord{5, 6}));
  EXPECT_EQ(list.queries[1].line, 4u);
  EXPECT_EQ(list.queries[2].line, 6u);
  const grid::GridMap map = small_map();
  const std::vector<grid::BatchQuery> cells = list.cells(map);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].start, map.cell(0, 0));
  EXPECT_EQ(cells[0].goal, map.cell(15, 11));
  EXPECT_EQ(cells[2].goal, map.cell(0, 0));
}

TEST(BatchQueries, BlockedCellsAreAcceptedTheirQueriesFailWhenRun) {
  const BatchQueryList list = parse("5 5 0 0\n");
  ASSERT_EQ(list.queries.size(), 1u);
  EXPECT_EQ(list.queries[0].start, (grid::CellCoord{5, 5}));
}

TEST(BatchQueries, AMovingAiScenarioGivesItsQueriesAndLines) {
  const std::string scen_path = test::data_dir + "/maps/arena.map.scen";
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const BatchQueryList list = io::load_batch_queries(scen_path, map);
  const io::Scenario scen = io::load_movingai_scenario(scen_path);
  EXPECT_EQ(list.format, BatchQueryFormat::scenario);
  ASSERT_EQ(list.queries.size(), scen.queries.size());
  ASSERT_EQ(list.queries.size(), 130u);  // 131 lines, the first is the header
  for (std::size_t i = 0; i < list.queries.size(); ++i) {
    EXPECT_EQ(list.queries[i].start, scen.queries[i].start);
    EXPECT_EQ(list.queries[i].goal, scen.queries[i].goal);
    EXPECT_EQ(list.queries[i].line, i + 2);
  }
}

TEST(BatchQueries, EveryMalformedPlainFileGetsItsLineAndReason) {
  EXPECT_EQ(error_of("0 0 1 1\n1 2 3\n"), "q.txt:2: expected 4 integers 'sx sy gx gy', got 3 fields");
  EXPECT_EQ(error_of("0 0 1 1 1\n"), "q.txt:1: expected 4 integers 'sx sy gx gy', got 5 fields");
  EXPECT_EQ(error_of("0,0 1,1\n"), "q.txt:1: expected 4 integers 'sx sy gx gy', got 2 fields");
  EXPECT_EQ(error_of("1 2 3 x\n"), "q.txt:1: expected an integer in column 4, got 'x'");
  EXPECT_EQ(error_of("1 2.5 3 4\n"), "q.txt:1: expected an integer in column 2, got '2.5'");
  EXPECT_EQ(error_of("99999999999 0 0 0\n"), "q.txt:1: expected an integer in column 1, got '99999999999'");
  EXPECT_EQ(error_of("+1 0 0 0\n"), "q.txt:1: expected an integer in column 1, got '+1'");
  EXPECT_EQ(error_of("\n\n0 0 16 0\n"), "q.txt:3: goal (16,0) is outside the 16x12 map");
  EXPECT_EQ(error_of("0 12 0 0\n"), "q.txt:1: start (0,12) is outside the 16x12 map");
  EXPECT_EQ(error_of("-1 0 1 1\n"), "q.txt:1: start (-1,0) is outside the 16x12 map");
  EXPECT_EQ(error_of(""), "q.txt: no queries in the file (expected lines 'sx sy gx gy')");
  EXPECT_EQ(error_of("# nothing\n\n   \r\n"), "q.txt: no queries in the file (expected lines 'sx sy gx gy')");
  // A scenario header anywhere but on the first line is not one.
  EXPECT_EQ(error_of("# a comment first\nversion 1\n"), "q.txt:2: expected 4 integers 'sx sy gx gy', got 2 fields");
  EXPECT_EQ(error_of(std::string(70000, '1')), "q.txt:1: line longer than 65536 bytes");
}

TEST(BatchQueries, TheQueryLimitIsCheckedBeforeTheListGrows) {
  const BatchQueryOptions two{.max_queries = 2};
  EXPECT_EQ(parse("0 0 1 1\n# two\n1 1 2 2\n", two).queries.size(), 2u);
  EXPECT_EQ(error_of("0 0 1 1\n1 1 2 2\n\n2 2 3 3\n", two),
            "q.txt:4: more than 2 queries (BatchQueryOptions::max_queries)");
  const std::string scen =
      "version 1\n"
      "0\tx.map\t16\t12\t0\t0\t1\t1\t1.41421356\n"
      "0\tx.map\t16\t12\t1\t1\t2\t2\t1.41421356\n"
      "0\tx.map\t16\t12\t2\t2\t3\t3\t1.41421356\n";
  EXPECT_EQ(error_of(scen, two), "q.txt:4: more than 2 queries (ScenarioLoadOptions::max_queries)");
  EXPECT_EQ(parse(scen, {.max_queries = 3}).queries.size(), 3u);
}

TEST(BatchQueries, EveryMalformedScenarioGetsItsLineAndReason) {
  const std::string header = "version 1\n";
  EXPECT_EQ(error_of(header), "q.txt: no queries in the scenario");
  EXPECT_EQ(error_of(header + "0\tx.map\t16\t12\t0\t0\t1\t1\t1.4\n0\tx.map\t512\t512\t0\t0\t1\t1\t1.4\n"),
            "q.txt:3: the scenario says its map is 512x512, the map given is 16x12");
  EXPECT_EQ(error_of(header + "0\tx.map\t16\t12\t0\t0\t1\n"),
            "q.txt:2: expected 9 columns (bucket map width height sx sy gx gy length), got 7");
  EXPECT_EQ(error_of(header + "0\tx.map\t16\t12\t0\t0\t16\t1\t1.4\n"), "q.txt:2: start or goal outside the 16x12 map");
  EXPECT_EQ(error_of("version 2\n0\tx.map\t16\t12\t0\t0\t1\t1\t1.4\n"), "q.txt:1: expected 'version 1', got 'version 2'");
  EXPECT_EQ(error_of(header + "0\tx.map\t16\t12\t0\t0\t1\t1\tnan\n"),
            "q.txt:2: optimal length must be a finite number >= 0, got 'nan'");
}

TEST(BatchQueries, AMissingFileIsALoadError) {
  EXPECT_EQ(test::error_text<LoadError>([] { (void)io::load_batch_queries("/nonexistent/q.txt", small_map()); }),
            "/nonexistent/q.txt: cannot open file");
}

}  // namespace
}  // namespace waymark::io_batch_queries_test
