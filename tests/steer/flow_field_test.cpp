// Flow fields: costs against a textbook Dijkstra written here, directions that lead downhill to
// a goal along legal moves, unreachable cells, refused goals, several goals against single
// ones, rebuilds against fresh fields, the tie rule, world placement, point agents that reach
// the goal without entering a blocked cell, and steered discs that get there too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <thread>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/steer/behaviours.hpp"
#include "waymark/steer/flow_field.hpp"
#include "waymark/steer/obstacle_world.hpp"

namespace waymark::steer::flow_field_test {
namespace {

using grid::CellCoord;
using grid::DiagonalRule;
using grid::GridMap;

constexpr std::array<DiagonalRule, 4> all_rules{DiagonalRule::never, DiagonalRule::always,
                                                DiagonalRule::at_most_one_obstacle, DiagonalRule::no_corner_cutting};

/// Whether the move (dx, dy) from `c` is one the rule allows onto a passable cell.
bool move_allowed(const GridMap& map, DiagonalRule rule, CellCoord c, int dx, int dy) {
  if (!map.passable(c.x + dx, c.y + dy)) return false;
  if (dx == 0 || dy == 0) return true;
  return grid::diagonal_rule_allows(rule, map.passable(c.x + dx, c.y), map.passable(c.x, c.y + dy));
}

/// Cost from each cell to the nearest goal: lazy-deletion Dijkstra with std::priority_queue
/// over the eight moves, costs from GridMap::move_cost (symmetric, so goal-rooted is fine).
std::vector<Cost> reference_field(const GridMap& map, DiagonalRule rule, const std::vector<CellCoord>& goals) {
  std::vector<Cost> dist(map.cell_count(), infinite_cost);
  using Item = std::pair<Cost, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (const CellCoord g : goals) {
    dist[map.cell(g.x, g.y).value] = 0;
    open.push({0, map.cell(g.x, g.y).value});
  }
  while (!open.empty()) {
    const auto [d, v] = open.top();
    open.pop();
    if (d > dist[v]) continue;
    const CellCoord c = map.coord(CellId{v});
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !move_allowed(map, rule, c, dx, dy)) continue;
        const CellId n = map.cell(c.x + dx, c.y + dy);
        const Cost nd = d + map.move_cost(CellId{v}, n, dx != 0 && dy != 0);
        if (nd < dist[n.value]) {
          dist[n.value] = nd;
          open.push({nd, n.value});
        }
      }
    }
  }
  return dist;
}

bool near(Cost a, Cost b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-9 * std::max(1.0, b);
}

/// The grid move a cell direction names, read off the vector (not from the field's own code).
CellCoord move_of(Vec2 d) {
  const auto axis = [](double v) { return v > 0.3 ? 1 : v < -0.3 ? -1 : 0; };
  return {axis(d.x), axis(d.y)};
}

struct MapCase {
  GridMap map;
  std::vector<CellCoord> goals;
};

/// Random maps with obstacles and terrain (and a reward zone), 1×1 and 1×N among them, with
/// `goal_count` random passable goal cells.
std::vector<MapCase> random_cases(std::size_t goal_count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<MapCase> cases;
  const std::vector<test::RandomGridSpec> specs{
      {1, 1, 0.0, false},  {1, 9, 0.1, true},   {13, 1, 0.2, true},  {8, 8, 0.3, false},
      {20, 15, 0.25, true}, {31, 27, 0.35, true}, {40, 40, 0.2, true}, {25, 30, 0.45, false}};
  for (int round = 0; round < 6; ++round) {
    for (const test::RandomGridSpec& spec : specs) {
      GridMap map = test::random_grid(spec, rng);
      if (map.passable_count() == 0) continue;
      std::vector<CellCoord> goals = test::random_seeds(map, goal_count, rng);
      cases.push_back({std::move(map), std::move(goals)});
    }
  }
  return cases;
}

