// Steering behaviours: arrive stops without overshoot, seek/flee/wander, path following in order
// and looping, separation, the force cap, obstacle avoidance, moves that never tunnel and
// string-pulling for a disc.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/behaviours.hpp"

namespace waymark::steer::behaviours_test {
namespace {

constexpr double dt = 0.05;

/// One fixed step under `force`, no obstacles.
void step(const AgentParams& p, AgentState& s, Vec2 force) {
  s.velocity = integrate_velocity(p, s.velocity, force, dt);
  advance(s, dt);
}

TEST(Arrive, StopsAtTheTargetWithoutOvershoot) {
  for (const double start_speed : {0.0, 1.5, 3.0}) {
    for (const double distance_to_go : {0.3, 1.0, 2.5, 10.0}) {
      const AgentParams p;
      AgentState s{.position = {0, 0}, .velocity = {start_speed, 0}};
      const Vec2 target{distance_to_go, 0};
      double furthest = 0;
      for (int i = 0; i < 400; ++i) {
        step(p, s, arrive(p, s, target, dt));
        furthest = std::max(furthest, s.position.x);
      }
      SCOPED_TRACE(::testing::Message() << "speed " << start_speed << " distance " << distance_to_go);
      // No overshoot wherever arrive can brake in time at the share of the force it plans with
      // (plus one step's travel); closer at that speed, no force could stop it there.
      const double braking = p.braking_share * p.max_force / p.mass;
      if (distance_to_go >= start_speed * start_speed / (2 * braking) + start_speed * dt) {
        EXPECT_LE(furthest, target.x + 1e-6);
      } else {
        const double stopping = start_speed * start_speed / (2 * p.max_force / p.mass);
        EXPECT_LE(furthest, stopping + start_speed * dt + 1e-6);
      }
      EXPECT_NEAR(s.position.x, target.x, 1e-3);
      EXPECT_NEAR(s.position.y, 0, 1e-12);
      EXPECT_LT(length(s.velocity), 1e-3);
    }
  }
}

TEST(Arrive, ComesToRestFromASidewaysVelocity) {
  const AgentParams p;
  AgentState s{.position = {0, 0}, .velocity = {0, 3}};
  const Vec2 target{4, 0};
  for (int i = 0; i < 600; ++i) step(p, s, arrive(p, s, target, dt));
  EXPECT_LT(distance(s.position, target), 1e-3);
  EXPECT_LT(length(s.velocity), 1e-3);
}

TEST(Seek, HeadsForTheTargetAtFullSpeed) {
  const AgentParams p;
  AgentState s{.position = {0, 0}, .velocity = {0, -2}};
  for (int i = 0; i < 40; ++i) step(p, s, seek(p, s, {100, 100}));
  EXPECT_NEAR(length(s.velocity), p.max_speed, 1e-9);
  EXPECT_NEAR(dot(normalized(s.velocity), normalized(Vec2{100, 100} - s.position)), 1.0, 1e-3);
}

TEST(Flee, RunsFromANearThreatAndIgnoresAFarOne) {
  const AgentParams p;
  AgentState s{.position = {1, 0}};
  const Vec2 push = flee(p, s, {0, 0}, 5);
  EXPECT_GT(push.x, 0);
  EXPECT_EQ(flee(p, s, {0, 0}, 0.5), Vec2{});
}

TEST(Blend, WeighsAndCapsTheForces) {
  const WeightedForce forces[] = {{{10, 0}, 1}, {{0, 10}, 0.5}};
  const Vec2 f = blend(forces, 100);
  EXPECT_EQ(f, (Vec2{10, 5}));
  EXPECT_NEAR(length(blend(forces, 3)), 3, 1e-12);
}

TEST(Wander, IsSeededAndKeepsToTheSpeedLimit) {
  const AgentParams p;
  const auto run = [&](std::uint64_t seed) {
    AgentState s;
    WanderState w{.angle = 0, .random = Random(seed)};
    std::vector<Vec2> trail;
    for (int i = 0; i < 200; ++i) {
      step(p, s, wander(p, s, w, {}, dt));
      EXPECT_LE(length(s.velocity), p.max_speed + 1e-12);
      trail.push_back(s.position);
    }
    return trail;
  };
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

TEST(Random, IsTheSameSequenceEverywhere) {
  // SplitMix64's published first outputs for seed 0 (Vigna's reference splitmix64.c).
  Random r(0);
  EXPECT_EQ(r.next(), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(r.next(), 0x6E789E6AA1B965F4ULL);
  for (int i = 0; i < 1000; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

/// Drives a follower round a square; returns the waypoints in the order they became current.
std::vector<std::size_t> follow_square(PathFollower& f, std::uint64_t steps, AgentState& s) {
  const AgentParams p;
  std::vector<std::size_t> order{f.current()};
  for (std::uint64_t i = 0; i < steps; ++i) {
    step(p, s, f.force(p, s, dt));
    if (f.current() != order.back()) order.push_back(f.current());
  }
  return order;
}

const std::vector<Vec2> square{{0, 0}, {6, 0}, {6, 6}, {0, 6}};

TEST(PathFollower, VisitsTheWaypointsInOrderAndStopsAtTheLast) {
  PathFollower f;
  f.set_path(square, false);
  AgentState s{.position = {0, 0}};
  const std::vector<std::size_t> order = follow_square(f, 600, s);
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_TRUE(f.on_last());
  EXPECT_LT(distance(s.position, square.back()), 1e-3);
  EXPECT_LT(length(s.velocity), 1e-3);
}

TEST(PathFollower, LoopsForeverOrForItsLaps) {
  PathFollower forever;
  forever.set_path(square, true);
  AgentState s{.position = {0, 0}};
  const std::vector<std::size_t> order = follow_square(forever, 2000, s);
  ASSERT_GE(order.size(), 9u);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i % 4) << i;
  EXPECT_GE(forever.laps(), 2u);
  EXPECT_FALSE(forever.on_last());

  PathFollower twice;
  twice.set_path(square, true, 2);
  AgentState t{.position = {0, 0}};
  const std::vector<std::size_t> order2 = follow_square(twice, 3000, t);
  EXPECT_EQ(order2, (std::vector<std::size_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(twice.laps(), 1u);
  EXPECT_TRUE(twice.on_last());
  EXPECT_LT(distance(t.position, square.back()), 1e-3);
}

TEST(PathFollower, ComesBackToTheLineWhenPushedAside) {
  const AgentParams p;
  PathFollower f;
  const std::vector<Vec2> line{{0, 0}, {20, 0}, {30, 0}};
  f.set_path(line, false);
  AgentState s{.position = {0, 0}};
  for (int i = 0; i < 20; ++i) step(p, s, f.force(p, s, dt));
  s.position.y = 2;  // shoved off the path
  for (int i = 0; i < 60; ++i) step(p, s, f.force(p, s, dt));
  EXPECT_LT(std::abs(s.position.y), 0.1);  // back on the line well before the next waypoint
  EXPECT_LT(s.position.x, 19);
}

TEST(Separation, PushesAwayFromNearNeighboursOnly) {
  const AgentParams p;
  const AgentState s{.position = {0, 0}};
  const std::vector<Vec2> near{{0.8, 0}};
  const std::vector<double> radii{0.35};
  EXPECT_LT(separation(p, s, near, radii, 0.5).x, 0);
  const std::vector<Vec2> far{{3, 0}};
  EXPECT_EQ(separation(p, s, far, radii, 0.5), Vec2{});
}

TEST(ObstacleAvoidance, TurnsAwayFromAWallAhead) {
  ObstacleWorld world;
  world.add(Box{{5, -5}, {6, 5}});
  const AgentParams p;
  const AgentState s{.position = {3.5, 0.5}, .velocity = {3, 0.3}, .heading = normalized(Vec2{3, 0.3})};
  const Vec2 push = avoid_obstacles(p, s, world, {});
  EXPECT_LT(push.x, 0);
  // A wall on a layer outside the agent's mask is not seen.
  AgentParams blind = p;
  blind.avoid_mask = layer_bit(3);
  EXPECT_EQ(avoid_obstacles(blind, s, world, {}), Vec2{});
  // Nothing within reach: no force.
  const AgentState slow{.position = {0, 0}, .velocity = {0.1, 0}};
  EXPECT_EQ(avoid_obstacles(p, slow, world, {}), Vec2{});
}

TEST(MoveDisc, NeverTunnelsThroughAThinWallAtAnySpeed) {
  ObstacleWorld world;
  world.add(Segment2{{1, -1e7}, {1, 1e7}});  // long enough for the fastest slide below
  std::vector<Contact> contacts;
  for (const double speed : {1.0, 50.0, 1e3, 1e6}) {
    AgentState s{.position = {0, 0.3}, .velocity = {speed, speed * 0.01}};
    for (int i = 0; i < 20; ++i) {
      s.velocity = {speed, speed * 0.01};
      move_disc(world, s, 0.35, dt, all_layers, contacts);
      ASSERT_LE(s.position.x, 1 - 0.35 + 1e-6) << "speed " << speed;
    }
  }
}

TEST(MoveDisc, SlidesAlongGridWallsAndNeverEntersABlockedCell) {
  grid::GridMap map(12, 12);
  for (int y = 0; y < 12; ++y) map.set_passable(6, y, false);  // a wall one cell thick
  ObstacleWorld world;
  world.set_grid(&map, 0);
  std::vector<Contact> contacts;
  AgentState s{.position = {2.5, 2.5}};
  for (int i = 0; i < 200; ++i) {
    s.velocity = {400, 37};  // far more than a cell per step, into the wall and along it
    move_disc(world, s, 0.35, dt, all_layers, contacts);
    ASSERT_LE(s.position.x, 6 - 0.35 + 1e-6);
    ASSERT_GE(s.position.y, 0.35 - 1e-6);
    ASSERT_LE(s.position.y, 12 - 0.35 + 1e-6);
  }
  EXPECT_GT(s.position.y, 11);  // it slid up to the map's top edge
}

/// Independent check: the disc at every sampled point along the segment lies in free cells.
bool disc_stays_free(const grid::GridMap& map, Vec2 a, Vec2 b, double radius) {
  const int samples = 2000;
  for (int i = 0; i <= samples; ++i) {
    const Vec2 c = lerp(a, b, static_cast<double>(i) / samples);
    for (int y = static_cast<int>(std::floor(c.y - radius)); y <= static_cast<int>(std::floor(c.y + radius)); ++y) {
      for (int x = static_cast<int>(std::floor(c.x - radius)); x <= static_cast<int>(std::floor(c.x + radius)); ++x) {
        if (map.passable(x, y)) continue;
        const Vec2 nearest{std::clamp(c.x, double(x), double(x + 1)), std::clamp(c.y, double(y), double(y + 1))};
        if (distance(nearest, c) < radius - 1e-9) return false;
      }
    }
  }
  return true;
}

TEST(SmoothForDisc, KeepsTheDiscClearOfWalls) {
  grid::GridMap map(20, 20);
  map.set_passable(grid::CellRect{5, 0, 7, 14}, false);
  map.set_passable(grid::CellRect{11, 6, 13, 20}, false);
  ObstacleWorld world;
  world.set_grid(&map, 0);
  // A staircase of cell centres around both walls, as a grid search would give.
  std::vector<Vec2> path;
  for (int y = 2; y <= 15; ++y) path.push_back({3.5, y + 0.5});
  for (int x = 4; x <= 9; ++x) path.push_back({x + 0.5, 15.5});
  for (int y = 14; y >= 4; --y) path.push_back({9.5, y + 0.5});
  for (int x = 10; x <= 16; ++x) path.push_back({x + 0.5, 4.5});
  std::vector<Vec2> smooth;
  smooth_for_disc(world, path, 0.35, all_layers, 64, smooth);
  ASSERT_GE(smooth.size(), 2u);
  EXPECT_LT(smooth.size(), path.size() / 4);
  EXPECT_EQ(smooth.front(), path.front());
  EXPECT_EQ(smooth.back(), path.back());
  for (std::size_t i = 0; i + 1 < smooth.size(); ++i) {
    EXPECT_TRUE(disc_stays_free(map, smooth[i], smooth[i + 1], 0.35)) << i;
  }
}

}  // namespace
}  // namespace waymark::steer::behaviours_test
