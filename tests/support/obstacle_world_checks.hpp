#pragma once
// What the ObstacleWorld tests (tests/steer/obstacle_world_*_test.cpp) share: their tolerance
// and vectors compared within it.
#include <gtest/gtest.h>

#include <limits>

#include "waymark/core/geometry.hpp"

namespace waymark::test {

inline constexpr double tol = 1e-9;
inline constexpr double inf = std::numeric_limits<double>::infinity();

inline void expect_vec(Vec2 actual, Vec2 expected, double tolerance = tol) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
}

}  // namespace waymark::test