::testing::AssertionResult same_field(const FlowField& a, const FlowField& b) {
  const GridMap& map = a.map();
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const Cost da = a.distance(CellCoord{x, y}), db = b.distance(CellCoord{x, y});
      if (da != db || a.direction(CellCoord{x, y}) != b.direction(CellCoord{x, y})) {
        return ::testing::AssertionFailure() << "cell (" << x << "," << y << ") differs: " << da << " vs " << db;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(FlowField, CostsEqualTextbookDijkstraOneGoalAndSeveral) {
  std::size_t compared = 0;
  for (const std::size_t goal_count : {1u, 3u, 8u}) {
    for (MapCase& mc : random_cases(goal_count, 1400 + static_cast<std::uint32_t>(goal_count))) {
      for (const DiagonalRule rule : all_rules) {
        SCOPED_TRACE(::testing::Message() << mc.map.width() << "x" << mc.map.height() << " goals " << goal_count
                                          << " rule " << grid::to_string(rule));
        FlowField field(mc.map, {.diagonal = rule});
        ASSERT_TRUE(field.build(mc.goals).succeeded());
        const std::vector<Cost> ref = reference_field(mc.map, rule, mc.goals);
        for (std::uint32_t i = 0; i < mc.map.cell_count(); ++i) {
          ASSERT_TRUE(near(field.distance(CellId{i}), ref[i]))
              << "cell " << i << ": " << field.distance(CellId{i}) << " vs reference " << ref[i];
          ++compared;
        }
        EXPECT_EQ(field.stats().expanded,
                  static_cast<std::uint64_t>(std::count_if(ref.begin(), ref.end(), [](Cost d) { return !std::isinf(d); })));
      }
    }
  }
  EXPECT_GT(compared, 100000u);
}

TEST(FlowField, DirectionsLeadDownhillAlongLegalMovesToAGoal) {
  for (const std::size_t goal_count : {1u, 5u}) {
    for (MapCase& mc : random_cases(goal_count, 77 + static_cast<std::uint32_t>(goal_count))) {
      for (const DiagonalRule rule : all_rules) {
        SCOPED_TRACE(::testing::Message() << mc.map.width() << "x" << mc.map.height() << " rule "
                                          << grid::to_string(rule));
        const GridMap& map = mc.map;
        FlowField field(map, {.diagonal = rule});
        ASSERT_TRUE(field.build(mc.goals).succeeded());
        const std::vector<Cost> ref = reference_field(map, rule, mc.goals);
        for (int y = 0; y < map.height(); ++y) {
          for (int x = 0; x < map.width(); ++x) {
            CellCoord c{x, y};
            if (std::isinf(ref[map.cell(x, y).value])) continue;
            std::size_t steps = 0;
            while (ref[map.cell(c.x, c.y).value] > 0) {
              const Vec2 d = field.direction(c);
              ASSERT_NEAR(length(d), 1.0, 1e-12) << "(" << c.x << "," << c.y << ")";
              const CellCoord m = move_of(d);
              // The vector points exactly at that neighbour's centre.
              const CellCoord n{c.x + m.x, c.y + m.y};
              ASSERT_TRUE(move_allowed(map, rule, c, m.x, m.y)) << "(" << c.x << "," << c.y << ")";
              const Vec2 to = normalized(map.cell_center(n) - map.cell_center(c));
              ASSERT_NEAR(d.x, to.x, 1e-12);
              ASSERT_NEAR(d.y, to.y, 1e-12);
              ASSERT_EQ(field.next_cell(c), std::optional<CellCoord>(n));
              const Cost here = ref[map.cell(c.x, c.y).value], there = ref[map.cell(n.x, n.y).value];
              ASSERT_LT(there, here);
              // And the neighbour is a minimiser of move cost + distance.
              ASSERT_TRUE(near(map.move_cost(map.cell(c.x, c.y), map.cell(n.x, n.y), m.x != 0 && m.y != 0) + there, here));
              c = n;
              ASSERT_LE(++steps, map.cell_count());
            }
            EXPECT_TRUE(field.is_goal(c));
            EXPECT_EQ(field.direction(c), Vec2{});
            EXPECT_EQ(field.next_cell(c), std::nullopt);
          }
        }
      }
    }
  }
}

TEST(FlowField, UnreachableAndBlockedCellsHaveNoDirectionAndInfiniteDistance) {
  // A walled pocket at the right (cells x = 6..8, y = 1..3), a wall cell, and the open rest.
  GridMap map(10, 6);
  map.set_passable({5, 0, 10, 5}, false);
  map.set_passable({6, 1, 9, 4}, true);
  FlowField field(map);
  ASSERT_TRUE(field.build(CellCoord{0, 0}).succeeded());
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const bool pocket = x >= 6 && x <= 8 && y >= 1 && y <= 3;
      const bool open = map.passable(x, y) && !pocket;
      SCOPED_TRACE(::testing::Message() << "(" << x << "," << y << ")");
      EXPECT_EQ(std::isinf(field.distance(CellCoord{x, y})), !open);
      const Vec2 centre = map.cell_center(CellCoord{x, y});
      if (!open) {
        EXPECT_EQ(field.direction(CellCoord{x, y}), Vec2{});
        EXPECT_EQ(field.next_cell(CellCoord{x, y}), std::nullopt);
        for (const Vec2 off : {Vec2{0, 0}, Vec2{0.4, 0.3}, Vec2{-0.45, -0.45}, Vec2{0.49, -0.2}}) {
          EXPECT_EQ(field.direction_at(centre + off), Vec2{});
          EXPECT_TRUE(std::isinf(field.distance_at(centre + off)));
        }
      } else {
        EXPECT_EQ(field.distance_at(centre + Vec2{0.3, -0.2}), field.distance(CellCoord{x, y}));
      }
    }
  }
  // Off the map.
  for (const Vec2 p : {Vec2{-0.01, 2}, Vec2{10.0, 2}, Vec2{3, -1}, Vec2{3, 6.5}, Vec2{std::nan(""), 1}}) {
    EXPECT_EQ(field.direction_at(p), Vec2{});
    EXPECT_TRUE(std::isinf(field.distance_at(p)));
  }
  EXPECT_TRUE(std::isinf(field.distance(CellCoord{-1, 0})));
  EXPECT_EQ(field.direction(CellCoord{10, 0}), Vec2{});
}

