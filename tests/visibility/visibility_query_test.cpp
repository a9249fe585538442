// Visibility-graph paths against truths from outside the library: hand-computed lengths, a
// brute-force visibility graph over every corner pair (reference segment tests, no pruning, no
// broad phase, Dijkstra on a dense matrix), and octile grid A* on a rasterised copy of the world.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "support/random_polygons.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/search/events.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::visibility::visibility_query_test {
namespace {

/// The margin the reference tests allow a segment to enter an obstacle by, and by which they
/// may disagree with the library's tolerance; far above rounding, far below any feature.
constexpr double margin = 1e-6;

/// Every segment of the path keeps `radius` from every input polygon (radius 0: does not pass
/// through one), and enters no part of the inflated obstacles.
void expect_clear(const VisibilityGraph& g, const VisibilityPath& p) {
  const double r = g.params().radius;
  for (std::size_t k = 1; k < p.points.size(); ++k) {
    const Vec2 a = p.points[k - 1], b = p.points[k];
    for (std::uint32_t o = 0; o < g.obstacle_count(); ++o) {
      const auto poly = g.obstacle(o);
      if (r > 0) {
        double clearance = test::ref::inside(poly, a, 0) ? 0 : INFINITY;
        for (std::size_t i = 0; i < poly.size(); ++i) {
          clearance = std::min(clearance, test::ref::segment_distance(a, b, poly[i], poly[(i + 1) % poly.size()]));
        }
        EXPECT_GE(clearance, r - margin) << "segment " << k << " passes obstacle " << o << " too close";
      } else {
        EXPECT_FALSE(test::ref::enters(poly, a, b, margin)) << "segment " << k << " crosses obstacle " << o;
      }
    }
    for (std::uint32_t i = 0; i < g.part_count(); ++i) {
      EXPECT_FALSE(test::ref::enters(g.part(i), a, b, margin)) << "segment " << k << " crosses part " << i;
    }
  }
}

/// The shortest path length by brute force: every vertex of every part that lies inside no
/// part, plus both ends; an edge wherever the reference segment test finds no part entered;
/// Dijkstra over the dense matrix. Infinite when the goal is unreachable.
double brute_force_length(const VisibilityGraph& g, Vec2 from, Vec2 to) {
  std::vector<Vec2> nodes{from, to};
  const auto free = [&](Vec2 p) {
    for (std::uint32_t i = 0; i < g.part_count(); ++i) {
      if (test::ref::inside(g.part(i), p, margin)) return false;
    }
    return true;
  };
  for (std::uint32_t i = 0; i < g.part_count(); ++i) {
    for (const Vec2 v : g.part(i)) {
      if (free(v)) nodes.push_back(v);
    }
  }
  const std::size_t n = nodes.size();
  std::vector<double> dist(n, INFINITY);
  std::vector<bool> done(n, false);
  dist[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!done[i] && dist[i] < INFINITY && (u == n || dist[i] < dist[u])) u = i;
    }
    if (u == n || u == 1) break;
    done[u] = true;
    for (std::size_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const double d = distance(nodes[u], nodes[v]);
      if (dist[u] + d >= dist[v]) continue;
      bool blocked = false;
      for (std::uint32_t i = 0; i < g.part_count() && !blocked; ++i) blocked = test::ref::enters(g.part(i), nodes[u], nodes[v], margin);
      if (!blocked) dist[v] = dist[u] + d;
    }
  }
  return dist[1];
}

Vec2 random_point(std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  return {d(rng), d(rng)};
}

TEST(VisibilityQuery, SquareObstacleHandComputed) {
  const Obstacles world{.polygons = {{{0, 0}, {2, 0}, {2, 2}, {0, 2}}}};
  const VisibilityGraph g(world);
  EXPECT_EQ(g.point_count(), 4u);
  VisibilityQuery q(g);
  ASSERT_TRUE(q.find_path({-1, 1}, {3, 1}).succeeded());
  EXPECT_NEAR(q.path().length, 2 + 2 * std::sqrt(2.0), 1e-12);
  ASSERT_EQ(q.path().points.size(), 4u);  // start, two corners on one side, goal
  expect_clear(g, q.path());
  // Along an edge and grazing a corner are free; the goal seen directly is one segment.
  ASSERT_TRUE(q.find_path({-1, 0}, {3, 0}).succeeded());
  EXPECT_DOUBLE_EQ(q.path().length, 4);
  EXPECT_EQ(q.path().points.size(), 2u);
  ASSERT_TRUE(q.find_path({-1, -1}, {3, 3}).succeeded());
  EXPECT_NEAR(q.path().length, 2 * std::sqrt(10.0), 1e-12);  // the diagonal is blocked: via (2,0) or (0,2)
}

