#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "waymark/core/divider.hpp"
#include "waymark/search/priorities.hpp"

namespace waymark::search_priorities_test {
using namespace search;
namespace {

TEST(KeyQuantizer, OffByDefault) {
  const KeyQuantizer off;
  EXPECT_EQ(off(1.0 / 3.0), 1.0 / 3.0);
  EXPECT_EQ(AStarPriority{}(2.0, std::sqrt(2.0)), 2.0 + std::sqrt(2.0));
}

TEST(KeyQuantizer, MakesEqualSumsOfDifferentOrderEqual) {
  // 1 + √2 + √2 + 1 and √2 + 1 + 1 + √2 differ in the last bits as doubles.
  const double r2 = std::sqrt(2.0);
  const double a = ((1.0 + r2) + r2) + 1.0;
  const double b = ((r2 + 1.0) + 1.0) + r2;
  const double c = 0.1 + 0.2;  // 0.30000000000000004
  ASSERT_NE(c, 0.3);
  const KeyQuantizer q(0x1p-20);
  EXPECT_EQ(q(a), q(b));
  EXPECT_EQ(q(c), q(0.3));
  EXPECT_LE(std::abs(q(a) - a), 0x1p-21);
  // Distinct values a quantum apart stay distinct and ordered.
  EXPECT_LT(q(1.0), q(1.0 + 0x1p-20));
}

TEST(KeyQuantizer, LeavesKeysOutsideItsRangeAlone) {
  const KeyQuantizer q(0.5);
  EXPECT_EQ(q(0x1p70), 0x1p70);
  EXPECT_EQ(q(-3.3), -3.3);
  EXPECT_TRUE(std::isinf(q(std::numeric_limits<double>::infinity())));
}

TEST(Divider, MatchesHardwareDivision) {
  for (const std::uint32_t d : {1u, 2u, 3u, 7u, 256u, 257u, 1000u, 65535u, 4294967295u}) {
    const Divider div(d);
    for (const std::uint32_t n : {0u, 1u, d - 1, d, d + 1, 123456789u, 4294967294u, 4294967295u}) {
      const auto [q, r] = div.divide(n);
      EXPECT_EQ(q, n / d) << n << " / " << d;
      EXPECT_EQ(r, n % d) << n << " % " << d;
    }
  }
}

}  // namespace
}  // namespace waymark::search_priorities_test