TEST(FlowField, RefusesBlockedOutOfBoundsAndMissingGoalsWithoutThrowing) {
  GridMap map(6, 4);
  map.set_passable(2, 2, false);
  FlowField field(map);
  EXPECT_EQ(field.status().state, SearchState::not_started);
  ASSERT_TRUE(field.build(CellCoord{0, 0}).succeeded());

  const Status blocked = field.build(CellCoord{2, 2});
  EXPECT_TRUE(blocked.failed());
  EXPECT_EQ(blocked.reason(), FailureReason::goal_blocked);
  EXPECT_TRUE(blocked.has(StatusDetail::invalid_query));
  EXPECT_EQ(field.status(), blocked);
  // A refused build leaves nothing reachable, not the previous field.
  for (const Cost d : field.distances()) EXPECT_TRUE(std::isinf(d));
  EXPECT_EQ(field.direction_at({0.5, 1.5}), Vec2{});

  EXPECT_EQ(field.build(CellCoord{6, 0}).reason(), FailureReason::out_of_bounds);
  EXPECT_EQ(field.build(CellCoord{0, -1}).reason(), FailureReason::out_of_bounds);
  EXPECT_EQ(field.build(std::span<const CellCoord>{}).reason(), FailureReason::invalid_query);
  // One bad goal refuses the whole list.
  const std::vector<CellCoord> mixed{{0, 0}, {5, 3}, {2, 2}};
  const Status m = field.build(mixed);
  EXPECT_TRUE(m.failed());
  EXPECT_TRUE(m.has(StatusDetail::goal_blocked));
  EXPECT_TRUE(std::isinf(field.distance(CellCoord{0, 0})));
  // Repeated goals are fine.
  const std::vector<CellCoord> repeated{{0, 0}, {0, 0}};
  EXPECT_TRUE(field.build(repeated).succeeded());
  EXPECT_EQ(field.distance(CellCoord{0, 0}), 0);
}