/// The exact shortest path from (-4,0) to (4,0) over the square [-1,1]² swept by a disc of
/// radius rho: tangent to the circle around (-1,1), along its arc, straight, and mirrored.
double disc_detour(double rho) {
  const Vec2 p{-4, 0}, c{-1, 1};
  const double d = distance(p, c);
  const double tangent_angle = std::atan2(p.y - c.y, p.x - c.x) + 2 * std::numbers::pi - std::acos(rho / d);
  return 2 * (std::sqrt(d * d - rho * rho) + rho * (tangent_angle - std::numbers::pi / 2)) + 2;
}

TEST(VisibilityQuery, RadiusWrapsTheCircumscribedCorners) {
  // A square of side 2 inflated by r with the corner polygons of 90-degree steps: each corner
  // becomes a square corner at (±(1 + r), ±(1 + r)) around the centre: the inflated obstacle is
  // the square [-1-r, 1+r]², exactly.
  const double r = 0.5;
  const Obstacles world{.polygons = {{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}}};
  const VisibilityGraph g(world, {.radius = r, .arc_step_degrees = 90});
  VisibilityQuery q(g);
  ASSERT_TRUE(q.find_path({-4, 0}, {4, 0}).succeeded());
  const double h = 1 + r;
  EXPECT_NEAR(q.path().length, 2 * std::hypot(4 - h, h) + 2 * h, 1e-9);
  expect_clear(g, q.path());
  // Rounder corners (default step) cut the corner: shorter, but still at least r away.
  const VisibilityGraph round(world, {.radius = r});
  VisibilityQuery qr(round);
  ASSERT_TRUE(qr.find_path({-4, 0}, {4, 0}).succeeded());
  EXPECT_LT(qr.path().length, q.path().length);
  expect_clear(round, qr.path());
  // Between the exact detours for the disc of radius r and of r / cos(step / 2).
  EXPECT_GE(qr.path().length, disc_detour(r) - 1e-9);
  EXPECT_LE(qr.path().length, disc_detour(r / std::cos(22.5 / 2 * std::numbers::pi / 180)) + 1e-9);
  EXPECT_LT(disc_detour(r), q.path().length);
}

TEST(VisibilityQuery, DiagonalOfAConcavePolygonIsBlocked) {
  // A U open at the top: its notch is [1,5] x [1,4].
  const Obstacles world{.polygons = {{{0, 0}, {6, 0}, {6, 4}, {5, 4}, {5, 1}, {1, 1}, {1, 4}, {0, 4}}}};
  const VisibilityGraph g(world);
  ProbeScratch s = g.make_scratch();
  EXPECT_FALSE(g.visible({0, 0}, {6, 4}, s));      // a diagonal through the inside
  EXPECT_FALSE(g.visible({0.5, 0.5}, {3, 3}, s));   // starts inside
  EXPECT_TRUE(g.visible({0, 4}, {6, 4}, s));        // over the notch, touching its two top corners
  EXPECT_TRUE(g.visible({1, 1}, {5, 1}, s));        // along the notch's floor
  EXPECT_TRUE(g.visible({1, 4}, {5, 1}, s));        // inside the notch, corner to corner
  EXPECT_TRUE(g.visible({-1, -1}, {7, -1}, s));
  EXPECT_TRUE(g.visible({0, -1}, {0, 5}, s));       // along the left edge, through two corners
  EXPECT_FALSE(g.visible({0.5, -1}, {0.5, 5}, s));
  EXPECT_EQ(*g.obstacle_at({0.5, 0.5}), 0u);
  EXPECT_FALSE(g.obstacle_at({3, 2}));  // in the notch
  EXPECT_FALSE(g.obstacle_at({0, 0}));  // on the boundary: free
  VisibilityQuery q(g);
  ASSERT_TRUE(q.find_path({3, 2}, {3, -1}).succeeded());  // out of the notch and round
  // Out over an arm's top edge and down its outer side: (1,4), (0,4), (0,0) or their mirror.
  EXPECT_NEAR(q.path().length, std::hypot(2, 2) + 1 + 4 + std::hypot(3, 1), 1e-9);
  expect_clear(g, q.path());
}

