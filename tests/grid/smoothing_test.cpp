// Line of sight, path smoothing and Theta* on grids, against an exact rational reference
// written here: every cell whose closed square the closed segment meets, found by clipping the
// segment against each square in doubled integer coordinates (cell centres odd, edges even).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "support/rectangle_obstacles.hpp"
#include "waymark/grid/any_angle.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/line_of_sight.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/visibility/visibility_graph.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::grid_smoothing_test {
namespace {

using namespace grid;

constexpr DiagonalRule every_rule[] = {DiagonalRule::never, DiagonalRule::always, DiagonalRule::at_most_one_obstacle,
                                       DiagonalRule::no_corner_cutting};

// ---- the reference ------------------------------------------------------------------------

/// A fraction num/den, den > 0.
struct Frac {
  std::int64_t num;
  std::int64_t den;
};
bool less(Frac a, Frac b) { return a.num * b.den < b.num * a.den; }
bool equal(Frac a, Frac b) { return a.num * b.den == b.num * a.den; }
struct FracLess {
  bool operator()(Frac a, Frac b) const { return less(a, b); }
};
Frac fmax(Frac a, Frac b) { return less(a, b) ? b : a; }
Frac fmin(Frac a, Frac b) { return less(a, b) ? a : b; }

/// The t range where p(t) = p0 + t·d lies in [lo, hi]; den 0 marks an empty range.
struct Range {
  Frac lo;
  Frac hi;
  bool empty;
};
Range axis_range(std::int64_t p0, std::int64_t d, std::int64_t lo, std::int64_t hi) {
  if (d == 0) return {{0, 1}, {1, 1}, p0 < lo || p0 > hi};
  Frac a{lo - p0, d};
  Frac b{hi - p0, d};
  if (d < 0) {
    a = {p0 - lo, -d};
    b = {p0 - hi, -d};
    std::swap(a, b);
  }
  return {a, b, false};
}

struct ReferenceSegment {
  bool allowed = true;
  double cost = 0;                      ///< world units × multipliers (when allowed)
  std::vector<CellCoord> passed;        ///< cells met over a positive length, in t order
  std::map<Frac, std::vector<CellCoord>, FracLess> touched;  ///< by t: cells met in one point
};

/// The reference: every cell in the segment's box (grown by one) clipped exactly.
ReferenceSegment reference_segment(const GridMap& map, DiagonalRule rule, CellCoord a, CellCoord b) {
  ReferenceSegment r;
  const std::int64_t ax = 2 * a.x + 1, ay = 2 * a.y + 1;
  const std::int64_t dx = 2 * (b.x - a.x), dy = 2 * (b.y - a.y);
  std::vector<std::pair<Frac, CellCoord>> passed;
  double weighted = 0;  // Σ multiplier × length fraction
  for (int y = std::min(a.y, b.y) - 1; y <= std::max(a.y, b.y) + 1; ++y) {
    for (int x = std::min(a.x, b.x) - 1; x <= std::max(a.x, b.x) + 1; ++x) {
      const Range rx = axis_range(ax, dx, 2 * x, 2 * x + 2);
      const Range ry = axis_range(ay, dy, 2 * y, 2 * y + 2);
      if (rx.empty || ry.empty) continue;
      const Frac enter = fmax(Frac{0, 1}, fmax(rx.lo, ry.lo));
      const Frac leave = fmin(Frac{1, 1}, fmin(rx.hi, ry.hi));
      if (less(leave, enter)) continue;
      const CellCoord c{x, y};
      if (equal(enter, leave)) {
        r.touched[enter].push_back(c);  // both side cells of a corner: equal t, one key
        continue;
      }
      passed.push_back({enter, c});
      const bool inside = map.in_bounds(x, y);
      if (!inside || !map.passable(x, y)) {
        r.allowed = false;
        continue;
      }
      const double fraction = static_cast<double>(leave.num * enter.den - enter.num * leave.den) /
                              static_cast<double>(leave.den * enter.den);
      weighted += map.cost_multiplier(map.cell(x, y)) * fraction;
    }
  }
  std::sort(passed.begin(), passed.end(), [](const auto& p, const auto& q) { return less(p.first, q.first); });
  for (const auto& p : passed) r.passed.push_back(p.second);
  for (const auto& [t, cells] : r.touched) {
    EXPECT_EQ(cells.size(), 2u) << "a corner touches two side cells";
    if (cells.size() != 2) continue;
    const bool a_open = map.passable(cells[0].x, cells[0].y);
    const bool b_open = map.passable(cells[1].x, cells[1].y);
    bool ok = false;
    switch (rule) {
      case DiagonalRule::never: ok = false; break;
      case DiagonalRule::always: ok = true; break;
      case DiagonalRule::at_most_one_obstacle: ok = a_open || b_open; break;
      case DiagonalRule::no_corner_cutting: ok = a_open && b_open; break;
    }
    if (!ok) r.allowed = false;
  }
  r.cost = weighted * std::hypot(b.x - a.x, b.y - a.y) * map.cell_size();
  return r;
}

bool same_cost(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

/// Every segment of `waypoints` allowed by the reference; returns their summed cost.
::testing::AssertionResult reference_valid(const GridMap& map, DiagonalRule rule, const std::vector<CellId>& waypoints,
                                           double* cost = nullptr) {
  double total = 0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    const ReferenceSegment r = reference_segment(map, rule, map.coord(waypoints[i - 1]), map.coord(waypoints[i]));
    if (!r.allowed) {
      const CellCoord p = map.coord(waypoints[i - 1]), q = map.coord(waypoints[i]);
      return ::testing::AssertionFailure() << "segment " << i << " (" << p.x << "," << p.y << ")-(" << q.x << ","
                                           << q.y << ") not allowed under " << to_string(rule);
    }
    total += r.cost;
  }
  if (cost) *cost = total;
  return ::testing::AssertionSuccess();
}

GridMap random_map(std::mt19937& rng, int w, int h, double density, bool terrain) {
  return test::random_grid({w, h, density, terrain}, rng);
}

// ---- line of sight --------------------------------------------------------------------------

/// Short offsets -2..2 for segments between near cells.
int b_dx(int q) { return q % 5 - 2; }

TEST(LineOfSight, WalkMatchesTheExactReferenceOnRandomSegments) {
  std::mt19937 rng(13);
  for (int m = 0; m < 24; ++m) {
    const GridMap map = random_map(rng, 9 + m % 7, 7 + m % 5, 0.2, m % 2 == 1);
    std::uniform_int_distribution<int> px(0, map.width() - 1), py(0, map.height() - 1);
    for (int q = 0; q < 150; ++q) {
      const CellCoord a{px(rng), py(rng)};
      const CellCoord b = q % 5 == 0 ? CellCoord{a.x + (b_dx(q)), a.y + b_dx(q + 1)} : CellCoord{px(rng), py(rng)};
      if (!map.in_bounds(b.x, b.y)) continue;
      // The walk's cells and corners are the reference's, in order.
      std::vector<CellCoord> passed;
      std::vector<std::vector<CellCoord>> corners;
      std::int64_t last_leave = 0;
      walk_segment(a, b, [&](const SegmentPiece& p) {
        if (p.corner) {
          corners.push_back({p.cell, p.side});
        } else {
          EXPECT_EQ(p.enter, last_leave);
          EXPECT_LT(p.enter, p.leave);
          last_leave = p.leave;
          passed.push_back(p.cell);
        }
        return true;
      });
      EXPECT_EQ(last_leave, segment_denominator(a, b));
      for (const DiagonalRule rule : every_rule) {
        const ReferenceSegment r = reference_segment(map, rule, a, b);
        ASSERT_EQ(passed.size(), r.passed.size());
        for (std::size_t i = 0; i < passed.size(); ++i) EXPECT_EQ(passed[i], r.passed[i]);
        ASSERT_EQ(corners.size(), r.touched.size());
        std::size_t k = 0;
        for (const auto& [t, cells] : r.touched) {
          EXPECT_TRUE((corners[k][0] == cells[0] && corners[k][1] == cells[1]) ||
                      (corners[k][0] == cells[1] && corners[k][1] == cells[0]));
          ++k;
        }
        const Cost c = segment_cost(map, rule, a, b);
        EXPECT_EQ(c < infinite_cost, r.allowed) << to_string(rule);
        EXPECT_EQ(line_of_sight(map, rule, a, b), r.allowed);
        if (r.allowed) {
          EXPECT_TRUE(same_cost(c, r.cost)) << c << " vs " << r.cost;
        }
      }
    }
  }
}

TEST(LineOfSight, OneStepCostsExactlyTheMoveAndIsAllowedExactlyWhenTheSearchMayTakeIt) {
  std::mt19937 rng(5);
  for (const bool terrain : {false, true}) {
    const GridMap map = random_map(rng, 12, 10, 0.3, terrain);
    for (const DiagonalRule rule : every_rule) {
      const GridSpace space(map, rule);
      for (int y = 0; y < map.height(); ++y) {
        for (int x = 0; x < map.width(); ++x) {
          if (!map.passable(x, y)) continue;
          const CellId c = map.cell(x, y);
          for (unsigned i = 0; i < grid_moves.size(); ++i) {
            const CellCoord n{x + grid_moves[i].dx, y + grid_moves[i].dy};
            if (!map.in_bounds(n.x, n.y)) continue;
            const bool move_allowed = (space.move_mask(c) >> i & 1u) != 0;
            const Cost cost = segment_cost(map, rule, CellCoord{x, y}, n);
            EXPECT_EQ(cost < infinite_cost, move_allowed) << x << "," << y << " move " << i << " " << to_string(rule);
            if (move_allowed) {
              EXPECT_EQ(cost, map.move_cost(c, map.cell(n.x, n.y), i >= first_diagonal_move));
            }
          }
        }
      }
    }
  }
}

TEST(LineOfSight, CornersFollowTheRule) {
  // . #      (0,0) to (1,1) passes the corner shared by (1,0) blocked and (0,1) open.
  // . .
  GridMap map(2, 2);
  map.set_passable(1, 0, false);
  EXPECT_EQ(segment_cost(map, DiagonalRule::no_corner_cutting, {0, 0}, {1, 1}), infinite_cost);
  EXPECT_EQ(segment_cost(map, DiagonalRule::never, {0, 0}, {1, 1}), infinite_cost);
  EXPECT_DOUBLE_EQ(segment_cost(map, DiagonalRule::at_most_one_obstacle, {0, 0}, {1, 1}), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(segment_cost(map, DiagonalRule::always, {0, 0}, {1, 1}), std::sqrt(2.0));
  map.set_passable(0, 1, false);
  EXPECT_EQ(segment_cost(map, DiagonalRule::at_most_one_obstacle, {0, 0}, {1, 1}), infinite_cost);
  EXPECT_DOUBLE_EQ(segment_cost(map, DiagonalRule::always, {0, 0}, {1, 1}), std::sqrt(2.0));
  // 4-connected: a segment that crosses no corner is fine, one through a corner is not.
  const GridMap open(5, 5);
  EXPECT_DOUBLE_EQ(segment_cost(open, DiagonalRule::never, {0, 0}, {2, 1}), std::sqrt(5.0));
  EXPECT_EQ(segment_cost(open, DiagonalRule::never, {0, 0}, {2, 2}), infinite_cost);
  EXPECT_EQ(segment_cost(open, DiagonalRule::never, {0, 0}, {-1, 0}), infinite_cost);  // out of bounds
}

TEST(LineOfSight, TerrainCostIsLengthTimesMultipliersAndCellSize) {
  GridMap map(4, 1, GridMapParams{.cell_size = 2.0});
  map.set_cost_multiplier(1, 0, 3.0);
  map.set_cost_multiplier(2, 0, 0.5);
  // Half of (0,0), all of (1,0) and (2,0), half of (3,0): 2 × (0.5 + 3 + 0.5 + 0.5) = 9.
  EXPECT_DOUBLE_EQ(segment_cost(map, DiagonalRule::no_corner_cutting, {0, 0}, {3, 0}), 9.0);
}

// ---- smoothing ------------------------------------------------------------------------------

struct Query {
  CellId start;
  CellId goal;
};

TEST(Smoothing, SmoothedPathsAreValidNeverDearerNeverLonger) {
  std::mt19937 rng(21);
  std::vector<CellId> smoothed, compressed, cells;
  std::size_t checked = 0, shortened = 0;
  for (int m = 0; m < 16; ++m) {
    const bool terrain = m % 2 == 1;
    const GridMap map = random_map(rng, 24 + m, 20, 0.25, terrain);
    for (const DiagonalRule rule : every_rule) {
      GridPlanner planner(map, {.algorithm = Algorithm::astar, .diagonal = rule});
      search::SearchHandle<CellId> planner_search = planner.make_search();
      for (int q = 0; q < 12; ++q) {
        const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
        if (!planner_search.run(s, g).succeeded()) continue;
        const std::vector<CellId>& raw = planner_search.path().nodes;
        const SmoothingResult r = smooth_path(GridSpace(map, rule), raw, smoothed);
        ++checked;
        SCOPED_TRACE(std::string(to_string(rule)) + (terrain ? " terrain" : ""));
        ASSERT_FALSE(smoothed.empty());
        EXPECT_EQ(smoothed.front(), raw.front());
        EXPECT_EQ(smoothed.back(), raw.back());
        EXPECT_LE(smoothed.size(), raw.size());
        EXPECT_TRUE(same_cost(r.raw_cost, planner_search.path().cost));
        double ref_cost = 0;
        EXPECT_TRUE(reference_valid(map, rule, smoothed, &ref_cost));
        EXPECT_TRUE(same_cost(r.cost, ref_cost));
        EXPECT_LE(r.cost, planner_search.path().cost * (1 + 1e-9));
        if (r.cost < planner_search.path().cost - 1e-9) ++shortened;
        // The waypoints are raw cells, in order.
        std::size_t k = 0;
        for (const CellId c : smoothed) {
          while (k < raw.size() && raw[k] != c) ++k;
          ASSERT_LT(k, raw.size()) << "smoothed waypoint not on the raw path in order";
        }
        // Back to cells: a path the search could have taken, costing no less than the segments.
        ASSERT_TRUE(expand_to_cells(map, smoothed, cells));
        const GridSpace space(map, rule);
        Path<CellId> expanded{cells, 0};
        for (std::size_t i = 1; i < cells.size(); ++i) {
          const CellCoord a = map.coord(cells[i - 1]), b = map.coord(cells[i]);
          expanded.cost += map.move_cost(cells[i - 1], cells[i], a.x != b.x && a.y != b.y);
        }
        EXPECT_TRUE(test::is_valid_path(space, expanded, s, g));
        EXPECT_GE(expanded.cost, r.cost * (1 - 1e-9));
        // Compression keeps validity and cost.
        compress_path(map, raw, compressed);
        EXPECT_LE(compressed.size(), raw.size());
        double compressed_cost = 0;
        EXPECT_TRUE(reference_valid(map, rule, compressed, &compressed_cost));
        EXPECT_TRUE(same_cost(compressed_cost, planner_search.path().cost));
        EXPECT_TRUE(same_cost(waypoint_path_cost(GridSpace(map, rule), compressed), planner_search.path().cost));
        ASSERT_TRUE(expand_to_cells(map, compressed, cells));
        EXPECT_EQ(cells, raw);
      }
    }
  }
  EXPECT_GT(checked, 500u);
  EXPECT_GT(shortened, checked / 4);  // smoothing does something
}

TEST(Smoothing, AStepThatIsNotAllowedIsKeptAndMakesTheCostInfinite) {
  // . . . . . . . .     row 0 is open end to end, so (0,0)-(7,0) is in sight, but the input
  // . . . . # . . .     steps from (3,1) to (5,1) through the blocked (4,1): that step must
  // . . . . . . . .     stay, and no shortcut may pass over it.
  GridMap map(8, 3);
  map.set_passable(4, 1, false);
  const auto c = [&](int x, int y) { return map.cell(x, y); };
  const std::vector<CellId> path{c(0, 0), c(1, 0), c(2, 0), c(3, 1), c(5, 1), c(6, 0), c(7, 0)};
  std::vector<CellId> out;
  const SmoothingResult r = smooth_path(GridSpace(map, DiagonalRule::no_corner_cutting), path, out);
  // Before the bad step: (0,0)-(3,1) through one corner with both side cells open (√10 < 2 + √2);
  // after it: (5,1)-(7,0) (√5 < √2 + 1).
  EXPECT_EQ(out, (std::vector<CellId>{c(0, 0), c(3, 1), c(5, 1), c(7, 0)}));
  EXPECT_EQ(r.cost, infinite_cost);
  EXPECT_EQ(r.raw_cost, infinite_cost);
  // The bad step first: kept, and nothing skips past it.
  const std::vector<CellId> first_bad{c(3, 1), c(5, 1), c(6, 0), c(7, 0)};
  EXPECT_EQ(smooth_path(GridSpace(map, DiagonalRule::no_corner_cutting), first_bad, out).cost, infinite_cost);
  EXPECT_EQ(out, (std::vector<CellId>{c(3, 1), c(5, 1), c(7, 0)}));
  // The same path without the bad step smooths to one segment at a finite cost.
  const std::vector<CellId> good{c(0, 0), c(1, 0), c(2, 0), c(3, 0), c(4, 0), c(5, 0), c(6, 0), c(7, 0)};
  EXPECT_DOUBLE_EQ(smooth_path(GridSpace(map, DiagonalRule::no_corner_cutting), good, out).cost, 7.0);
  EXPECT_EQ(out, (std::vector<CellId>{c(0, 0), c(7, 0)}));
}

/// The documented greedy rule written plainly: the skipped steps summed afresh, forward, for
/// every candidate, and no shortcut over a step that is not allowed.
std::vector<CellId> reference_smooth(const GridMap& map, DiagonalRule rule, const std::vector<CellId>& path,
                                     double& cost) {
  constexpr double slack = 1 + SmoothingParams{}.cost_tolerance;
  std::vector<CellId> out{path[0]};
  cost = 0;
  std::size_t anchor = 0;
  while (anchor + 1 < path.size()) {
    std::size_t next = anchor + 1;
    Cost next_cost = segment_cost(map, rule, path[anchor], path[anchor + 1]);
    for (std::size_t j = path.size() - 1; j > anchor + 1; --j) {
      const Cost straight = segment_cost(map, rule, path[anchor], path[j]);
      Cost replaced = 0;
      for (std::size_t k = anchor + 1; k <= j; ++k) replaced += segment_cost(map, rule, path[k - 1], path[k]);
      if (straight == infinite_cost || replaced == infinite_cost) continue;
      if (straight <= replaced * slack) {
        next = j;
        next_cost = straight;
        break;
      }
    }
    cost += next_cost;
    out.push_back(path[next]);
    anchor = next;
  }
  return out;
}

TEST(Smoothing, RunningSumDecidesAsTheFreshSumsDo) {
  // The implementation sums the skipped steps once and subtracts as the scan comes nearer;
  // the reference re-sums. The first candidate's sum is the same sum; later ones differ by
  // rounding (about an ulp of the first sum per step subtracted), which could flip only a
  // decision within that of the 1e-9 tolerance boundary: none of these inputs has such a
  // near-tie, so the waypoints and the cost (the same segments summed in the same order) are
  // compared exactly.
  // Inputs: A* paths with terrain (where the farthest visible waypoint is often dearer, so the
  // subtraction runs), and the same with random waypoints dropped, which makes some steps
  // long, some of them not allowed.
  std::mt19937 rng(61);
  std::vector<CellId> out;
  std::size_t checked = 0, invalid = 0;
  for (int m = 0; m < 8; ++m) {
    const GridMap map = random_map(rng, 30, 24, 0.2, true);
    for (const DiagonalRule rule : every_rule) {
      GridPlanner planner(map, {.algorithm = Algorithm::astar, .diagonal = rule});
      search::SearchHandle<CellId> planner_search = planner.make_search();
      for (int q = 0; q < 10; ++q) {
        const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
        if (!planner_search.run(s, g).succeeded()) continue;
        std::vector<CellId> input = planner_search.path().nodes;
        for (int round = 0; round < 2; ++round) {
          double ref_cost = 0;
          const std::vector<CellId> expected = reference_smooth(map, rule, input, ref_cost);
          const SmoothingResult r = smooth_path(GridSpace(map, rule), input, out);
          EXPECT_EQ(out, expected) << to_string(rule);
          EXPECT_EQ(r.cost, ref_cost);
          ++checked;
          if (r.raw_cost == infinite_cost) {
            ++invalid;
            EXPECT_EQ(r.cost, infinite_cost);
          }
          // Drop about a third of the interior waypoints for the second round.
          std::vector<CellId> thinned{input.front()};
          for (std::size_t i = 1; i + 1 < input.size(); ++i) {
            if (rng() % 3 != 0) thinned.push_back(input[i]);
          }
          if (input.size() > 1) thinned.push_back(input.back());
          input = thinned;
        }
      }
    }
  }
  EXPECT_GT(checked, 400u);
  EXPECT_GT(invalid, 20u);  // the invalid inputs were exercised
}

TEST(Smoothing, StaircaseBecomesOneSegmentOnAnOpenMap) {
  const GridMap map(10, 10);
  GridPlanner planner(map, {.algorithm = Algorithm::astar, .diagonal = DiagonalRule::never});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  ASSERT_TRUE(planner_search.run(map.cell(0, 0), map.cell(9, 4)).succeeded());
  std::vector<CellId> out;
  const SmoothingResult r = smooth_path(GridSpace(map, DiagonalRule::never), planner_search.path().nodes, out);
  // (9,4) from (0,0) crosses no corner (9 and 4 share no factor with a doubled-centre
  // crossing), so one segment of length √97.
  ASSERT_EQ(out.size(), 2u);
  EXPECT_DOUBLE_EQ(r.cost, std::sqrt(97.0));
  EXPECT_DOUBLE_EQ(r.raw_cost, 13.0);
}

TEST(Smoothing, CompressionDropsCollinearWaypointsOnly) {
  const GridMap map(10, 10);
  const auto c = [&](int x, int y) { return map.cell(x, y); };
  const std::vector<CellId> path{c(0, 0), c(1, 0), c(2, 0), c(2, 0), c(3, 1), c(4, 2), c(4, 3), c(3, 3)};
  std::vector<CellId> out;
  compress_path(map, path, out);
  EXPECT_EQ(out, (std::vector<CellId>{c(0, 0), c(2, 0), c(4, 2), c(4, 3), c(3, 3)}));
  // Going back the way it came is no straight line.
  compress_path(map, std::vector<CellId>{c(0, 0), c(3, 0), c(1, 0)}, out);
  EXPECT_EQ(out.size(), 3u);
}

TEST(Smoothing, InterpolationPlacesPointsAtTheSpacingInWorldUnits) {
  const GridMap map(10, 10, GridMapParams{.cell_size = 2.0, .origin = {100, -50}});
  const std::vector<CellId> waypoints{map.cell(0, 0), map.cell(3, 0), map.cell(3, 4)};  // 6 + 8 world units
  std::vector<Vec3> out;
  ASSERT_TRUE(interpolate_path(map, waypoints, 1.5, out));
  ASSERT_EQ(out.size(), 11u);  // 0, 1.5, ..., 13.5, then the end at 14
  EXPECT_EQ(out.front(), map.position(waypoints.front()));
  EXPECT_EQ(out.back(), map.position(waypoints.back()));
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    EXPECT_NEAR(distance(out[i - 1], out[i]), out[i - 1].x == out[i].x || out[i - 1].y == out[i].y ? 1.5 : 0, 1e-9)
        << i;
  }
  EXPECT_NEAR(out[4].x, 101 + 6, 1e-12);  // the corner at arc length 6 is point 4
  EXPECT_NEAR(out[4].y, -49, 1e-12);
  EXPECT_FALSE(interpolate_path(map, waypoints, 0, out));
  EXPECT_FALSE(interpolate_path(map, waypoints, std::nan(""), out));
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(interpolate_path(map, std::vector<CellId>{map.cell(2, 2)}, 1.0, out));
  EXPECT_EQ(out.size(), 1u);
}

TEST(Smoothing, BadInputIsRefusedWithoutThrowing) {
  const GridMap map(4, 4);
  std::vector<CellId> out;
  const std::vector<CellId> bad{map.cell(0, 0), CellId{999}};
  EXPECT_EQ(waypoint_path_cost(GridSpace(map, DiagonalRule::always), bad), infinite_cost);
  EXPECT_FALSE(expand_to_cells(map, bad, out));
  EXPECT_EQ(smooth_path(GridSpace(map, DiagonalRule::always), bad, out).cost, infinite_cost);
  EXPECT_EQ(smooth_path(GridSpace(map, DiagonalRule::always), {}, out).cost, infinite_cost);  // no path: no finite cost
  EXPECT_TRUE(out.empty());
}

TEST(Smoothing, AllocatesNothingAfterWarmUp) {
  std::mt19937 rng(3);
  const GridMap map = random_map(rng, 40, 40, 0.2, true);
  GridPlanner planner(map, {.algorithm = Algorithm::astar});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  std::vector<std::vector<CellId>> paths;
  while (paths.size() < 20) {
    if (planner_search.run(test::random_passable(map, rng), test::random_passable(map, rng)).succeeded())
      paths.push_back(planner_search.path().nodes);
  }
  std::vector<CellId> smoothed, compressed, cells;
  std::vector<Vec3> points;
  const GridSpace& space = planner.space();
  test::expect_no_allocation_after_warm_up([&] {
    std::size_t done = 0;
    for (const auto& p : paths) {
      smooth_path(space, p, smoothed);
      compress_path(map, p, compressed);
      done += expand_to_cells(map, smoothed, cells) ? 1 : 0;
      done += interpolate_path(map, smoothed, 0.25, points) ? 1 : 0;
    }
    return done;
  });
}

// ---- Theta* ---------------------------------------------------------------------------------

TEST(Theta, PathsAreValidAndNoDearerThanTheGridOptimum) {
  std::mt19937 rng(34);
  std::size_t checked = 0, shorter = 0;
  for (int m = 0; m < 12; ++m) {
    const bool terrain = m % 3 == 2;
    const GridMap map = random_map(rng, 22 + m, 18, 0.25, terrain);
    for (const DiagonalRule rule : every_rule) {
      SCOPED_TRACE(std::string(to_string(rule)) + (terrain ? " terrain" : ""));
      GridPlanner astar(map, {.algorithm = Algorithm::astar, .diagonal = rule});
      search::SearchHandle<CellId> astar_search = astar.make_search();
      GridPlanner theta(map, {.algorithm = Algorithm::theta, .diagonal = rule});
      search::SearchHandle<CellId> theta_search = theta.make_search();
      for (int q = 0; q < 10; ++q) {
        const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
        const Status a = astar_search.run(s, g);
        const Status t = theta_search.run(s, g);
        ASSERT_EQ(a.succeeded(), t.succeeded());
        if (!t.succeeded()) continue;
        ++checked;
        const std::vector<CellId>& w = theta_search.path().nodes;
        EXPECT_EQ(w.front(), s);
        EXPECT_EQ(w.back(), g);
        double ref_cost = 0;
        EXPECT_TRUE(reference_valid(map, rule, w, &ref_cost));
        EXPECT_TRUE(same_cost(theta_search.path().cost, ref_cost));
        EXPECT_LE(theta_search.path().cost, astar_search.path().cost * (1 + 1e-9));
        if (theta_search.path().cost < astar_search.path().cost - 1e-9) ++shorter;
      }
    }
  }
  EXPECT_GT(checked, 300u);
  EXPECT_GT(shorter, checked / 4);
}

TEST(Theta, OpenMapGivesTheStraightLine) {
  const GridMap map(30, 20);
  GridPlanner theta(map, {.algorithm = Algorithm::theta});
  search::SearchHandle<CellId> theta_search = theta.make_search();
  ASSERT_TRUE(theta_search.run(map.cell(1, 2), map.cell(28, 17)).succeeded());
  EXPECT_EQ(theta_search.path().nodes.size(), 2u);
  EXPECT_DOUBLE_EQ(theta_search.path().cost, std::hypot(27.0, 15.0));
  EXPECT_FALSE(is_cost_optimal(Algorithm::theta));
  EXPECT_EQ(parse_algorithm("theta"), Algorithm::theta);
}

TEST(Theta, NeverShorterThanTheEuclideanShortestPath) {
  std::mt19937 rng(55);
  std::size_t checked = 0;
  std::vector<CellRect> rects;
  for (int m = 0; m < 10; ++m) {
    const GridMap map = test::rectangle_map(rng, {.width = 20, .height = 16, .count = 14}, rects);
    const visibility::VisibilityGraph graph(test::rectangle_obstacles(map, rects));
    visibility::VisibilityQuery esp(graph);
    for (const DiagonalRule rule : every_rule) {
      GridPlanner theta(map, {.algorithm = Algorithm::theta, .diagonal = rule});
      search::SearchHandle<CellId> theta_search = theta.make_search();
      GridPlanner astar(map, {.algorithm = Algorithm::astar, .diagonal = rule});
      search::SearchHandle<CellId> astar_search = astar.make_search();
      for (int q = 0; q < 10; ++q) {
        const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
        if (!theta_search.run(s, g).succeeded()) continue;
        ASSERT_TRUE(astar_search.run(s, g).succeeded());
        ASSERT_TRUE(esp.find_path(map.cell_center(s), map.cell_center(g)).succeeded());
        ++checked;
        EXPECT_GE(theta_search.path().cost, esp.path().length - 1e-9) << to_string(rule);
        EXPECT_LE(theta_search.path().cost, astar_search.path().cost + 1e-9);
      }
    }
  }
  EXPECT_GT(checked, 300u);
}

TEST(Theta, PathIsEmptyWhileANewQueryRunsAsForJumpsAndAStar) {
  // Theta* and the jump searches hand out a path of their own (waypoints, expanded jump
  // points): during a new query it must not still show the previous query's answer.
  std::mt19937 rng(9);
  const GridMap map = random_map(rng, 40, 30, 0.2, false);
  for (const Algorithm a : {Algorithm::theta, Algorithm::jps, Algorithm::jps_plus, Algorithm::astar}) {
    SCOPED_TRACE(std::string(to_string(a)));
    GridPlanner planner(map, {.algorithm = a});
    search::SearchHandle<CellId> planner_search = planner.make_search();
    GridPlanner reference(map, {.algorithm = a});
    search::SearchHandle<CellId> reference_search = reference.make_search();
    int checked = 0;
    for (int q = 0; q < 30 && checked < 5; ++q) {
      const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
      const CellId s2 = test::random_passable(map, rng), g2 = test::random_passable(map, rng);
      if (!planner_search.run(s, g).succeeded() || planner_search.path().nodes.size() < 2) continue;
      search::SearchHandle<CellId>& own = planner_search;
      own.begin(s2, g2);
      if (!own.step(search::Budget::of_expansions(1)).running()) continue;
      ++checked;
      EXPECT_TRUE(planner_search.path().nodes.empty());
      EXPECT_TRUE(own.path().nodes.empty());
      while (own.step(search::Budget::of_expansions(4)).running()) {
        EXPECT_TRUE(own.path().nodes.empty());
      }
      ASSERT_EQ(own.status().state, reference_search.run(s2, g2).state);
      EXPECT_EQ(planner_search.path().nodes, reference_search.path().nodes);
      EXPECT_EQ(planner_search.path().cost, reference_search.path().cost);
    }
    EXPECT_EQ(checked, 5);
  }
}

TEST(Theta, SteppedEqualsOneShot) {
  std::mt19937 rng(8);
  const GridMap map = random_map(rng, 30, 30, 0.25, true);
  GridPlanner planner(map, {.algorithm = Algorithm::theta});
  search::SearchHandle<CellId> planner_search = planner.make_search();
  search::SearchHandle<CellId> stepped = planner.make_search();
  for (int q = 0; q < 20; ++q) {
    const CellId s = test::random_passable(map, rng), g = test::random_passable(map, rng);
    const Status one = planner_search.run(s, g);
    stepped.begin(s, g);
    while (stepped.step(search::Budget::of_expansions(3)).running()) {
    }
    EXPECT_EQ(stepped.status().state, one.state);
    EXPECT_EQ(stepped.path().nodes, planner_search.path().nodes);
    EXPECT_EQ(stepped.path().cost, planner_search.path().cost);
  }
}

}  // namespace
}  // namespace waymark::grid_smoothing_test