TEST(FlowField, SeveralGoalsGiveTheMinimumOfTheSingleGoalFields) {
  for (MapCase& mc : random_cases(6, 2024)) {
    const GridMap& map = mc.map;
    FlowField all(map);
    ASSERT_TRUE(all.build(mc.goals).succeeded());
    std::vector<Cost> best(map.cell_count(), infinite_cost);
    FlowField single(map);
    for (const CellCoord g : mc.goals) {
      ASSERT_TRUE(single.build(g).succeeded());
      for (std::uint32_t i = 0; i < map.cell_count(); ++i) best[i] = std::min(best[i], single.distance(CellId{i}));
    }
    for (std::uint32_t i = 0; i < map.cell_count(); ++i) {
      ASSERT_TRUE(near(all.distance(CellId{i}), best[i])) << "cell " << i;
    }
    for (const CellCoord g : mc.goals) EXPECT_TRUE(all.is_goal(g));
  }
}

TEST(FlowField, RebuildEqualsAFreshFieldAndReusesItsStorage) {
  std::mt19937 rng(99);
  for (MapCase& mc : random_cases(4, 5)) {
    for (const DiagonalRule rule : all_rules) {
      FlowField reused(mc.map, {.diagonal = rule});
      const Cost* storage = reused.distances().data();
      ASSERT_TRUE(reused.build(test::random_seeds(mc.map, 3, rng)).succeeded());
      (void)reused.build(CellCoord{-1, -1});  // a refusal in between
      ASSERT_TRUE(reused.build(test::random_seeds(mc.map, 2, rng)).succeeded());
      ASSERT_TRUE(reused.build(mc.goals).succeeded());
      FlowField fresh(mc.map, {.diagonal = rule});
      ASSERT_TRUE(fresh.build(mc.goals).succeeded());
      EXPECT_TRUE(same_field(reused, fresh));
      EXPECT_EQ(reused.distances().data(), storage);
    }
  }
}

TEST(FlowField, TiesGoToTheLowerNeighbourThenToNorthEastSouthWestOrder) {
  GridMap open(6, 6);
  FlowField field(open);
  ASSERT_TRUE(field.build(CellCoord{0, 0}).succeeded());
  // From (3,1): W then NW-diagonal, or NW then W, cost the same; the diagonal's neighbour is lower.
  EXPECT_EQ(field.next_cell(CellCoord{3, 1}), std::optional<CellCoord>(CellCoord{2, 0}));
  const double r = std::sqrt(0.5);
  EXPECT_NEAR(field.direction(CellCoord{3, 1}).x, -r, 1e-15);
  EXPECT_NEAR(field.direction(CellCoord{3, 1}).y, -r, 1e-15);
  // Straight lines stay straight.
  EXPECT_EQ(field.direction(CellCoord{4, 0}), (Vec2{-1, 0}));
  EXPECT_EQ(field.direction(CellCoord{0, 5}), (Vec2{0, -1}));

  // Two goals at the same distance east and west: equal neighbours, so E (before W).
  GridMap row(5, 1);
  FlowField both(row);
  const std::vector<CellCoord> ends{{0, 0}, {4, 0}};
  ASSERT_TRUE(both.build(ends).succeeded());
  EXPECT_EQ(both.direction(CellCoord{2, 0}), (Vec2{1, 0}));
  // North before south.
  GridMap column(1, 5);
  FlowField vertical(column);
  const std::vector<CellCoord> tips{{0, 4}, {0, 0}};
  ASSERT_TRUE(vertical.build(tips).succeeded());
  EXPECT_EQ(vertical.direction(CellCoord{0, 2}), (Vec2{0, -1}));
}