TEST(VisibilityQuery, StartOrGoalInsideAnObstacleIsAnInvalidQuery) {
  const Obstacles world{.polygons = {{{0, 0}, {2, 0}, {2, 2}, {0, 2}}}, .bounds = Aabb2{{-5, -5}, {5, 5}}};
  const VisibilityGraph g(world, {.radius = 0.5});
  VisibilityQuery q(g);
  for (const auto& [from, to] : std::vector<std::pair<Vec2, Vec2>>{{{1, 1}, {4, 4}},
                                                                   {{4, 4}, {2.3, 1}},  // inside the inflation only
                                                                   {{4, 4}, {4.8, 0}},  // outside bounds - radius
                                                                   {{NAN, 0}, {4, 4}}}) {
    const Status st = q.find_path(from, to);
    EXPECT_TRUE(st.failed());
    EXPECT_TRUE(st.has(StatusDetail::invalid_query));
    EXPECT_TRUE(q.path().points.empty());
  }
  EXPECT_TRUE(q.find_path({-4, -4}, {4, 4}).succeeded());
}

TEST(VisibilityQuery, WallsWithoutAGapHaveNoPath) {
  // Two overlapping walls close the box's middle: no path, Failure flagged unreachable.
  const Obstacles world{.polygons = {{{0, 4}, {6, 4}, {6, 5}, {0, 5}}, {{5, 4}, {10, 4}, {10, 5}, {5, 5}}},
                        .bounds = Aabb2{{0, 0}, {10, 10}}};
  const VisibilityGraph g(world, {.radius = 0.2});
  VisibilityQuery q(g);
  const Status st = q.find_path({5, 1}, {5, 9});
  EXPECT_TRUE(st.failed());
  EXPECT_EQ(st.detail, StatusDetail::unreachable);
  // A gap of 0.5 lets radius 0.2 through, not radius 0.3.
  const Obstacles gap{.polygons = {{{0, 4}, {5, 4}, {5, 5}, {0, 5}}, {{5.5, 4}, {10, 4}, {10, 5}, {5.5, 5}}},
                      .bounds = Aabb2{{0, 0}, {10, 10}}};
  const VisibilityGraph narrow(gap, {.radius = 0.2});
  VisibilityQuery qn(narrow);
  ASSERT_TRUE(qn.find_path({5, 1}, {5, 9}).succeeded());
  expect_clear(narrow, qn.path());
  const VisibilityGraph wide(gap, {.radius = 0.3});
  VisibilityQuery qw(wide);
  EXPECT_TRUE(qw.find_path({5, 1}, {5, 9}).failed());
}

TEST(VisibilityQuery, PathsStayInsideTheBounds) {
  std::mt19937_64 rng(11);
  Obstacles world = test::random_obstacles(rng, 8, 20, 1, 3);
  world.bounds = Aabb2{{2, 2}, {18, 18}};
  const VisibilityGraph g(world, {.radius = 0.4});
  VisibilityQuery q(g);
  std::size_t found = 0;
  for (int i = 0; i < 40; ++i) {
    if (!q.find_path(random_point(rng, 2.4, 17.6), random_point(rng, 2.4, 17.6)).succeeded()) continue;
    ++found;
    for (const Vec2 p : q.path().points) {
      EXPECT_GE(std::min({p.x - 2.4, p.y - 2.4, 17.6 - p.x, 17.6 - p.y}), -1e-7);
    }
    expect_clear(g, q.path());
  }
  EXPECT_GT(found, 10u);
}

struct RandomCase {
  std::uint64_t seed;
  double radius;
  double arc_step;
};

class VisibilityRandomWorlds : public ::testing::TestWithParam<RandomCase> {};

TEST_P(VisibilityRandomWorlds, ClearAndAsShortAsBruteForce) {
  const RandomCase c = GetParam();
  std::mt19937_64 rng(c.seed);
  const Obstacles world = test::random_obstacles(rng, 6, 12, 0.8, 2.5, 6);
  const VisibilityGraph g(world, {.radius = c.radius, .arc_step_degrees = c.arc_step});
  VisibilityQuery q(g);
  std::size_t compared = 0;
  for (int i = 0; i < 6; ++i) {
    const Vec2 from = random_point(rng, -1, 13), to = random_point(rng, -1, 13);
    if (!g.standable(from) || !g.standable(to)) {
      EXPECT_TRUE(q.find_path(from, to).has(StatusDetail::invalid_query));
      continue;
    }
    const Status st = q.find_path(from, to);
    const double brute = brute_force_length(g, from, to);
    ++compared;
    if (std::isinf(brute)) {
      EXPECT_TRUE(st.failed()) << "seed " << c.seed << " query " << i;
      continue;
    }
    ASSERT_TRUE(st.succeeded()) << "seed " << c.seed << " query " << i << ": brute force found " << brute;
    EXPECT_NEAR(q.path().length, brute, 1e-6 * (1 + brute)) << "seed " << c.seed << " query " << i;
    EXPECT_NEAR(q.path().length, q.search().path().cost, 1e-9);
    EXPECT_EQ(q.path().points.front(), from);
    EXPECT_EQ(q.path().points.back(), to);
    expect_clear(g, q.path());
  }
  EXPECT_GT(compared, 0u);
}

