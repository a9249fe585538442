// The geometry kernels shared by the worlds (core/clip.hpp, core/grid_walk.hpp,
// core/broad_phase.hpp), each checked against an independent brute force on random input:
// the clip against point sampling, the cell walk against dense sampling along the ray, the
// cell lists and rings against plain loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "waymark/core/broad_phase.hpp"
#include "waymark/core/clip.hpp"
#include "waymark/core/grid_walk.hpp"

namespace waymark::core_geometry_kernels_test {
namespace {

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

bool in_box(Vec2 p, Vec2 lo, Vec2 hi) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }

TEST(Clip, AgreesWithPointSampling) {
  std::mt19937 rng(7);
  int clipped = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec2 lo{uniform(rng, -5, 0), uniform(rng, -5, 0)};
    const Vec2 hi{lo.x + uniform(rng, 0.1, 5), lo.y + uniform(rng, 0.1, 5)};
    const Vec2 o{uniform(rng, -8, 8), uniform(rng, -8, 8)};
    Vec2 d{uniform(rng, -10, 10), uniform(rng, -10, 10)};
    if (trial % 10 == 0) d.x = 0;  // axis-parallel segments
    if (trial % 10 == 1) d.y = 0;
    double t0 = 0, t1 = 1;
    const bool hit = clip_to_box(o, d, lo, hi, t0, t1);
    // Sample the segment densely: every sample inside lies in [t0, t1], and the samples
    // inside reach both ends of it to within the sampling step.
    constexpr int samples = 4000;
    double first = 2, last = -1;
    for (int k = 0; k <= samples; ++k) {
      const double t = static_cast<double>(k) / samples;
      if (!in_box(o + d * t, lo, hi)) continue;
      first = std::min(first, t);
      last = std::max(last, t);
    }
    if (first > 1) {  // no sample inside: at most a sliver the samples missed
      if (hit) {
        EXPECT_LT(t1 - t0, 2.0 / samples) << trial;
      }
      continue;
    }
    ASSERT_TRUE(hit) << trial;
    ++clipped;
    EXPECT_LE(t0, first + 1e-12) << trial;
    EXPECT_GE(t1, last - 1e-12) << trial;
    EXPECT_GT(t0, first - 1.0 / samples - 1e-12) << trial;
    EXPECT_LT(t1, last + 1.0 / samples + 1e-12) << trial;
    // The clipped ends lie on the box (to rounding).
    const Vec2 a = o + d * t0, b = o + d * t1;
    const Vec2 eps{1e-9, 1e-9};
    EXPECT_TRUE(in_box(a, lo - eps, hi + eps)) << trial;
    EXPECT_TRUE(in_box(b, lo - eps, hi + eps)) << trial;
  }
  EXPECT_GT(clipped, 200);  // the draw does hit boxes
}

TEST(Clip, KeepsTheCallersRange) {
  double t0 = 0.25, t1 = 0.5;
  EXPECT_TRUE(clip_to_box({-1, 0.5}, {4, 0}, {0, 0}, {1, 1}, t0, t1));  // inside over t in [0.25, 0.5]
  EXPECT_DOUBLE_EQ(t0, 0.25);
  EXPECT_DOUBLE_EQ(t1, 0.5);
  t0 = 0;
  t1 = 1;
  EXPECT_FALSE(clip_to_box({2, 0.5}, {0, 1}, {0, 0}, {1, 1}, t0, t1));  // parallel, beside the box
}

/// The cells a ray from o along d visits up to parameter t_end, by CellWalk.
std::vector<std::pair<int, int>> walked(Vec2 origin, double side, Vec2 o, Vec2 d, double t_end) {
  std::vector<std::pair<int, int>> cells;
  CellWalk walk(origin, side, o, d, static_cast<int>(std::floor((o.x - origin.x) / side)),
                static_cast<int>(std::floor((o.y - origin.y) / side)));
  double last_exit = 0;
  for (;;) {
    cells.emplace_back(walk.x(), walk.y());
    if (walk.exit() > t_end) return cells;
    EXPECT_GE(walk.exit(), last_exit);  // crossings in order along the ray
    last_exit = walk.exit();
    const CellWalk::Step s = walk.step();
    // The border crossed lies where the ray is at s.t.
    const Vec2 at = o + d * s.t;
    EXPECT_NEAR(s.across_x ? at.x : at.y, s.border, 1e-9);
  }
}

TEST(CellWalk, VisitsTheCellsDenseSamplingFinds) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 1000; ++trial) {
    const Vec2 origin{uniform(rng, -3, 3), uniform(rng, -3, 3)};
    const double side = uniform(rng, 0.3, 2);
    const Vec2 o{uniform(rng, -10, 10), uniform(rng, -10, 10)};
    Vec2 d{uniform(rng, -1, 1), uniform(rng, -1, 1)};
    if (trial % 8 == 0) d.y = 0;
    if (trial % 8 == 1) d.x = 0;
    if (d == Vec2{}) continue;
    const double t_end = uniform(rng, 0, 30) / length(d);
    const auto cells = walked(origin, side, o, d, t_end);
    // Consecutive cells share an edge: one step in x or y.
    for (std::size_t k = 1; k < cells.size(); ++k) {
      EXPECT_EQ(std::abs(cells[k].first - cells[k - 1].first) + std::abs(cells[k].second - cells[k - 1].second), 1) << trial;
    }
    // Every cell a dense sample of [0, t_end] falls in (away from borders, where rounding
    // could go either way) is visited, and no cell is visited twice.
    const std::set<std::pair<int, int>> visited(cells.begin(), cells.end());
    EXPECT_EQ(visited.size(), cells.size()) << trial;
    constexpr int samples = 5000;
    for (int k = 0; k <= samples; ++k) {
      const Vec2 p = o + d * (t_end * k / samples);
      const double u = (p.x - origin.x) / side, v = (p.y - origin.y) / side;
      const double margin = 1e-9;
      if (std::abs(u - std::round(u)) < margin || std::abs(v - std::round(v)) < margin) continue;
      EXPECT_TRUE(visited.count({static_cast<int>(std::floor(u)), static_cast<int>(std::floor(v))})) << trial << " sample " << k;
    }
    // And nothing more: every visited cell but the last is left by the ray within [0, t_end]
    // after it entered, so a sample lies in it (unless it is crossed only at a corner).
    EXPECT_LE(cells.size(), static_cast<std::size_t>(std::ceil(t_end * (std::abs(d.x) + std::abs(d.y)) / side)) + 2) << trial;
  }
}

