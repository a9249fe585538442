// Crowd avoidance (issue 14): the spatial hash against brute force, ORCA's guarantee on pairs
// (the chosen velocities do not collide within the time horizon), whole scenes run with a plain
// integrator (swaps, circles, overlapping and coincident starts), the edge cases of the input,
// determinism, and the sampled velocity-obstacle solver kept for comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "waymark/steer/orca.hpp"
#include "waymark/steer/spatial_hash.hpp"

namespace steer_orca_test {
namespace {

using namespace waymark;
using namespace waymark::steer;

// ---------------------------------------------------------------------------------------------
// SpatialHash

struct Hit {
  std::size_t index;
  double d2;
  friend bool operator==(const Hit&, const Hit&) = default;
};

std::vector<Hit> query(const SpatialHash& hash, Vec2 p, double r) {
  std::vector<Hit> hits;
  hash.for_each_within(p, r, [&](std::size_t i, double d2) { hits.push_back({i, d2}); });
  return hits;
}

std::vector<Hit> brute_force(const std::vector<Vec2>& points, Vec2 p, double r) {
  std::vector<Hit> hits;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double d2 = length_squared(points[i] - p);
    if (d2 <= r * r) hits.push_back({i, d2});
  }
  return hits;
}

std::vector<Hit> sorted(std::vector<Hit> hits) {
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.index < b.index; });
  return hits;
}

TEST(SpatialHash, FindsExactlyThePointsWithinTheRadius) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> coord(-30, 30);
  for (const double cell : {0.25, 1.0, 3.0, 50.0}) {
    std::vector<Vec2> points(400);
    for (Vec2& p : points) p = {coord(rng), coord(rng)};
    for (std::size_t i = 0; i < 40; ++i) points[i] = points[i + 40];  // duplicates
    points[100] = {1e12, -1e12};                                       // beyond int32 cells
    points[101] = {-1e12, 1e12};
    SpatialHash hash;
    hash.rebuild(points, cell);
    ASSERT_EQ(hash.size(), points.size());
    for (int q = 0; q < 200; ++q) {
      const Vec2 p{coord(rng), coord(rng)};
      const double r = std::uniform_real_distribution<double>(0, 12)(rng);
      const std::vector<Hit> got = query(hash, p, r);
      EXPECT_EQ(sorted(got), brute_force(points, p, r)) << "cell " << cell << " query " << q;
    }
    // Far points are found by a query around them, once.
    EXPECT_EQ(query(hash, {1e12, -1e12}, 1.0), (std::vector<Hit>{{100, 0.0}}));
    // A radius covering more cells than the table has buckets scans it: same set.
    EXPECT_EQ(sorted(query(hash, {0, 0}, 1e6)), brute_force(points, {0, 0}, 1e6));
  }
}

TEST(SpatialHash, OrderIsRowsOfCellsThenIndex) {
  // Cells of side 1: index 0 in cell (1, 1), 1 in (0, 0), 2 in (1, 0), 3 in (0, 0).
  const std::vector<Vec2> points{{1.5, 1.5}, {0.5, 0.5}, {1.5, 0.5}, {0.25, 0.75}};
  SpatialHash hash;
  hash.rebuild(points, 1.0);
  std::vector<std::size_t> order;
  hash.for_each_within({1, 1}, 1.0, [&](std::size_t i, double) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 3, 2, 0}));
}

TEST(SpatialHash, RejectsWhatCannotBeFound) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<Vec2> points{{0, 0}, {nan, 0}, {0, inf}, {0.5, 0}};
  SpatialHash hash;
  hash.rebuild(points, 1.0);
  EXPECT_EQ(sorted(query(hash, {0, 0}, 2.0)), (std::vector<Hit>{{0, 0.0}, {3, 0.25}}));
  EXPECT_TRUE(query(hash, {0, 0}, -1.0).empty());
  EXPECT_TRUE(query(hash, {0, 0}, nan).empty());
  EXPECT_TRUE(query(hash, {0, 0}, inf).empty());
  EXPECT_TRUE(query(hash, {nan, nan}, 2.0).empty());
  EXPECT_TRUE(query(hash, {nan, nan}, 1e9).empty());
}