TEST(FlowField, DirectionsAreInWorldUnitsOfAPlacedMap) {
  GridMap map(7, 5, grid::GridMapParams{.cell_size = 0.5, .origin = {-3, 2}});
  map.set_passable(3, 2, false);
  FlowField field(map);
  ASSERT_TRUE(field.build(CellCoord{6, 4}).succeeded());
  // The cell's centre gets exactly the cell's direction, which points at the next centre.
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const std::optional<CellCoord> n = field.next_cell(CellCoord{x, y});
      const Vec2 c = map.cell_center(CellCoord{x, y});
      EXPECT_EQ(field.direction_at(c), field.direction(CellCoord{x, y}));
      if (!n) continue;
      const Vec2 to = normalized(map.cell_center(*n) - c);
      EXPECT_NEAR(field.direction(CellCoord{x, y}).x, to.x, 1e-12);
      EXPECT_NEAR(field.direction(CellCoord{x, y}).y, to.y, 1e-12);
      EXPECT_EQ(field.distance_at(c + Vec2{0.2, 0.2}), field.distance(CellCoord{x, y}));
    }
  }
  // Costs in world units: one cardinal step is half a unit.
  EXPECT_DOUBLE_EQ(field.distance(CellCoord{6, 3}), 0.5);
  EXPECT_DOUBLE_EQ(field.distance(CellCoord{5, 3}), 0.5 * std::sqrt(2.0));
}

TEST(FlowField, BlendsBetweenCentresAwayFromWallsAndNotNextToThem) {
  GridMap map(12, 12);
  map.set_passable({6, 3, 7, 9}, false);  // a wall with the goal behind it
  FlowField blended(map);
  FlowField blocky(map, {.interpolate = false});
  ASSERT_TRUE(blended.build(CellCoord{10, 6}).succeeded());
  ASSERT_TRUE(blocky.build(CellCoord{10, 6}).succeeded());
  std::size_t differ = 0;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> at(0.0, 12.0);
  for (int i = 0; i < 20000; ++i) {
    const Vec2 p{at(rng), at(rng)};
    const std::optional<CellCoord> c = map.world_to_cell(p);
    ASSERT_TRUE(c);
    const Vec2 b = blended.direction_at(p);
    EXPECT_EQ(blocky.direction_at(p), blocky.direction(*c));
    if (blocky.direction(*c) == Vec2{}) {
      EXPECT_EQ(b, Vec2{});
      continue;
    }
    EXPECT_NEAR(length(b), 1.0, 1e-12);
    // Next to a wall (a blocked cell among the eight around), only the cell's own direction.
    bool by_wall = false;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) by_wall = by_wall || !map.passable(c->x + dx, c->y + dy);
    }
    if (by_wall && b != blocky.direction(*c)) {
      // Allowed only where the four nearest centres are all open.
      const int x0 = static_cast<int>(std::floor(p.x - 0.5)), y0 = static_cast<int>(std::floor(p.y - 0.5));
      for (int dy = 0; dy <= 1; ++dy) {
        for (int dx = 0; dx <= 1; ++dx) ASSERT_TRUE(map.passable(x0 + dx, y0 + dy)) << p.x << "," << p.y;
      }
    }
    differ += b != blocky.direction(*c) ? 1 : 0;
  }
  EXPECT_GT(differ, 1000u);  // the blend is in use
}

/// Point agents spread over every reachable cell move at `speed` along direction_at with plain
/// Euler steps of `step` world units; each must reach a goal cell without ever standing in a
/// blocked cell.
void expect_agents_arrive(const GridMap& map, const FlowField& field, double step, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<CellId> reachable;
  for (std::uint32_t i = 0; i < map.cell_count(); ++i) {
    if (!std::isinf(field.distance(CellId{i}))) reachable.push_back(CellId{i});
  }
  ASSERT_FALSE(reachable.empty());
  std::uniform_int_distribution<std::size_t> pick(0, reachable.size() - 1);
  std::uniform_real_distribution<double> inside(-0.499, 0.499);
  const double s = map.cell_size();
  double worst = 0;
  for (int agent = 0; agent < 300; ++agent) {
    const CellId start = reachable[pick(rng)];
    Vec2 p = map.cell_center(start) + Vec2{inside(rng), inside(rng)} * s;
    const double budget = 4 * field.distance(start) / (map.min_cost_multiplier() * step) + 20 * s / step;
    int ticks = 0;
    for (;; ++ticks) {
      const std::optional<CellCoord> c = map.world_to_cell(p);
      ASSERT_TRUE(c) << "agent " << agent << " left the map";
      ASSERT_TRUE(map.passable(c->x, c->y)) << "agent " << agent << " entered (" << c->x << "," << c->y << ")";
      if (field.is_goal(*c)) break;
      ASSERT_LT(ticks, budget) << "agent " << agent << " stuck near " << p.x << "," << p.y;
      p += field.direction_at(p) * step;
    }
    worst = std::max(worst, static_cast<double>(ticks) / budget);
  }
  EXPECT_LT(worst, 1.0);
}