TEST(CellWalk, ThroughACornerStepsInXFirst) {
  CellWalk walk({0, 0}, 1, {0.5, 0.5}, {1, 1}, 0, 0);
  EXPECT_DOUBLE_EQ(walk.exit(), 0.5);
  const CellWalk::Step s = walk.step();
  EXPECT_TRUE(s.across_x);
  EXPECT_EQ(walk.x(), 1);
  EXPECT_EQ(walk.y(), 0);
  EXPECT_DOUBLE_EQ(walk.exit(), 0.5);  // the y border at the same point
  EXPECT_FALSE(walk.step().across_x);
  EXPECT_EQ(walk.y(), 1);
}

TEST(BroadPhase, GridFrameClampsAndCovers) {
  const UniformGrid grid{{-2, 1}, 0.5, 8, 6};
  EXPECT_EQ(grid.column_of(-100), 0);
  EXPECT_EQ(grid.column_of(100), 7);
  EXPECT_EQ(grid.column_of(-1.75), 0);
  EXPECT_EQ(grid.column_of(-1.5), 1);
  EXPECT_EQ(grid.row_of(3.99), 5);
  EXPECT_EQ(grid.index(3, 2), 19u);
  EXPECT_EQ(grid.max(), (Vec2{2, 4}));
  const UniformGrid::Range r = grid.cells_of({-1.2, 1.6}, {0.1, 1.7});
  EXPECT_EQ(r.x0, 1);
  EXPECT_EQ(r.x1, 4);
  EXPECT_EQ(r.y0, 1);
  EXPECT_EQ(r.y1, 1);
  EXPECT_TRUE(r.contains(2, 1));
  EXPECT_FALSE(r.contains(2, 2));
  EXPECT_FALSE(UniformGrid::Range{}.contains(0, 0));
}

TEST(BroadPhase, RingsCoverEveryCellOnceAndBoundTheirDistance) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const UniformGrid grid{{uniform(rng, -5, 5), uniform(rng, -5, 5)}, uniform(rng, 0.2, 3),
                           std::uniform_int_distribution<int>(1, 12)(rng), std::uniform_int_distribution<int>(1, 12)(rng)};
    const Vec2 p{uniform(rng, -20, 20), uniform(rng, -20, 20)};
    const int cx = grid.column_of(p.x), cy = grid.row_of(p.y);
    std::vector<int> seen(grid.cell_count(), 0);
    double previous_bound = 0;
    for (int k = 0; k < 13; ++k) {
      if (k >= 1) {
        const double bound = ring_bound(grid, p, cx, cy, k);
        EXPECT_GE(bound, previous_bound) << trial;
        previous_bound = bound;
        for_ring(cx, cy, k, grid.columns, grid.rows, [&](int x, int y) {
          // No point of the cell is nearer than the bound.
          const Vec2 lo = grid.cell_min(x, y);
          const double dx = std::max({lo.x - p.x, 0.0, p.x - (lo.x + grid.side)});
          const double dy = std::max({lo.y - p.y, 0.0, p.y - (lo.y + grid.side)});
          EXPECT_GE(std::sqrt(dx * dx + dy * dy), bound - 1e-9) << trial;
        });
      }
      for_ring(cx, cy, k, grid.columns, grid.rows, [&](int x, int y) {
        ASSERT_EQ(std::max(std::abs(x - cx), std::abs(y - cy)), k);
        ++seen[grid.index(x, y)];
      });
    }
    for (const int n : seen) EXPECT_EQ(n, 1) << trial;
  }
}

TEST(BroadPhase, CellListsMatchAPlainScan) {
  std::mt19937 rng(5);
  const std::size_t cells = 37;
  std::vector<std::vector<std::size_t>> lists(200);  // item i's cells, duplicates allowed
  for (auto& l : lists) {
    const int count = std::uniform_int_distribution<int>(0, 4)(rng);
    for (int k = 0; k < count; ++k) l.push_back(std::uniform_int_distribution<std::size_t>(0, cells - 1)(rng));
  }
  CellLists built;
  for (int round = 0; round < 2; ++round) {  // a rebuild reuses the vectors
    built.build(cells, lists.size(), [&](std::size_t i, auto&& add) {
      for (const std::size_t c : lists[i]) add(c);
    });
    ASSERT_EQ(built.begin.size(), cells + 1);
    for (std::size_t c = 0; c < cells; ++c) {
      std::vector<std::uint32_t> expected;
      for (std::size_t i = 0; i < lists.size(); ++i) {
        for (const std::size_t in : lists[i]) {
          if (in == c) expected.push_back(static_cast<std::uint32_t>(i));
        }
      }
      const auto got = built.in(c);
      EXPECT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), expected) << "cell " << c;
    }
  }
  built.build(0, 0, [](std::size_t, auto&&) {});
  EXPECT_EQ(built.begin, std::vector<std::uint32_t>{0});
}

}  // namespace
}  // namespace waymark::core_geometry_kernels_test