TEST(SpatialHash, RebuildForgetsTheOldPoints) {
  SpatialHash hash;
  std::vector<Vec2> many(1000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = {static_cast<double>(i % 40), static_cast<double>(i / 40)};
  hash.rebuild(many, 2.0);
  const std::vector<Vec2> few{{100, 100}, {3, 3}};
  hash.rebuild(few, 2.0);
  EXPECT_EQ(sorted(query(hash, {3, 3}, 5.0)), (std::vector<Hit>{{1, 0.0}}));
  hash.rebuild({}, 2.0);
  EXPECT_TRUE(query(hash, {3, 3}, 5.0).empty());
}

// ---------------------------------------------------------------------------------------------
// Scenes run with a plain integrator: position += v·dt.

struct SceneResult {
  bool arrived = false;
  std::size_t ticks = 0;           ///< to all arrive (or the limit)
  double worst_overlap = 0;        ///< largest (rA + rB − distance) / min(rA, rB) seen after a move
  double min_clearance = std::numeric_limits<double>::infinity();  ///< distance − rA − rB
  std::size_t collisions = 0;      ///< pair-ticks overlapping by more than 1 % of the radius
  double max_speed_excess = -std::numeric_limits<double>::infinity();
  bool finite = true;
};

/// Preferred velocity: goal − position clipped to max speed (slowing down over the last metres).
Vec2 toward(Vec2 from, Vec2 goal, double max_speed) {
  const Vec2 v = goal - from;
  const double l = length(v);
  return l > max_speed ? v * (max_speed / l) : v;
}

template <class Solver>
SceneResult run_scene(Solver& solver, std::vector<OrcaAgent> agents, const std::vector<Vec2>& goals, double dt,
                      std::size_t max_ticks, double arrive_distance = 0.05) {
  SceneResult out;
  std::vector<Vec2> v(agents.size());
  for (out.ticks = 0; out.ticks < max_ticks; ++out.ticks) {
    bool all = true;
    for (std::size_t i = 0; i < agents.size(); ++i) all = all && distance(agents[i].position, goals[i]) <= arrive_distance;
    if (all) {
      out.arrived = true;
      break;
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i].preferred_velocity = toward(agents[i].position, goals[i], agents[i].max_speed);
    }
    EXPECT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      out.finite = out.finite && std::isfinite(v[i].x) && std::isfinite(v[i].y);
      out.max_speed_excess = std::max(out.max_speed_excess, length(v[i]) - agents[i].max_speed);
      agents[i].velocity = v[i];
      agents[i].position += v[i] * dt;
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      for (std::size_t j = i + 1; j < agents.size(); ++j) {
        const double r = agents[i].radius + agents[j].radius;
        const double gap = distance(agents[i].position, agents[j].position) - r;
        out.min_clearance = std::min(out.min_clearance, gap);
        const double overlap = -gap / std::min(agents[i].radius, agents[j].radius);
        out.worst_overlap = std::max(out.worst_overlap, overlap);
        if (overlap > 0.01) ++out.collisions;
      }
    }
  }
  return out;
}

struct Scene {
  std::vector<OrcaAgent> agents;
  std::vector<Vec2> goals;
};

/// n agents evenly on a circle, each going to the opposite point.
Scene circle_scene(std::size_t n, double circle_radius, double radius = 0.35, double max_speed = 3.0) {
  Scene s;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
    const Vec2 p{circle_radius * std::cos(a), circle_radius * std::sin(a)};
    s.agents.push_back(OrcaAgent{.position = p, .velocity = {}, .preferred_velocity = {}, .radius = radius,
                                 .max_speed = max_speed});
    s.goals.push_back(-p);
  }
  return s;
}

/// A random crowd in a square (some overlapping, some coincident), moving at random.
std::vector<OrcaAgent> random_crowd(std::size_t n, double side, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coord(0, side), unit(-1, 1), radius(0.2, 0.6), speed(0.5, 4);
  std::vector<OrcaAgent> agents(n);
  for (OrcaAgent& a : agents) {
    a.position = {coord(rng), coord(rng)};
    a.max_speed = speed(rng);
    a.velocity = Vec2{unit(rng), unit(rng)} * a.max_speed * 0.7;
    a.preferred_velocity = Vec2{unit(rng), unit(rng)} * a.max_speed * 1.5;
    a.radius = radius(rng);
  }
  for (std::size_t i = 1; i < n; i += 17) agents[i].position = agents[i - 1].position;
  return agents;
}

