#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_set>

#include "waymark/core/assert.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/ids.hpp"
#include "waymark/core/path.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/core/text.hpp"
#include "waymark/core/version.hpp"
#include "waymark/grid/grid_map.hpp"

namespace waymark::core_test {
namespace {

TEST(StrongId, DefaultIsInvalidAndComparesByValue) {
  EXPECT_FALSE(CellId{}.valid());
  EXPECT_TRUE(CellId{3}.valid());
  EXPECT_LT(CellId{2}, CellId{3});
  EXPECT_EQ(CellId{7}, CellId{7});
  std::unordered_set<CellId> set{CellId{1}, CellId{1}, CellId{2}};
  EXPECT_EQ(set.size(), 2u);
  static_assert(!std::is_convertible_v<CellId, VertexId>, "ids of different kinds must not mix");
}

TEST(Status, DetailFlagsCombine) {
  const Status s{SearchState::failure, StatusDetail::cancelled | StatusDetail::partial_result};
  EXPECT_TRUE(s.failed());
  EXPECT_TRUE(s.finished());
  EXPECT_FALSE(s.succeeded());
  EXPECT_TRUE(s.has(StatusDetail::cancelled));
  EXPECT_TRUE(s.has(StatusDetail::partial_result));
  EXPECT_FALSE(s.has(StatusDetail::out_of_nodes));
  EXPECT_EQ(to_string(SearchState::success), "success");
  EXPECT_EQ(to_string(SearchState::not_started), "not-started");
}

TEST(Path, StepsAndClear) {
  Path<int> p;
  EXPECT_EQ(p.steps(), 0u);
  p.nodes = {1, 2, 3};
  p.cost = 2;
  EXPECT_EQ(p.steps(), 2u);
  const auto capacity = p.nodes.capacity();
  p.clear();
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.cost, infinite_cost);  // no path: no finite cost
  EXPECT_EQ(p.nodes.capacity(), capacity);
}

TEST(NumberText, ShortestTextThatReadsBackExactly) {
  // std::to_string wrote "0.000000" for 1e-9 and "10000.000000" for 10000.
  EXPECT_EQ(number_text(1e-9), "1e-09");
  EXPECT_EQ(number_text(10000), "10000");
  EXPECT_EQ(number_text(0.3), "0.3");
  EXPECT_EQ(number_text(-2.5), "-2.5");
  EXPECT_EQ(number_text(0), "0");
  EXPECT_EQ(number_text(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(std::stod(number_text(0.1 + 0.2)), 0.1 + 0.2);
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
  // Plain digits from 0.0001 up to 1e15, the exponent form beyond (shortest alone wrote 1e+06).
  EXPECT_EQ(number_text(1e6), "1000000");
  EXPECT_EQ(number_text(-2e6), "-2000000");
  EXPECT_EQ(number_text(1e-4), "0.0001");
  EXPECT_EQ(number_text(9e-5), "9e-05");
  EXPECT_EQ(number_text(1e15), "1e+15");
  EXPECT_EQ(number_text(123456789012345.6), "123456789012345.6");
  EXPECT_EQ(number_text(1e300), "1e+300");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(NumberText, MeasuresAreRoundedWholeNumbersAreDigits) {
  EXPECT_EQ(number_text(0.40000000000000036), "0.40000000000000036");
  EXPECT_EQ(number_text(0.40000000000000036, 15), "0.4");
  EXPECT_EQ(number_text(2.0 / 3, 3), "0.667");
  EXPECT_EQ(number_text(1e300 / 3, 15), "3.33333333333333e+299");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity(), 15), "inf");
  EXPECT_EQ(number_text(std::size_t{16777216}), "16777216");
  EXPECT_EQ(number_text(-3), "-3");
  EXPECT_EQ(number_text(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(number_text(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
}

// A failed assertion never ends the host: the handler is told, then AssertionFailure is
// thrown, so a C or Python host gets an error (issue 42).
TEST(Assertions, AFailedAssertionCallsTheHandlerThenThrows) {
  struct Told {
    int calls = 0;
    std::string expr, file;
  } told;
  const AssertHandler previous = set_assert_handler(
      [](const char* expr, const char* file, int line, void* context) {
        auto& t = *static_cast<Told*>(context);
        ++t.calls;
        t.expr = expr;
        t.file = file;
        EXPECT_GT(line, 0);
      },
      &told);
  int& calls = told.calls;
  try {
    WAYMARK_ASSERT(1 + 1 == 3);
    ADD_FAILURE() << "no exception";
  } catch (const AssertionFailure& e) {
    EXPECT_NE(std::string(e.what()).find("core_test.cpp:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("assertion failed: 1 + 1 == 3"), std::string::npos) << e.what();
    EXPECT_GT(e.line(), 0);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(told.expr, "1 + 1 == 3");
  EXPECT_NE(told.file.find("core_test.cpp"), std::string::npos);
  // An assertion inside the library: a cell outside the map, asked for unchecked.
  const grid::GridMap map(3, 3);
  EXPECT_THROW(static_cast<void>(map.cell(5, 5)), AssertionFailure);
  EXPECT_EQ(calls, 2);
  EXPECT_NE(told.file.find("grid_map.hpp"), std::string::npos) << told.file;
  EXPECT_NE(set_assert_handler(previous), nullptr);
  EXPECT_THROW(static_cast<void>(map.cell(-1, 0)), AssertionFailure);  // no handler: thrown all the same
  EXPECT_EQ(calls, 2);
}

TEST(Version, TheLibrarySaysTheHeadersVersion) {
  EXPECT_EQ(version(), WAYMARK_VERSION_STRING);
  EXPECT_EQ(WAYMARK_VERSION_NUMBER, WAYMARK_VERSION_MAJOR * 10000 + WAYMARK_VERSION_MINOR * 100 + WAYMARK_VERSION_PATCH);
}

TEST(WorkerThreads, AtLeastOneAndOneWithoutThreads) {
  EXPECT_EQ(worker_threads(3), threads_available ? 3u : 1u);
  EXPECT_EQ(worker_threads(8, 2), threads_available ? 2u : 1u);
  EXPECT_GE(worker_threads(0), 1u);
  EXPECT_EQ(worker_threads(5, 0), 1u);
}

TEST(LoadError, CarriesFileLineAndReason) {
  const LoadError e("maps/a.map", 7, "bad cell character 'x'");
  EXPECT_EQ(e.file(), "maps/a.map");
  EXPECT_EQ(e.line(), 7u);
  EXPECT_EQ(e.reason(), "bad cell character 'x'");
  EXPECT_STREQ(e.what(), "maps/a.map:7: bad cell character 'x'");
  EXPECT_STREQ(LoadError("f", 0, "cannot open file").what(), "f: cannot open file");
}

}  // namespace
}  // namespace waymark::core_test