TEST(FlowField, PointAgentsReachTheGoalRegionWithoutEnteringWalls) {
  std::mt19937 rng(14);
  for (int round = 0; round < 8; ++round) {
    for (const double cell : {1.0, 0.5}) {
      GridMap map = test::random_grid({36, 28, 0.3, round % 2 == 1}, rng);
      if (cell != 1.0) {  // the same cells, placed elsewhere and smaller
        std::vector<std::uint8_t> passable(map.cell_count());
        for (std::uint32_t i = 0; i < map.cell_count(); ++i) passable[i] = map.passable(CellId{i}) ? 1 : 0;
        map = GridMap(map.width(), map.height(), std::move(passable), {}, {.cell_size = cell, .origin = {5, -7}});
      }
      // A 2×2 goal region where the map has one, else one cell.
      const CellCoord g = map.coord(test::random_passable(map, rng));
      std::vector<CellCoord> goals{g};
      for (const CellCoord o : {CellCoord{g.x + 1, g.y}, CellCoord{g.x, g.y + 1}, CellCoord{g.x + 1, g.y + 1}}) {
        if (map.passable(o.x, o.y)) goals.push_back(o);
      }
      for (const DiagonalRule rule : {DiagonalRule::no_corner_cutting, DiagonalRule::never}) {
        for (const bool interpolate : {true, false}) {
          SCOPED_TRACE(::testing::Message() << "round " << round << " cell " << cell << " rule " << grid::to_string(rule)
                                            << " interpolate " << interpolate);
          FlowField field(map, {.diagonal = rule, .interpolate = interpolate});
          ASSERT_TRUE(field.build(goals).succeeded());
          expect_agents_arrive(map, field, 0.45 * cell, 100 + static_cast<std::uint32_t>(round));
          expect_agents_arrive(map, field, 0.1 * cell, 200 + static_cast<std::uint32_t>(round));
        }
      }
    }
  }
}

TEST(FlowField, FollowFlowSteersTowardTheFieldAtFullSpeedAndBrakesAtTheGoal) {
  GridMap map(20, 10);
  map.set_passable({8, 0, 9, 8}, false);
  FlowField field(map);
  ASSERT_TRUE(field.build(CellCoord{15, 2}).succeeded());
  const AgentParams p;
  AgentState s{.position = {2.3, 3.7}, .velocity = {0.5, -1}};
  const Vec2 f = follow_flow(p, s, field);
  EXPECT_EQ(f, steer_toward(p, s, field.direction_at(s.position) * p.max_speed));
  EXPECT_NE(field.direction_at(s.position), Vec2{});
  s.position = {15.5, 2.5};
  EXPECT_EQ(follow_flow(p, s, field), steer_toward(p, s, {}));

  // Steered agents with the default parameters get round the wall into the goal cell.
  for (const Vec2 start : {Vec2{1.5, 1.5}, Vec2{3.2, 8.8}, Vec2{7.5, 0.5}, Vec2{19.5, 9.5}}) {
    AgentState a{.position = start};
    const double dt = 0.05;
    bool arrived = false;
    for (int tick = 0; tick < 2000 && !arrived; ++tick) {
      a.velocity = integrate_velocity(p, a.velocity, follow_flow(p, a, field), dt);
      advance(a, dt);
      const std::optional<CellCoord> c = map.world_to_cell(a.position);
      ASSERT_TRUE(c);
      arrived = field.is_goal(*c);
    }
    EXPECT_TRUE(arrived) << start.x << "," << start.y;
  }
}