constexpr double dt = 0.05;

// ---------------------------------------------------------------------------------------------
// ORCA

TEST(Orca, SingleAgentKeepsItsPreferredVelocityClipped) {
  OrcaSolver solver;
  std::vector<Vec2> v(1);
  std::vector<OrcaAgent> agent{{.position = {1, 2}, .velocity = {0, 0}, .preferred_velocity = {1.5, -2}}};
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(v[0], (Vec2{1.5, -2}));
  agent[0].preferred_velocity = {30, 40};  // max speed 3
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_NEAR(v[0].x, 1.8, 1e-12);
  EXPECT_NEAR(v[0].y, 2.4, 1e-12);
  agent[0].preferred_velocity = {};
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(v[0], (Vec2{}));
  // A far agent is no neighbour: still the preferred velocity, exactly.
  agent.push_back({.position = {500, 0}});
  agent[0].preferred_velocity = {0.5, 0.25};
  v.resize(2);
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(v[0], (Vec2{0.5, 0.25}));
  EXPECT_EQ(solver.stats().neighbours, 0u);
}

TEST(Orca, PairVelocitiesDoNotCollideWithinTheHorizon) {
  // ORCA's guarantee: when both agents' programs are feasible, the two new velocities keep the
  // pair apart for the whole time horizon.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> coord(-6, 6), unit(-1, 1);
  const OrcaParams params{.time_horizon = 2.0, .neighbour_distance = 100};
  OrcaSolver solver(params);
  std::vector<Vec2> v(2);
  int checked = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<OrcaAgent> pair(2);
    for (OrcaAgent& a : pair) {
      a.position = {coord(rng), coord(rng)};
      a.radius = 0.2 + 0.5 * std::abs(unit(rng));
      a.max_speed = 1 + 3 * std::abs(unit(rng));
      a.velocity = Vec2{unit(rng), unit(rng)} * a.max_speed * 0.7;
      a.preferred_velocity = Vec2{unit(rng), unit(rng)} * a.max_speed;
    }
    const Vec2 p = pair[1].position - pair[0].position;
    const double r = pair[0].radius + pair[1].radius;
    if (length(p) <= r) continue;
    ASSERT_EQ(solver.solve(pair, dt, v), AvoidanceStatus::ok);
    if (solver.stats().infeasible != 0) continue;
    ++checked;
    // Closest approach of the relative motion over [0, horizon].
    const Vec2 w = v[1] - v[0];
    const double t = length_squared(w) > 0 ? std::clamp(-dot(p, w) / length_squared(w), 0.0, params.time_horizon) : 0;
    EXPECT_GE(length(p + w * t), r * (1 - 1e-9)) << "trial " << trial;
  }
  EXPECT_GT(checked, 4000);
}

TEST(Orca, HeadOnSwapWithoutOverlap) {
  Scene s;
  s.agents = {{.position = {-5, 0}}, {.position = {5, 0}}};
  s.goals = {{5, 0}, {-5, 0}};
  OrcaSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 400);
  EXPECT_TRUE(r.arrived);
  EXPECT_GE(r.min_clearance, -1e-9);
  EXPECT_TRUE(r.finite);
}

TEST(Orca, EightAgentsSwapOnACircle) {
  const Scene s = circle_scene(8, 8.0);
  OrcaSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 600);
  EXPECT_TRUE(r.arrived) << r.ticks;
  EXPECT_LE(r.worst_overlap, 0.01);
  EXPECT_EQ(r.collisions, 0u);
  EXPECT_LE(r.max_speed_excess, 1e-9);
  // Alone, each would take 169 ticks (13 m at full speed, then slowing down over the last 3).
  EXPECT_LT(r.ticks, 250u);
}

TEST(Orca, SeventyTwoAgentsSwapOnACircle) {
  const Scene s = circle_scene(72, 20.0);
  OrcaSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 2000);
  EXPECT_TRUE(r.arrived) << r.ticks;
  EXPECT_LE(r.worst_overlap, 0.01);
  EXPECT_EQ(r.collisions, 0u);
  EXPECT_LE(r.max_speed_excess, 1e-9);
  EXPECT_TRUE(r.finite);
  EXPECT_LT(r.ticks, 700u);  // alone: 329
}

