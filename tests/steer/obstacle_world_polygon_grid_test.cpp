// ObstacleWorld's large polygons (issue 32): with an edge grid (PolygonEdgeGrid, above
// polygon_grid_above corners) every query answers exactly as the same world testing every edge
// — raycasts (point, normal, distance, collider), disc contacts, clearance and distances — on
// random star polygons of either winding, combs and lattice polygons whose edges random queries
// start on and run along.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "support/sanitized.hpp"
#include "support/star_polygons.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer_obstacle_world_polygon_grid_test {
namespace {

using namespace waymark::steer;

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

std::vector<Vec2> comb(int teeth, Vec2 at) {
  std::vector<Vec2> p{at + Vec2{-1, 0}, at + Vec2{2.0 * teeth, 0}};
  for (int k = teeth - 1; k >= 0; --k) {
    for (const Vec2 v : {Vec2{2.0 * k + 1, 1}, Vec2{2.0 * k + 1, 9}, Vec2{2.0 * k, 9}, Vec2{2.0 * k, 1}}) p.push_back(at + v);
  }
  return p;
}

void expect_same(const std::optional<RayHit>& got, const std::optional<RayHit>& want, int query) {
  ASSERT_EQ(got.has_value(), want.has_value()) << "query " << query;
  if (!got) return;
  EXPECT_EQ(got->point, want->point) << "query " << query;
  EXPECT_EQ(got->normal, want->normal) << "query " << query;
  EXPECT_EQ(got->distance, want->distance) << "query " << query;
  EXPECT_EQ(got->collider, want->collider) << "query " << query;
}

TEST(ObstacleWorldPolygonGrid, AnswersAsEveryEdge) {
  std::mt19937 rng(5);
  ObstacleWorld gridded;  // default: polygons above polygon_edge_grid_threshold corners get a grid
  ObstacleWorld brute({.polygon_grid_above = SIZE_MAX});
  std::vector<std::vector<Vec2>> polys{test::random_star(rng, 400, {0, 0}, 30, false), test::random_star(rng, 300, {70, 10}, 25, true),
                                       comb(60, {-60, 40}), test::random_star(rng, 2000, {20, -70}, 40, false),
                                       test::random_star(rng, 40, {-40, -40}, 8, false)};  // under the threshold
  std::reverse(polys[1].begin(), polys[1].end());                            // clockwise
  for (const auto& p : polys) {
    gridded.add(Polygon{p});
    brute.add(Polygon{p});
  }
  gridded.add(Circle{{50, 50}, 3});
  brute.add(Circle{{50, 50}, 3});

  std::vector<Vec2> corners;
  for (const auto& p : polys) corners.insert(corners.end(), p.begin(), p.end());
  std::vector<Contact> a, b;
  // Under ASan 1,500 of the 6,000 rays (every kind of origin and direction: q % 5).
  for (int q = 0; q < test::full_or_sanitized(6000, 1500); ++q) {
    // Origins: random, a corner, a point on an edge; directions: random, along the edge.
    const auto& poly = polys[static_cast<std::size_t>(q) % polys.size()];
    const std::size_t k = std::uniform_int_distribution<std::size_t>(0, poly.size() - 1)(rng);
    const Vec2 c0 = poly[k], c1 = poly[(k + 1) % poly.size()];
    Vec2 o{uniform(rng, -110, 110), uniform(rng, -120, 80)};
    Vec2 d{uniform(rng, -1, 1), uniform(rng, -1, 1)};
    switch (q % 5) {
      case 1: o = c0; break;
      case 2: o = lerp(c0, c1, 0.5); break;
      case 3:
        o = c0 - (c1 - c0) * 2.0;
        d = c1 - c0;
        break;
      case 4: d = c0 - o; break;
      default: break;
    }
    const double reach = q % 3 == 0 ? std::numeric_limits<double>::infinity() : uniform(rng, 0, 80);
    expect_same(gridded.raycast(o, d, reach), brute.raycast(o, d, reach), q);
    const double r = uniform(rng, 0.01, 6);
    ASSERT_EQ(gridded.disc_contacts(o, r, all_layers, a), brute.disc_contacts(o, r, all_layers, b)) << q;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].normal, b[i].normal) << q;
      EXPECT_EQ(a[i].depth, b[i].depth) << q;
      EXPECT_EQ(a[i].collider, b[i].collider) << q;
    }
    EXPECT_EQ(gridded.clearance(o, 50), brute.clearance(o, 50)) << q;
    for (std::uint32_t id = 0; id < polys.size(); ++id) {
      EXPECT_EQ(gridded.distance(ColliderId{id}, o), brute.distance(ColliderId{id}, o)) << q;
    }
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace waymark::steer_obstacle_world_polygon_grid_test
