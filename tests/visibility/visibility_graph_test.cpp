// VisibilityGraph: the polygon checks, the inputs a build refuses, the inflation's shape, and
// the segment test (grid walk included) against the reference test on random segments.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "support/error_text.hpp"
#include "support/random_polygons.hpp"
#include "waymark/visibility/visibility_graph.hpp"

namespace waymark::visibility::visibility_graph_test {
namespace {

std::string problem(std::vector<Vec2> p) {
  const auto why = polygon_problem(p);
  return why ? why->reason + " @" + std::to_string(why->vertex) : "";
}

TEST(VisibilityGraph, PolygonProblemsAreNamed) {
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {0, 1}}), "");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {1, 1}, {0.5, 0.2}, {0, 1}}), "");  // concave is fine
  EXPECT_EQ(problem({{0, 0}, {1, 0}}), "2 vertices; at least 3 are needed @0");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {1, 0}, {0, 1}}), "vertex 2 repeats vertex 1 @2");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {0, 1}, {0, 0}}),
            "the last vertex repeats the first (polygons close by themselves: leave it out) @3");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {2, 0}}), "the edges at vertex 0 fold back over each other @0");
  EXPECT_EQ(problem({{0, 0}, {2, 0}, {1, 0}, {1, 1}}), "the edges at vertex 1 fold back over each other @1");  // a spike
  EXPECT_EQ(problem({{0, 0}, {2, 2}, {2, 0}, {0, 2}}), "edges 0-1 and 2-3 cross or touch (not a simple polygon) @2");  // a bow tie
  EXPECT_EQ(problem({{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}}), "edges 0-1 and 2-3 cross or touch (not a simple polygon) @2")
      << "a vertex on another edge";
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {NAN, 1}}), "vertex 2 is not finite @2");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {INFINITY, 1}}), "vertex 2 is not finite @2");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {2e6, 1}}), "vertex 2 lies outside ±1000000 @2");
  EXPECT_EQ(problem({{0, 0}, {1, 0}, {0.5, 1e-9}}), "the edges at vertex 0 fold back over each other @0");  // no area
}