TEST(Orca, PlainOrcaDeadlocksOnASymmetricCircle) {
  // Why OrcaParams::keep_right exists: without it the eight agents stop in a ring round the
  // centre, each held by its two neighbours (docs/steering.md). Collision-free, but stuck.
  const Scene s = circle_scene(8, 8.0);
  OrcaSolver solver(OrcaParams{.keep_right = 0});
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 1000);
  EXPECT_FALSE(r.arrived);
  EXPECT_EQ(r.collisions, 0u);
}

TEST(Orca, OverlappingAgentsSeparate) {
  // Five agents of radius 0.35 within 0.3 of each other, standing still.
  std::vector<OrcaAgent> agents;
  for (int i = 0; i < 5; ++i) agents.push_back({.position = {0.07 * i, 0.05 * (i % 2)}});
  std::vector<Vec2> goals;
  for (const OrcaAgent& a : agents) goals.push_back(a.position);
  OrcaSolver solver;
  std::vector<Vec2> v(agents.size());
  for (int tick = 0; tick < 100; ++tick) {
    ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i].velocity = v[i];
      agents[i].position += v[i] * dt;
    }
  }
  for (std::size_t i = 0; i < agents.size(); ++i) {
    for (std::size_t j = i + 1; j < agents.size(); ++j) {
      EXPECT_GE(distance(agents[i].position, agents[j].position), 0.7 * 0.99) << i << " " << j;
    }
  }
}

TEST(Orca, CoincidentAgentsGetFiniteVelocitiesAndPart) {
  std::vector<OrcaAgent> agents(4, OrcaAgent{.position = {3, 3}});
  OrcaSolver solver;
  std::vector<Vec2> v(agents.size());
  ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
  for (const Vec2 x : v) {
    EXPECT_TRUE(std::isfinite(x.x) && std::isfinite(x.y));
    EXPECT_GT(length(x), 0.1);  // they move
    EXPECT_LE(length(x), 3 + 1e-9);
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t j = i + 1; j < v.size(); ++j) EXPECT_NE(v[i], v[j]);
  }
  for (int tick = 0; tick < 100; ++tick) {
    for (std::size_t i = 0; i < agents.size(); ++i) {
      agents[i].velocity = v[i];
      agents[i].position += v[i] * dt;
    }
    ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
  }
  for (std::size_t i = 0; i < agents.size(); ++i) {
    for (std::size_t j = i + 1; j < agents.size(); ++j) {
      EXPECT_GE(distance(agents[i].position, agents[j].position), 0.7 * 0.99);
    }
  }
}

TEST(Orca, StandingAgentStepsAsideForAPasserBy) {
  // One agent wants to stay, one walks straight through its place: they share the avoidance.
  Scene s;
  s.agents = {{.position = {0, 0}}, {.position = {-6, 0.05}}};
  s.goals = {{0, 0}, {6, 0.05}};
  OrcaSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 600);
  EXPECT_TRUE(r.arrived);
  EXPECT_GE(r.min_clearance, -1e-9);
}