std::vector<RandomCase> random_cases() {
  std::vector<RandomCase> cases;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    cases.push_back({seed, 0, 22.5});
    cases.push_back({seed + 100, 0.3, 45});
    cases.push_back({seed + 200, 0.6, 22.5});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Seeds, VisibilityRandomWorlds, ::testing::ValuesIn(random_cases()),
                         [](const ::testing::TestParamInfo<RandomCase>& param) { return "seed" + std::to_string(param.param.seed); });

/// Octile A* on a grid where a cell is free only if its closed square stays farther than
/// `reach` from every polygon. Every such grid path (start → its cell's centre → cells →
/// the goal cell's centre → goal) is a free path of the visibility world, so the shortest path
/// there can only be shorter:
///   visibility length ≤ grid cost + |start − centre(start cell)| + |goal − centre(goal cell)|.
/// Sound because (1) `reach` bounds the inflated obstacle (every part vertex lies within
/// radius / cos(step/2) of its polygon, checked below), (2) a segment from a point to its
/// cell's centre stays in that free square, and (3) with no corner cutting a diagonal step's
/// segment stays in the four free squares around the shared corner.
TEST(VisibilityQuery, NeverLongerThanOctileGridPaths) {
  const double cell = 0.2;
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 rng(seed);
    const Obstacles world = test::random_obstacles(rng, 10, 16, 0.8, 2.5);
    const double radius = seed % 2 == 0 ? 0.0 : 0.35;
    const VisibilityGraph g(world, {.radius = radius});
    const double reach = radius / std::cos(g.params().arc_step_degrees * std::numbers::pi / 360) + 1e-6;
    for (std::uint32_t i = 0; i < g.part_count(); ++i) {
      for (const Vec2 v : g.part(i)) {
        EXPECT_LE(test::ref::boundary_distance(g.obstacle(g.part_obstacle(i)), v), reach);
      }
    }
    const int side = static_cast<int>(16 / cell);
    std::vector<std::uint8_t> passable(static_cast<std::size_t>(side) * side, 1);
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const Vec2 lo{x * cell, y * cell};
        const std::vector<Vec2> square{lo, lo + Vec2{cell, 0}, lo + Vec2{cell, cell}, lo + Vec2{0, cell}};
        for (const auto& poly : world.polygons) {
          if (test::ref::polygon_distance(square, poly) <= reach) passable[static_cast<std::size_t>(y) * side + x] = 0;
        }
      }
    }
    const grid::GridMap map(side, side, passable, {}, {.cell_size = cell});
    grid::GridPlanner planner(map);
    search::SearchHandle<CellId> planner_search = planner.make_search();
    VisibilityQuery q(g);
    for (int i = 0; i < 30; ++i) {
      const Vec2 from = random_point(rng, 0.01, 15.99), to = random_point(rng, 0.01, 15.99);
      const auto cf = map.world_to_cell(from), ct = map.world_to_cell(to);
      ASSERT_TRUE(cf && ct);
      if (!map.passable(cf->x, cf->y) || !map.passable(ct->x, ct->y)) continue;
      const CellId a = map.cell(cf->x, cf->y), b = map.cell(ct->x, ct->y);
      const bool grid_found = planner_search.run(a, b).succeeded();
      const Status st = q.find_path(from, to);
      ASSERT_FALSE(st.has(StatusDetail::invalid_query)) << "a free cell's point must be standable";
      if (!grid_found) continue;
      ASSERT_TRUE(st.succeeded()) << "seed " << seed << ": the grid found a path";
      const double bound = planner_search.path().cost + distance(from, map.cell_center(a)) + distance(to, map.cell_center(b));
      EXPECT_LE(q.path().length, bound + 1e-9) << "seed " << seed << " query " << i;
      ++compared;
    }
  }
  EXPECT_GT(compared, 100u);
}