TEST(FlowField, SteeredDiscsMovedByMoveDiscArriveWithoutEnteringWalls) {
  // Inertia can carry a freely integrated agent past a corner into a wall (where the field is
  // zero); moved by move_disc against the map's cells, none gets in and all arrive.
  std::mt19937 rng(41);
  for (int round = 0; round < 4; ++round) {
    const GridMap map = test::random_grid({36, 28, 0.3, round % 2 == 1}, rng);
    ObstacleWorld world;
    world.set_grid(&map);
    const CellCoord goal = map.coord(test::random_passable(map, rng));
    for (const bool interpolate : {true, false}) {
      SCOPED_TRACE(::testing::Message() << "round " << round << " interpolate " << interpolate);
      FlowField field(map, {.interpolate = interpolate});
      ASSERT_TRUE(field.build(goal).succeeded());
      std::vector<CellId> reachable;
      for (std::uint32_t i = 0; i < map.cell_count(); ++i) {
        if (!std::isinf(field.distance(CellId{i}))) reachable.push_back(CellId{i});
      }
      std::uniform_int_distribution<std::size_t> pick(0, reachable.size() - 1);
      const AgentParams p;
      constexpr double dt = 0.05;
      std::vector<Contact> contacts;
      for (int agent = 0; agent < 100; ++agent) {
        AgentState s{.position = map.cell_center(reachable[pick(rng)])};
        bool arrived = false;
        for (int tick = 0; tick < 4000 && !arrived; ++tick) {
          s.velocity = integrate_velocity(p, s.velocity, follow_flow(p, s, field), dt);
          (void)move_disc(world, s, p.radius, dt, all_layers, contacts);
          const std::optional<CellCoord> c = map.world_to_cell(s.position);
          ASSERT_TRUE(c && map.passable(c->x, c->y)) << "agent " << agent << " at " << s.position.x << "," << s.position.y;
          arrived = field.is_goal(*c);
        }
        EXPECT_TRUE(arrived) << "agent " << agent;
      }
    }
  }
}

TEST(FlowField, RebuildAfterAnEditFollowsTheEditedMap) {
  std::mt19937 rng(8);
  GridMap map = test::random_grid({30, 30, 0.2, true}, rng);
  const std::vector<CellCoord> goals = test::random_seeds(map, 2, rng);
  FlowField field(map);
  ASSERT_TRUE(field.build(goals).succeeded());
  EXPECT_FALSE(field.stale());
  map.set_passable({0, 12, 30, 13}, false);
  map.set_passable(goals[0].x, goals[0].y, true);
  map.set_passable(goals[1].x, goals[1].y, true);
  map.set_cost_multiplier(3, 3, 4.0);
  EXPECT_TRUE(field.stale());
  ASSERT_TRUE(field.build(goals).succeeded());
  EXPECT_FALSE(field.stale());
  const std::vector<Cost> ref = reference_field(map, DiagonalRule::no_corner_cutting, goals);
  for (std::uint32_t i = 0; i < map.cell_count(); ++i) ASSERT_TRUE(near(field.distance(CellId{i}), ref[i])) << i;
}

TEST(FlowField, ManyThreadsReadOneField) {
  std::mt19937 rng(21);
  const GridMap map = test::random_grid({64, 64, 0.25, true}, rng);
  FlowField field(map);
  ASSERT_TRUE(field.build(test::random_seeds(map, 3, rng)).succeeded());
  std::vector<Vec2> points(20000);
  std::uniform_real_distribution<double> at(0.0, 64.0);
  for (Vec2& q : points) q = {at(rng), at(rng)};
  const auto sum = [&] {
    Vec2 total;
    double distance = 0;
    for (const Vec2 q : points) {
      total += field.direction_at(q);
      const Cost d = field.distance_at(q);
      if (!std::isinf(d)) distance += d;
    }
    return total + Vec2{distance, 0};
  };
  const Vec2 expected = sum();
  std::vector<Vec2> got(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) threads.emplace_back([&, t] { got[t] = sum(); });
  for (std::thread& t : threads) t.join();
  for (const Vec2 g : got) EXPECT_EQ(g, expected);
}

}  // namespace
}  // namespace waymark::steer::flow_field_test