TEST(Orca, InertAgentIsAvoidedFullyAndKeepsItsVelocity) {
  // Close and head-on: one tick must take the walker's whole way out of the collision course.
  {
    const std::vector<OrcaAgent> agents{{.position = {0, 0}, .velocity = {3, 0}, .preferred_velocity = {3, 0}},
                                        {.position = {1.5, 0}, .velocity = {-3, 0}, .preferred_velocity = {-3, 0},
                                         .avoids = false}};
    OrcaSolver solver;
    std::vector<Vec2> v(2);
    ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
    EXPECT_EQ(v[1], (Vec2{-3, 0}));
    const Vec2 p = agents[1].position - agents[0].position, w = v[1] - v[0];
    const double t = std::clamp(-dot(p, w) / length_squared(w), 0.0, solver.params().time_horizon);
    EXPECT_GE(length(p + w * t), 0.7 * (1 - 1e-9));
  }
  // The inert agent walks at the other and does not swerve: the walker alone avoids, first
  // head-on, then across its path.
  for (const Vec2 inert_start : {Vec2{6, 0}, Vec2{0, -6}}) {
    const std::vector<Vec2> goals{{6, 0}, -inert_start};
    std::vector<OrcaAgent> agents{{.position = {-6, 0}}, {.position = inert_start, .avoids = false}};
    OrcaSolver solver;
    std::vector<Vec2> v(2);
    double min_clearance = std::numeric_limits<double>::infinity();
    for (int tick = 0; tick < 400; ++tick) {
      for (std::size_t i = 0; i < 2; ++i) agents[i].preferred_velocity = toward(agents[i].position, goals[i], agents[i].max_speed);
      ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
      EXPECT_NEAR(v[1].x, agents[1].preferred_velocity.x, 1e-12);
      EXPECT_NEAR(v[1].y, agents[1].preferred_velocity.y, 1e-12);
      for (std::size_t i = 0; i < 2; ++i) {
        agents[i].velocity = v[i];
        agents[i].position += v[i] * dt;
      }
      min_clearance = std::min(min_clearance, distance(agents[0].position, agents[1].position) - 0.7);
    }
    EXPECT_GE(min_clearance, -1e-9);
    EXPECT_LT(distance(agents[0].position, goals[0]), 0.05);
    EXPECT_LT(distance(agents[1].position, goals[1]), 0.05);
    EXPECT_EQ(cross(inert_start, agents[1].position), 0.0);  // never left its line
  }
}

TEST(Orca, SpeedNeverExceedsMaxSpeed) {
  std::vector<OrcaAgent> agents = random_crowd(2000, 40, 7);  // dense: many infeasible programs
  OrcaSolver solver;
  std::vector<Vec2> v(agents.size());
  ASSERT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::ok);
  EXPECT_GT(solver.stats().infeasible, 0u);  // the fallback ran
  for (std::size_t i = 0; i < agents.size(); ++i) {
    ASSERT_TRUE(std::isfinite(v[i].x) && std::isfinite(v[i].y)) << i;
    EXPECT_LE(length(v[i]), agents[i].max_speed + 1e-9) << i;
  }
}

TEST(Orca, SameInputGivesBitIdenticalOutput) {
  const std::vector<OrcaAgent> agents = random_crowd(3000, 80, 11);
  OrcaSolver a, b;
  std::vector<Vec2> va(agents.size()), vb(agents.size()), vc(agents.size());
  ASSERT_EQ(a.solve(agents, dt, va), AvoidanceStatus::ok);
  ASSERT_EQ(b.solve(random_crowd(10, 5, 1), dt, std::span(vb).first(10)), AvoidanceStatus::ok);  // other history
  ASSERT_EQ(b.solve(agents, dt, vb), AvoidanceStatus::ok);
  ASSERT_EQ(a.solve(agents, dt, vc), AvoidanceStatus::ok);
  EXPECT_EQ(std::memcmp(va.data(), vb.data(), va.size() * sizeof(Vec2)), 0);
  EXPECT_EQ(std::memcmp(va.data(), vc.data(), va.size() * sizeof(Vec2)), 0);
}