TEST(VisibilityGraph, BuildRefusesBadInputWithTheCulprit) {
  const std::vector<Vec2> square{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  const auto refusal = [](const Obstacles& o, const VisibilityParams& p) -> std::pair<std::string, std::size_t> {
    try {
      const VisibilityGraph g(o, p);
    } catch (const InputError& e) {
      return {e.what(), static_cast<std::size_t>(e.item()) * 100 + e.index()};
    }
    return {"", 0};
  };
  using Item = InputError::Item;
  const auto at = [](Item item, std::size_t index) { return static_cast<std::size_t>(item) * 100 + index; };
  EXPECT_EQ(refusal({.polygons = {square, {{0, 0}, {1, 1}, {1, 0}, {0, 1}}}}, {}),
            std::make_pair(std::string("polygon 1: edges 0-1 and 2-3 cross or touch (not a simple polygon)"), at(Item::polygon, 1)));
  EXPECT_EQ(refusal({.polygons = {square}, .points = {{5, 5}, {2.2, 1}}}, {.radius = 0.5}),
            std::make_pair(std::string("point 1 (2.2, 1) lies inside obstacle 0 inflated by radius 0.5"), at(Item::point, 1)));
  EXPECT_EQ(refusal({.polygons = {square}, .points = {{5, 5}}, .bounds = Aabb2{{-1, -1}, {5, 5}}}, {.radius = 0.5}),
            std::make_pair(std::string("point 0 (5, 5) lies outside the bounds shrunk by radius 0.5"), at(Item::point, 0)));
  EXPECT_EQ(refusal({.polygons = {square}, .points = {{NAN, 5}}}, {}).second, at(Item::point, 0));
  EXPECT_EQ(refusal({.bounds = Aabb2{{0, 0}, {1, 1}}}, {.radius = 0.6}),
            std::make_pair(std::string("bounds leave no room for an agent of radius 0.6"), at(Item::bounds, 0)));
  EXPECT_EQ(refusal({.bounds = Aabb2{{0, 0}, {NAN, 1}}}, {}).second, at(Item::bounds, 0));
  EXPECT_EQ(refusal({}, {.radius = -1}).first, "radius must be a finite number from 0 to 1000000, got -1");
  EXPECT_EQ(refusal({}, {.radius = NAN}).second, at(Item::params, 0));
  EXPECT_EQ(refusal({}, {.arc_step_degrees = 0.5}).first, "arc step must be from 1 to 90 degrees, got 0.5");
  EXPECT_EQ(refusal({}, {.tolerance = 0}).second, at(Item::params, 0));
  // An empty world is fine: no points, everything visible.
  const VisibilityGraph empty(Obstacles{});
  ProbeScratch s = empty.make_scratch();
  EXPECT_EQ(empty.point_count(), 0u);
  EXPECT_TRUE(empty.visible({0, 0}, {1e5, -1e5}, s));
}

TEST(VisibilityGraph, CornersOfTheInflation) {
  const std::vector<Vec2> triangle{{0, 0}, {4, 0}, {0, 3}};
  // Radius 0: the convex corners (here all three); the winding does not matter.
  const VisibilityGraph g0({.polygons = {{triangle.rbegin(), triangle.rend()}}});
  EXPECT_EQ(g0.point_count(), 3u);
  EXPECT_EQ(g0.edge_count(), 3u);  // the three sides
  EXPECT_GT(polygon_signed_area(g0.obstacle(0)), 0);
  // Radius r: every corner point lies between r and r / cos(step / 2) from the triangle, and
  // outside it; the pieces are convex and counter-clockwise.
  const double r = 0.5;
  for (const double step : {10.0, 22.5, 45.0, 90.0}) {
    const VisibilityGraph g({.polygons = {triangle}}, {.radius = r, .arc_step_degrees = step});
    const double outer = r / std::cos(step / 2 * std::numbers::pi / 180);
    EXPECT_GE(g.point_count(), 3u);
    for (const Vec2 p : g.points()) {
      const double d = test::ref::boundary_distance(g.obstacle(0), p);
      EXPECT_GE(d, r - 1e-9);
      EXPECT_LE(d, outer + 1e-9);
      EXPECT_EQ(test::ref::winding(g.obstacle(0), p), 0);
    }
    for (std::uint32_t i = 0; i < g.part_count(); ++i) EXPECT_GT(polygon_signed_area(g.part(i)), 0);
    // Each convex corner of turn a gets ceil(a / step) arc corners.
    std::size_t expected = 0;
    for (const double turn : {std::numbers::pi - std::atan2(3, 4), std::numbers::pi / 2, std::numbers::pi / 2 + std::atan2(3, 4)}) {
      expected += static_cast<std::size_t>(std::ceil(turn / (step * std::numbers::pi / 180) - 1e-9));
    }
    EXPECT_EQ(g.point_count(), expected) << "step " << step;
  }
}

TEST(VisibilityGraph, TangencyPrunesArcsThroughACorner) {
  // Two squares in a row: the segment between the near corners of each is tangent at both;
  // the one from a square's corner across its own far side is not an arc.
  const VisibilityGraph g({.polygons = {{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, {{3, 0}, {4, 0}, {4, 1}, {3, 1}}}});
  ASSERT_EQ(g.point_count(), 8u);
  const auto index = [&](Vec2 p) {
    for (std::uint32_t i = 0; i < g.point_count(); ++i) {
      if (g.point(i) == p) return i;
    }
    return UINT32_MAX;
  };
  EXPECT_TRUE(g.tangent_at(index({1, 1}), {3, 1}));
  EXPECT_FALSE(g.tangent_at(index({1, 1}), {-1, 0.5}));  // the line through (1,1) enters the square
  EXPECT_TRUE(g.tangent_at(index({1, 1}), {3, 0}));
  const auto has_arc = [&](Vec2 a, Vec2 b) {
    for (const VisibilityArc& arc : g.arcs(index(a))) {
      if (g.point(arc.to) == b) return true;
    }
    return false;
  };
  EXPECT_TRUE(has_arc({1, 1}, {3, 1}));
  EXPECT_TRUE(has_arc({1, 1}, {3, 0}));  // a bitangent crossing between the squares
  EXPECT_TRUE(has_arc({0, 1}, {4, 1}));  // along both top sides
  EXPECT_FALSE(has_arc({0, 0}, {1, 1}));  // the diagonal
  for (std::uint32_t i = 0; i < g.point_count(); ++i) {
    for (const VisibilityArc& a : g.arcs(i)) EXPECT_DOUBLE_EQ(a.cost, distance(g.point(i), g.point(a.to)));
  }
}

TEST(VisibilityGraph, SegmentTestAgreesWithTheReference) {
  std::size_t blocked = 0, free = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    std::mt19937_64 rng(seed);
    const Obstacles world = test::random_obstacles(rng, 25, 30, 0.5, 3);
    const VisibilityGraph g(world, {.radius = seed % 2 == 0 ? 0.0 : 0.4});
    ProbeScratch s = g.make_scratch();
    std::uniform_real_distribution<double> pos(-5, 35);
    for (int i = 0; i < 400; ++i) {
      // Half the segments end at points of the graph, where grazing and tangency happen.
      const Vec2 a = i % 2 == 0 && g.point_count() > 0 ? g.point(static_cast<std::uint32_t>(rng() % g.point_count())) : Vec2{pos(rng), pos(rng)};
      const Vec2 b = i % 4 == 0 && g.point_count() > 0 ? g.point(static_cast<std::uint32_t>(rng() % g.point_count())) : Vec2{pos(rng), pos(rng)};
      bool ref_blocked = false;
      for (std::uint32_t k = 0; k < g.part_count() && !ref_blocked; ++k) ref_blocked = test::ref::enters(g.part(k), a, b, 1e-6);
      EXPECT_EQ(g.visible(a, b, s), !ref_blocked) << "seed " << seed << " segment " << i;
      (ref_blocked ? blocked : free) += 1;
      const bool point_blocked = [&] {
        for (std::uint32_t k = 0; k < g.part_count(); ++k) {
          if (test::ref::inside(g.part(k), a, 1e-6)) return true;
        }
        return false;
      }();
      EXPECT_EQ(g.obstacle_at(a).has_value(), point_blocked);
    }
  }
  EXPECT_GT(blocked, 500u);
  EXPECT_GT(free, 300u);
}

}  // namespace
}  // namespace waymark::visibility::visibility_graph_test