TEST(VisibilityQuery, SteppingGivesTheOneShotResultAndEvents) {
  std::mt19937_64 rng(5);
  const Obstacles world = test::random_obstacles(rng, 12, 20, 1, 2.5);
  const VisibilityGraph g(world, {.radius = 0.25});
  search::EventRecorder<std::uint32_t> events;
  VisibilityQuery traced(g, {.events = &events});
  VisibilityQuery oneshot(g);
  std::size_t checked = 0;
  for (int i = 0; i < 20; ++i) {
    const Vec2 from = random_point(rng, 0, 20), to = random_point(rng, 0, 20);
    const Status one = oneshot.find_path(from, to);
    events.clear();
    Status st = traced.begin(from, to);
    std::size_t steps = 0;
    while (st.running()) {
      st = traced.step(search::Budget::of_expansions(1));
      ++steps;
    }
    EXPECT_EQ(st, one);
    EXPECT_EQ(traced.path().points, oneshot.path().points);
    if (!one.succeeded()) continue;
    ++checked;
    EXPECT_EQ(steps, traced.stats().expanded + 1);  // one expansion per step, then the goal
    ASSERT_FALSE(events.events().empty());
    EXPECT_EQ(events.events().front().kind, search::EventKind::begin);
    EXPECT_EQ(events.events().back().kind, search::EventKind::end);
    EXPECT_EQ(traced.search().path().nodes.front(), traced.start_node());
    EXPECT_EQ(traced.search().path().nodes.back(), traced.goal_node());
    EXPECT_EQ(traced.position(traced.goal_node()), to);
  }
  EXPECT_GT(checked, 5u);
}

TEST(VisibilityQuery, CancelAndNodeLimit) {
  std::mt19937_64 rng(8);
  const VisibilityGraph g(test::random_obstacles(rng, 20, 30, 1, 3));
  VisibilityQuery q(g);
  const Vec2 from{-1, -1}, to{31, 31};
  ProbeScratch scratch = g.make_scratch();
  ASSERT_FALSE(g.visible(from, to, scratch));
  ASSERT_TRUE(q.begin(from, to).running());
  q.cancel();
  const Status st = q.step();
  EXPECT_TRUE(st.failed() && st.has(StatusDetail::cancelled));
  VisibilityQuery limited(g, {.query = {.max_nodes = 3}});
  EXPECT_TRUE(limited.find_path(from, to).has(StatusDetail::out_of_nodes));
  VisibilityQuery partial(g, {.query = {.max_nodes = 3, .partial_result = true}});
  const Status p = partial.find_path(from, to);
  EXPECT_TRUE(p.failed() && p.has(StatusDetail::partial_result));
  // The path to the expanded node nearest the goal (here the start may be all it expanded).
  ASSERT_GE(partial.path().points.size(), 1u);
  EXPECT_EQ(partial.path().points.front(), from);
  EXPECT_LE(distance(partial.path().points.back(), to), distance(from, to));
}

TEST(VisibilityQuery, HandPlacedPointsOnly) {
  // Without corner points the path goes through the hand-placed door point, as placed.
  const Obstacles world{.polygons = {{{0, 4}, {4, 4}, {4, 5}, {0, 5}}, {{6, 4}, {10, 4}, {10, 5}, {6, 5}}},
                        .points = {{5, 4.5}},
                        .bounds = Aabb2{{0, 0}, {10, 10}}};
  const VisibilityGraph g(world, {.corner_points = false});
  EXPECT_EQ(g.point_count(), 1u);
  EXPECT_EQ(g.corner_count(), 0u);
  VisibilityQuery q(g);
  ASSERT_TRUE(q.find_path({1, 1}, {1, 9}).succeeded());
  ASSERT_EQ(q.path().points.size(), 3u);
  EXPECT_EQ(q.path().points[1], (Vec2{5, 4.5}));
  EXPECT_TRUE(q.find_path({1, 1}, {9, 9}).succeeded());  // seen directly, grazing the corner (4,4)
  EXPECT_EQ(q.path().points.size(), 2u);
  const VisibilityGraph none({.polygons = world.polygons, .bounds = world.bounds}, {.corner_points = false});
  VisibilityQuery qn(none);
  EXPECT_TRUE(qn.find_path({1, 1}, {1, 9}).failed());
  EXPECT_TRUE(qn.find_path({1, 1}, {3, 3}).succeeded());  // seen directly
}

}  // namespace
}  // namespace waymark::visibility::visibility_query_test