TEST(Orca, MaxNeighboursBoundsTheNeighboursLookedAt) {
  const std::vector<OrcaAgent> agents = random_crowd(500, 10, 5);
  OrcaSolver few(OrcaParams{.max_neighbours = 3});
  OrcaSolver none(OrcaParams{.max_neighbours = 0});
  std::vector<Vec2> v(agents.size());
  ASSERT_EQ(few.solve(agents, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(few.stats().neighbours, 3 * agents.size());
  ASSERT_EQ(none.solve(agents, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(none.stats().neighbours, 0u);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const Vec2 p = agents[i].preferred_velocity;
    const double l = length(p);
    const Vec2 want = l > agents[i].max_speed ? p * (agents[i].max_speed / l) : p;
    EXPECT_NEAR(v[i].x, want.x, 1e-12);
    EXPECT_NEAR(v[i].y, want.y, 1e-12);
  }
}

TEST(Orca, RefusesBadInputAndLeavesTheOutputAlone) {
  OrcaSolver solver;
  std::vector<OrcaAgent> agents(2);
  agents[1].position = {1, 0};
  std::vector<Vec2> v(2, Vec2{7, 7});
  std::vector<Vec2> short_out(1, Vec2{7, 7});
  EXPECT_EQ(solver.solve(agents, dt, short_out), AvoidanceStatus::size_mismatch);
  EXPECT_EQ(solver.solve(agents, 0.0, v), AvoidanceStatus::bad_time_step);
  EXPECT_EQ(solver.solve(agents, std::numeric_limits<double>::infinity(), v), AvoidanceStatus::bad_time_step);
  agents[1].position.y = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::bad_agent);
  agents[1].position.y = 0;
  agents[1].radius = -1;
  EXPECT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::bad_agent);
  EXPECT_EQ(v, (std::vector<Vec2>(2, Vec2{7, 7})));
  EXPECT_EQ(short_out[0], (Vec2{7, 7}));
  EXPECT_EQ(to_string(AvoidanceStatus::bad_agent), "bad_agent");
  EXPECT_EQ(solver.solve({}, dt, {}), AvoidanceStatus::ok);
  EXPECT_THROW(OrcaSolver(OrcaParams{.time_horizon = 0}), std::invalid_argument);
  EXPECT_THROW(OrcaSolver(OrcaParams{.neighbour_distance = -1}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Sampled velocity obstacles

TEST(SampledVo, SingleAgentKeepsItsPreferredVelocityClipped) {
  SampledVoSolver solver;
  std::vector<Vec2> v(1);
  std::vector<OrcaAgent> agent{{.position = {1, 2}, .velocity = {0, 0}, .preferred_velocity = {1.5, -2}}};
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_EQ(v[0], (Vec2{1.5, -2}));
  agent[0].preferred_velocity = {30, 40};
  ASSERT_EQ(solver.solve(agent, dt, v), AvoidanceStatus::ok);
  EXPECT_NEAR(v[0].x, 1.8, 1e-12);
  EXPECT_NEAR(v[0].y, 2.4, 1e-12);
}

TEST(SampledVo, HeadOnSwapWithoutOverlap) {
  Scene s;
  s.agents = {{.position = {-5, 0}}, {.position = {5, 0}}};
  s.goals = {{5, 0}, {-5, 0}};
  SampledVoSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 400);
  EXPECT_TRUE(r.arrived);
  EXPECT_GE(r.min_clearance, -1e-9);
}

TEST(SampledVo, EightAgentsSwapOnACircle) {
  const Scene s = circle_scene(8, 8.0);
  SampledVoSolver solver;
  const SceneResult r = run_scene(solver, s.agents, s.goals, dt, 1000);
  EXPECT_TRUE(r.arrived) << r.ticks;
  EXPECT_LE(r.max_speed_excess, 1e-9);
}

TEST(SampledVo, SameInputGivesBitIdenticalOutputWithinMaxSpeed) {
  const std::vector<OrcaAgent> agents = random_crowd(1000, 50, 13);
  SampledVoSolver a, b;
  std::vector<Vec2> va(agents.size()), vb(agents.size());
  ASSERT_EQ(a.solve(agents, dt, va), AvoidanceStatus::ok);
  ASSERT_EQ(b.solve(agents, dt, vb), AvoidanceStatus::ok);
  EXPECT_EQ(std::memcmp(va.data(), vb.data(), va.size() * sizeof(Vec2)), 0);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    ASSERT_TRUE(std::isfinite(va[i].x) && std::isfinite(va[i].y));
    EXPECT_LE(length(va[i]), agents[i].max_speed + 1e-9);
  }
}

TEST(SampledVo, RefusesBadInput) {
  SampledVoSolver solver;
  std::vector<OrcaAgent> agents(1);
  std::vector<Vec2> v(1);
  agents[0].max_speed = -1;
  EXPECT_EQ(solver.solve(agents, dt, v), AvoidanceStatus::bad_agent);
  EXPECT_THROW(SampledVoSolver(SampledVoParams{.samples = 0}), std::invalid_argument);
  EXPECT_THROW(SampledVoSolver(SampledVoParams{.collision_weight = -1}), std::invalid_argument);
}

}  // namespace
}  // namespace steer_orca_test
