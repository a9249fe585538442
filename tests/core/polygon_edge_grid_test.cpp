// PolygonEdgeGrid (core/polygon_edge_grid.hpp) against brute force over every edge, on random
// star polygons, combs and polygons on an integer lattice (so that query points lie exactly on
// edges and vertices, and rays run exactly along edges): contains equals polygon_contains bit
// for bit, the nearest edge equals a loop over every edge (index, point and distance), and the
// walk along a segment lists every edge within the margin of it.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <numbers>
#include <random>
#include <set>
#include <vector>

#include "support/sanitized.hpp"
#include "support/star_polygons.hpp"
#include "waymark/core/polygon_edge_grid.hpp"

namespace waymark::core_polygon_edge_grid_test {
namespace {

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

/// A comb of `teeth` teeth (4·teeth + 2 corners), teeth and gaps 1 wide, `height` tall.
std::vector<Vec2> comb(int teeth, double height) {
  std::vector<Vec2> p{{-1, 0}, {2.0 * teeth, 0}};
  for (int k = teeth - 1; k >= 0; --k) {
    p.push_back({2.0 * k + 1, 1});
    p.push_back({2.0 * k + 1, height});
    p.push_back({2.0 * k, height});
    p.push_back({2.0 * k, 1});
  }
  return p;
}

std::vector<std::vector<Vec2>> polygons() {
  std::mt19937 rng(3);
  std::vector<std::vector<Vec2>> out;
  out.push_back(comb(40, 20));
  out.push_back(comb(100, 3));
  for (const std::size_t n : {60u, 300u, 1500u}) {
    out.push_back(test::random_star(rng, n, {}, 50, false));
    out.push_back(test::random_star(rng, n, {}, 30, true));
  }
  auto far = test::random_star(rng, 400, {}, 0.01, false);  // small and far from the origin
  for (Vec2& v : far) v += Vec2{1e5, -3e5};
  out.push_back(far);
  return out;
}

/// Query points: random in and around the box, the corners, edge midpoints and points along
/// the edges, and points level with corners. Under ASan every fourth of them, where the brute
/// force over every edge is most of the run (tests/support/sanitized.hpp); 4 is coprime with
/// the 5 points made per edge, so every kind of point is still in the sample.
std::vector<Vec2> queries(std::mt19937& rng, const std::vector<Vec2>& poly) {
  Aabb2 box;
  for (const Vec2 v : poly) box.expand(v);
  const Vec2 pad = box.size() * 0.3;
  std::vector<Vec2> q;
  for (int k = 0; k < 1500; ++k) q.push_back({uniform(rng, box.min.x - pad.x, box.max.x + pad.x), uniform(rng, box.min.y - pad.y, box.max.y + pad.y)});
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
    q.push_back(a);
    q.push_back((a + b) / 2);
    q.push_back(lerp(a, b, uniform(rng, 0, 1)));
    q.push_back({uniform(rng, box.min.x - pad.x, box.max.x + pad.x), a.y});
    q.push_back({a.x, uniform(rng, box.min.y - pad.y, box.max.y + pad.y)});
  }
  q.push_back(box.min - pad * 10);
  q.push_back(box.max + pad * 10);
  constexpr std::size_t stride = test::full_or_sanitized<std::size_t>(1, 4);
  if (stride == 1) return q;
  std::vector<Vec2> sample;
  for (std::size_t i = 0; i < q.size(); i += stride) sample.push_back(q[i]);
  sample.push_back(q.back());
  return sample;
}

TEST(PolygonEdgeGrid, ContainsIsPolygonContainsExactly) {
  std::mt19937 rng(11);
  for (const auto& poly : polygons()) {
    const PolygonEdgeGrid grid(poly);
    int inside = 0, off = 0;
    for (const Vec2 p : queries(rng, poly)) {
      const bool brute = polygon_contains(poly, p);
      ASSERT_EQ(grid.contains(p), brute) << poly.size() << " corners, (" << p.x << ", " << p.y << ")";
      inside += brute;
      // Away from the boundary the shortest scan answers the same.
      double nearest = std::numeric_limits<double>::infinity();
      for (std::uint32_t i = 0; i < poly.size(); ++i) nearest = std::min(nearest, grid.edge(i).distance_to(p));
      if (nearest > 1e-9 * (1 + std::abs(p.x) + std::abs(p.y))) {
        ++off;
        ASSERT_EQ(grid.contains_off_boundary(p), brute) << poly.size() << " corners, (" << p.x << ", " << p.y << ")";
      }
    }
    EXPECT_GT(inside, test::full_or_sanitized(100, 20)) << poly.size();  // the test saw both answers
    EXPECT_GT(off, test::full_or_sanitized(1000, 250)) << poly.size();
  }
}

TEST(PolygonEdgeGrid, NearestEdgeIsTheFirstNearestOfEveryEdge) {
  std::mt19937 rng(12);
  for (const auto& poly : polygons()) {
    const PolygonEdgeGrid grid(poly);
    for (const Vec2 p : queries(rng, poly)) {
      std::uint32_t edge = 0;
      Vec2 point;
      double sq = std::numeric_limits<double>::infinity();
      for (std::uint32_t i = 0; i < poly.size(); ++i) {
        const Segment2 e{poly[i == 0 ? poly.size() - 1 : i - 1], poly[i]};
        const Vec2 q = e.closest_point(p);
        if (length_squared(p - q) < sq) {
          sq = length_squared(p - q);
          point = q;
          edge = i;
        }
      }
      const PolygonEdgeGrid::Nearest got = grid.nearest_edge(p);
      ASSERT_EQ(got.edge, edge) << poly.size() << " corners, (" << p.x << ", " << p.y << ")";
      ASSERT_EQ(got.point, point);
      ASSERT_EQ(got.distance_squared, sq);
    }
  }
}

TEST(PolygonEdgeGrid, WalkListsEveryEdgeWithinTheMargin) {
  std::mt19937 rng(13);
  for (const double margin : {0.0, 1e-3, 0.7}) {
    for (const auto& poly : polygons()) {
      const PolygonEdgeGrid grid(poly, margin);
      const std::vector<Vec2> q = queries(rng, poly);
      for (std::size_t k = 0; k + 1 < q.size(); k += 17) {
        // Segments between query points; every other one from a corner along its edge (to
        // its end, or three times as far).
        Vec2 a = q[k], b = q[k + 1];
        if (k % 2 == 0 && k / 5 < poly.size()) {
          a = poly[k / 5];
          b = a + (poly[(k / 5 + 1) % poly.size()] - a) * (k % 4 == 0 ? 1.0 : 3.0);
        }
        std::vector<char> seen(poly.size(), 0);
        double last_exit = -1;
        grid.walk(a, b - a, 1, [&](std::span<const std::uint32_t> edges, double exit) {
          EXPECT_GE(exit, last_exit);  // cells in order along the segment
          last_exit = exit;
          for (const std::uint32_t e : edges) seen[e] = 1;
          return false;
        });
        for (std::uint32_t i = 0; i < poly.size(); ++i) {
          if (segment_distance(grid.edge(i), {a, b}) <= margin) {
            ASSERT_TRUE(seen[i]) << "edge " << i << " of " << poly.size() << ", margin " << margin << ", segment ("
                                       << a.x << ", " << a.y << ") - (" << b.x << ", " << b.y << ")";
          }
        }
        // Within the margin of a point: listed in its cell.
        const std::span<const std::uint32_t> near = grid.edges_near(a);
        const std::set<std::uint32_t> listed(near.begin(), near.end());
        for (std::uint32_t i = 0; i < poly.size(); ++i) {
          if (grid.edge(i).distance_to(a) <= margin) {
            ASSERT_TRUE(listed.count(i)) << "edge " << i << ", margin " << margin;
          }
        }
      }
    }
  }
}

TEST(PolygonEdgeGrid, DegenerateInputStaysExact) {
  // Every corner on one line, and every corner at one point: no area, still answers.
  const std::vector<Vec2> line{{0, 0}, {5, 0}, {2, 0}, {9, 0}};
  const std::vector<Vec2> dot{{1, 1}, {1, 1}, {1, 1}};
  for (const auto& poly : {line, dot}) {
    const PolygonEdgeGrid grid(poly);
    for (const Vec2 p : {Vec2{1, 1}, Vec2{3, 0}, Vec2{-1, 0}, Vec2{1, 0}, Vec2{20, 20}}) {
      EXPECT_EQ(grid.contains(p), polygon_contains(poly, p));
      EXPECT_EQ(grid.nearest_edge(p).distance_squared,
                std::min({length_squared(p - grid.edge(0).closest_point(p)), length_squared(p - grid.edge(1).closest_point(p)),
                          length_squared(p - grid.edge(2).closest_point(p)),
                          poly.size() > 3 ? length_squared(p - grid.edge(3).closest_point(p)) : 1e300}));
    }
  }
  // Not finite: brute force, no cell.
  const PolygonEdgeGrid grid(comb(10, 5));
  EXPECT_FALSE(grid.contains({std::nan(""), 1}));
  EXPECT_FALSE(grid.walk({std::nan(""), 1}, {1, 0}, 1, [](auto, double) { return true; }));
}

}  // namespace
}  // namespace waymark::core_polygon_edge_grid_test
