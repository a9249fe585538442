#pragma once
// Random star-shaped polygons for the tests of polygon queries (the edge grid, the obstacle
// world's polygons): corners at increasing angles around a centre, so simple unless rounded.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <random>
#include <vector>

#include "waymark/core/geometry.hpp"

namespace waymark::test {

/// n corners (fewer when rounding repeats one) around `centre` at radii in [r/4, r]; rounded to
/// the integer lattice when `lattice` (corners may then line up along edges and rows).
inline std::vector<Vec2> random_star(std::mt19937& rng, std::size_t n, Vec2 centre, double r, bool lattice) {
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> angles(n);
  for (double& a : angles) a = unit(rng) * 2 * std::numbers::pi;
  std::sort(angles.begin(), angles.end());
  std::vector<Vec2> p;
  for (const double a : angles) {
    const double rr = r / 4 + unit(rng) * r * 3 / 4;
    Vec2 v = centre + Vec2{rr * std::cos(a), rr * std::sin(a)};
    if (lattice) v = {std::round(v.x), std::round(v.y)};
    if (p.empty() || p.back() != v) p.push_back(v);
  }
  return p;
}

}  // namespace waymark::test
