// Why a query failed, on every world, and the partial paths a failed query leaves: unreachable,
// start blocked, goal blocked, out of bounds and budget exhausted are told apart; a partial path
// runs from the start to the reached node nearest the goal (checked against a reference
// Dijkstra and the search's own event stream).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/core/status.hpp"
#include "waymark/core/triangle_mesh.hpp"
#include "waymark/graph/graph.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/puzzle/sliding_puzzle.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::failure_test {
namespace {

using search::Budget;
using search::QueryOptions;
using search::SearchHandle;

constexpr StatusDetail refused = StatusDetail::invalid_query;

// ---- Status itself ---------------------------------------------------------------------------

TEST(FailureReason, StatusNamesTheMostSpecificCause) {
  EXPECT_EQ(Status::success().reason(), FailureReason::none);
  EXPECT_EQ(Status{}.reason(), FailureReason::none);
  EXPECT_EQ(Status::failure().reason(), FailureReason::unspecified);
  EXPECT_EQ(Status::failure(StatusDetail::unreachable).reason(), FailureReason::unreachable);
  EXPECT_EQ(Status::failure(StatusDetail::unreachable | StatusDetail::partial_result).reason(),
            FailureReason::unreachable);
  EXPECT_EQ(Status::failure(refused | StatusDetail::start_blocked).reason(), FailureReason::start_blocked);
  EXPECT_EQ(Status::failure(refused | StatusDetail::goal_blocked).reason(), FailureReason::goal_blocked);
  EXPECT_EQ(Status::failure(refused | StatusDetail::start_blocked | StatusDetail::goal_blocked).reason(),
            FailureReason::goal_blocked);  // the goal first, as the engine checks it
  EXPECT_EQ(Status::failure(refused | StatusDetail::start_blocked | StatusDetail::out_of_bounds).reason(),
            FailureReason::out_of_bounds);
  EXPECT_EQ(Status::failure(refused).reason(), FailureReason::invalid_query);
  EXPECT_EQ(Status::failure(StatusDetail::out_of_nodes).reason(), FailureReason::budget_exhausted);
  EXPECT_EQ(Status::failure(StatusDetail::time_limit | StatusDetail::partial_result).reason(),
            FailureReason::budget_exhausted);
  EXPECT_EQ(Status::failure(StatusDetail::cancelled).reason(), FailureReason::cancelled);
  EXPECT_EQ(Status::failure(StatusDetail::stale_world | refused).reason(), FailureReason::stale_world);
  // The spelling scheme of the flags carries over to the new ones.
  EXPECT_EQ(describe(Status::failure(refused | StatusDetail::start_blocked)),
            "failure (invalid-query+start-blocked)");
  EXPECT_EQ(describe(Status::failure(StatusDetail::partial_result | StatusDetail::unreachable)),
            "failure (partial-result+unreachable)");
  EXPECT_EQ(describe(Status::failure(refused | StatusDetail::goal_blocked | StatusDetail::out_of_bounds)),
            "failure (invalid-query+goal-blocked+out-of-bounds)");
  EXPECT_EQ(to_string(FailureReason::budget_exhausted), "budget-exhausted");
  EXPECT_EQ(to_string(FailureReason::out_of_bounds), "out-of-bounds");
}

// ---- grids -------------------------------------------------------------------------------------

/// 14 x 9, a wall down column 9 (the right strip is cut off), one blocked cell at (4,4). Small,
/// so that IDA* proves the cut-off goal unreachable quickly.
grid::GridMap walled_map() {
  grid::GridMap map(14, 9);
  for (int y = 0; y < 9; ++y) map.set_passable(9, y, false);
  map.set_passable(4, 4, false);
  return map;
}

TEST(FailureReason, EveryGridAlgorithmTellsEachReasonApart) {
  const grid::GridMap map = walled_map();
  const CellId start = map.cell(1, 1);
  const CellId goal = map.cell(7, 7);
  const CellId cut_off = map.cell(12, 4);
  const CellId wall = map.cell(4, 4);
  const CellId past_end{static_cast<std::uint32_t>(map.cell_count())};
  for (const auto& [algorithm, name] : grid::algorithm_names) {
    SCOPED_TRACE(std::string(name));
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    SearchHandle<CellId> h = planner.make_search();
    ASSERT_TRUE(h.run(start, goal).succeeded()) << describe(h.status());

    Status st = h.run(start, wall);
    EXPECT_EQ(st.reason(), FailureReason::goal_blocked) << describe(st);
    EXPECT_TRUE(st.has(refused));  // as before: a refusal, now with its cause
    EXPECT_EQ(h.stats().expanded, 0u);
    st = h.run(wall, goal);
    EXPECT_EQ(st.reason(), FailureReason::start_blocked) << describe(st);
    EXPECT_TRUE(st.has(refused));
    for (const auto& [from, to] : {std::pair{start, past_end}, std::pair{past_end, goal},
                                   std::pair{CellId::invalid(), goal}, std::pair{start, CellId::invalid()}}) {
      st = h.run(from, to);
      EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
      EXPECT_TRUE(st.has(refused));
      EXPECT_TRUE(h.path().empty());
    }

    st = h.run(start, cut_off);
    EXPECT_EQ(st.reason(), FailureReason::unreachable) << describe(st);
    EXPECT_FALSE(st.has(refused));
    EXPECT_GT(h.stats().expanded, 0u);

    // The same unreachable goal with a budget too small to see it: budget exhausted, not
    // unreachable. One expansion per query, a node limit, and a time limit.
    st = search::run_within(h, start, cut_off, Budget::of_expansions(1));
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
    EXPECT_TRUE(st.has(StatusDetail::out_of_nodes));
    EXPECT_FALSE(st.has(StatusDetail::unreachable));
    st = search::run_within(h, start, cut_off, Budget::of_time(std::chrono::nanoseconds(0)));
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
    EXPECT_TRUE(st.has(StatusDetail::time_limit));
    SearchHandle<CellId> limited = planner.make_search({.max_nodes = 1});
    st = limited.run(start, cut_off);
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
    EXPECT_TRUE(st.has(StatusDetail::out_of_nodes));

    h.begin(start, cut_off);
    h.step(Budget::of_expansions(1));
    h.cancel();
    EXPECT_EQ(h.step().reason(), FailureReason::cancelled);
  }
}

/// The checks every partial grid path must pass: Failure flagged `why` and partial_result, a
/// valid path from the start, whose end is among `reached` and has the lowest h of them (ties:
/// lowest g, here the reference distance).
void expect_closest_partial(const grid::GridSpace& space, const SearchHandle<CellId>& h, Status st, CellId start,
                            CellId goal, StatusDetail why, const std::vector<CellId>& reached,
                            const std::vector<Cost>& dist, bool optimal_g) {
  ASSERT_TRUE(st.failed());
  EXPECT_TRUE(st.has(why)) << describe(st);
  ASSERT_TRUE(st.has(StatusDetail::partial_result)) << describe(st);
  const Path<CellId>& path = h.path();
  ASSERT_FALSE(path.empty());
  const CellId end = path.nodes.back();
  EXPECT_TRUE(test::is_valid_path(space, path, start, end));
  EXPECT_NE(std::find(reached.begin(), reached.end(), end), reached.end()) << "the end was never expanded";
  const grid::OctileHeuristic octile(space.map());
  Cost best_h = infinite_cost;
  for (const CellId c : reached) best_h = std::min(best_h, octile(c, goal));
  EXPECT_EQ(octile(end, goal), best_h);
  if (!optimal_g) return;
  Cost best_g = infinite_cost;
  for (const CellId c : reached) {
    if (octile(c, goal) == best_h) best_g = std::min(best_g, dist[c.value]);
  }
  EXPECT_NEAR(path.cost, best_g, 1e-9 * std::max(1.0, best_g));
  EXPECT_NEAR(path.cost, dist[end.value], 1e-9 * std::max(1.0, best_g));
}

struct PartialCase {
  grid::Algorithm algorithm;
  bool optimal_g;  ///< closed nodes have their optimal g (consistent heuristic)
};
constexpr PartialCase partial_cases[] = {
    {grid::Algorithm::astar, true}, {grid::Algorithm::jps, false}, {grid::Algorithm::jps_plus, false},
    {grid::Algorithm::wastar, false}, {grid::Algorithm::greedy, false}};

TEST(FailureReason, PartialPathToAnUnreachableGoalEndsNearestTheGoal) {
  std::mt19937 rng(1313);
  int checked = 0;
  for (int round = 0; round < 24; ++round) {
    const grid::GridMap map = test::random_grid({48, 48, 0.38, false}, rng);
    const grid::GridSpace space(map, grid::DiagonalRule::no_corner_cutting);
    const CellId start = test::random_passable(map, rng);
    const std::vector<Cost> dist = test::reference_distances(space, start);
    std::vector<CellId> reachable;
    std::vector<CellId> cut_off;
    for (std::uint32_t c = 0; c < map.cell_count(); ++c) {
      if (!map.passable(CellId{c})) continue;
      (dist[c] == infinite_cost ? cut_off : reachable).push_back(CellId{c});
    }
    if (cut_off.empty()) continue;
    const CellId goal = cut_off[std::uniform_int_distribution<std::size_t>(0, cut_off.size() - 1)(rng)];
    for (const PartialCase& pc : partial_cases) {
      SCOPED_TRACE(std::string(to_string(pc.algorithm)) + " round " + std::to_string(round));
      const grid::GridPlanner planner(map, {.algorithm = pc.algorithm});
      SearchHandle<CellId> h = planner.make_search({.partial_result = true});
      const Status st = h.run(start, goal);
      EXPECT_EQ(st.reason(), FailureReason::unreachable);
      // A goal out of reach: every reachable cell was expanded (jump searches: the jump points
      // among them, which the lowest h over all cells bounds from below).
      if (pc.algorithm == grid::Algorithm::jps || pc.algorithm == grid::Algorithm::jps_plus) {
        // A valid path, not always the shortest to its end: jumps are pruned for the goal.
        ASSERT_TRUE(st.has(StatusDetail::partial_result));
        EXPECT_TRUE(test::is_valid_path(space, h.path(), start, h.path().nodes.back()));
        EXPECT_GE(h.path().cost, dist[h.path().nodes.back().value] - 1e-9 * std::max(1.0, h.path().cost));
      } else {
        expect_closest_partial(space, h, st, start, goal, StatusDetail::unreachable, reachable, dist, pc.optimal_g);
      }
      ++checked;
    }
    // Without a heuristic the nearest node is the start itself (lowest h = 0 everywhere, lowest g).
    const grid::GridPlanner dijkstra(map, {.algorithm = grid::Algorithm::dijkstra});
    SearchHandle<CellId> d = dijkstra.make_search({.partial_result = true});
    EXPECT_TRUE(d.run(start, goal).has(StatusDetail::partial_result));
    EXPECT_EQ(d.path().nodes, std::vector<CellId>{start});
    // Without partial results the failure leaves no path.
    SearchHandle<CellId> plain = dijkstra.make_search();
    EXPECT_EQ(plain.run(start, goal), Status::failure(StatusDetail::unreachable));
    EXPECT_TRUE(plain.path().empty());
  }
  EXPECT_GE(checked, 50);
}

/// Collects the nodes a search expands.
class ExpandedCells final : public search::EventSink<CellId> {
 public:
  void on_event(const search::Event<CellId>& e) override {
    if (e.kind == search::EventKind::begin) nodes.clear();
    if (e.kind == search::EventKind::expand) nodes.push_back(e.node);
  }
  std::vector<CellId> nodes;
};

TEST(FailureReason, PartialPathWhenTheBudgetRunsOutEndsNearestTheGoalOfWhatWasExpanded) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int round = 0; round < 20; ++round) {
    const grid::GridMap map = test::random_grid({64, 64, 0.25, round % 4 == 3}, rng);
    const grid::GridSpace space(map, grid::DiagonalRule::no_corner_cutting);
    const CellId start = test::random_passable(map, rng);
    const CellId goal = test::random_passable(map, rng);
    const std::vector<Cost> dist = test::reference_distances(space, start);
    const bool reachable = dist[goal.value] != infinite_cost;
    for (const PartialCase& pc : partial_cases) {
      if (map.has_costs() && (pc.algorithm == grid::Algorithm::jps || pc.algorithm == grid::Algorithm::jps_plus))
        continue;
      SCOPED_TRACE(std::string(to_string(pc.algorithm)) + " round " + std::to_string(round));
      const grid::GridPlanner planner(map, {.algorithm = pc.algorithm});
      ExpandedCells expanded;
      SearchHandle<CellId> h = planner.make_search({.partial_result = true, .events = &expanded});
      const auto budget = std::uniform_int_distribution<std::uint64_t>(1, 120)(rng);
      // A whole-query expansion budget (run_within cancels the query) ...
      Status st = search::run_within(h, start, goal, Budget::of_expansions(budget));
      if (!st.succeeded() && !st.has(StatusDetail::unreachable)) {
        EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
        EXPECT_TRUE(h.status().has(StatusDetail::cancelled));
        EXPECT_EQ(expanded.nodes.size(), budget);
        if (pc.algorithm == grid::Algorithm::jps || pc.algorithm == grid::Algorithm::jps_plus) {
          // Jump points: the engine sees them, the handle hands out every cell between.
          ASSERT_TRUE(st.has(StatusDetail::partial_result));
          EXPECT_TRUE(test::is_valid_path(space, h.path(), start, h.path().nodes.back()));
          EXPECT_NE(std::find(expanded.nodes.begin(), expanded.nodes.end(), h.path().nodes.back()),
                    expanded.nodes.end());
        } else {
          expect_closest_partial(space, h, st, start, goal, StatusDetail::out_of_nodes, expanded.nodes, dist,
                                 pc.optimal_g);
        }
        ++checked;
      }
      // ... and a node limit (the engine's own out_of_nodes).
      SearchHandle<CellId> limited =
          planner.make_search({.max_nodes = static_cast<std::size_t>(budget), .partial_result = true, .events = &expanded});
      st = limited.run(start, goal);
      if (st.failed() && st.has(StatusDetail::out_of_nodes)) {
        EXPECT_EQ(st.reason(), FailureReason::budget_exhausted);
        if (pc.algorithm != grid::Algorithm::jps && pc.algorithm != grid::Algorithm::jps_plus) {
          expect_closest_partial(space, limited, st, start, goal, StatusDetail::out_of_nodes, expanded.nodes, dist,
                                 pc.optimal_g);
        }
        ++checked;
      } else {
        EXPECT_EQ(st.succeeded(), reachable) << describe(st);
      }
    }
  }
  EXPECT_GE(checked, 100);
}

TEST(FailureReason, PartialPathOnATimeLimitIsTheStart) {
  const grid::GridMap map = walled_map();
  const grid::GridPlanner planner(map);
  SearchHandle<CellId> h = planner.make_search({.partial_result = true});
  const CellId start = map.cell(1, 1);
  const Status st = search::run_within(h, start, map.cell(12, 4), Budget::of_time(std::chrono::nanoseconds(0)));
  EXPECT_EQ(st, Status::failure(StatusDetail::time_limit | StatusDetail::partial_result));
  EXPECT_EQ(h.stats().expanded, 1u);  // a step always expands one node
  EXPECT_EQ(h.path().nodes, std::vector<CellId>{start});
  EXPECT_EQ(h.path().cost, 0);
}

// ---- graphs ------------------------------------------------------------------------------------

/// Vertices 0-1-2 on the x axis joined in a row, and 3-4 apart (at x = 10, 11).
graph::Graph two_islands() {
  graph::GraphBuilder b(5);
  b.add_undirected_edge(VertexId{0}, VertexId{1}, 1);
  b.add_undirected_edge(VertexId{1}, VertexId{2}, 1);
  b.add_undirected_edge(VertexId{3}, VertexId{4}, 1);
  b.set_positions({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {10, 0, 0}, {11, 0, 0}}, graph::Coordinates::xy);
  return b.build();
}

TEST(FailureReason, EveryGraphAlgorithmTellsOutOfBoundsFromUnreachable) {
  const graph::Graph g = two_islands();
  const VertexId outside{99};
  for (const auto& [algorithm, name] : graph::algorithm_names) {
    SCOPED_TRACE(std::string(name));
    const graph::GraphPlanner planner(g, {.algorithm = algorithm});
    SearchHandle<VertexId> h = planner.make_search();
    EXPECT_TRUE(h.run(VertexId{0}, VertexId{2}).succeeded());
    Status st = h.run(VertexId{0}, VertexId{4});
    EXPECT_EQ(st.reason(), FailureReason::unreachable) << describe(st);
    for (const auto& [from, to] : {std::pair{VertexId{0}, outside}, std::pair{outside, VertexId{0}}}) {
      st = h.run(from, to);
      EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
      EXPECT_TRUE(st.has(refused));
    }
  }
}

TEST(FailureReason, GraphBudgetsAndPartialPaths) {
  const graph::Graph g = two_islands();
  for (const graph::Algorithm a : {graph::Algorithm::dijkstra, graph::Algorithm::astar, graph::Algorithm::alt,
                                   graph::Algorithm::bidijkstra}) {
    SCOPED_TRACE(std::string(to_string(a)));
    const graph::GraphPlanner planner(g, {.algorithm = a});
    SearchHandle<VertexId> h = planner.make_search();
    const Status st = search::run_within(h, VertexId{0}, VertexId{4}, Budget::of_expansions(1));
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
  }
  // A* with positions: the partial path runs to vertex 2, the one nearest vertex 4.
  const graph::GraphPlanner astar(g, {.algorithm = graph::Algorithm::astar});
  SearchHandle<VertexId> h = astar.make_search({.partial_result = true});
  EXPECT_EQ(h.run(VertexId{0}, VertexId{4}), Status::failure(StatusDetail::unreachable | StatusDetail::partial_result));
  EXPECT_EQ(h.path().nodes, (std::vector<VertexId>{VertexId{0}, VertexId{1}, VertexId{2}}));
  EXPECT_EQ(h.path().cost, 2);
}

// ---- navmeshes ---------------------------------------------------------------------------------

/// Unit squares at (x, 0) for each x, two triangles each; the squares listed in `flagged` get
/// polygon flags 2 (the others keep the walkable flag).
navmesh::NavMesh floor_of(const std::vector<double>& xs, const std::vector<double>& flagged = {}) {
  TriangleMesh m;
  for (const double x : xs) {
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {{x, 0, 0}, {x, 0, 1}, {x + 1, 0, 1}, {x + 1, 0, 0}});
    m.triangles.push_back({base, base + 1, base + 2});
    m.triangles.push_back({base, base + 2, base + 3});
  }
  navmesh::NavMeshData d = navmesh::build_from_triangles(m).data();
  const navmesh::NavMesh plain(d);
  for (const double x : flagged) {
    for (const double dz : {0.25, 0.75}) {
      const auto p = plain.nearest_poly({x + 0.5, 0, dz}, {0.01, 1, 0.01});
      if (p) d.flags[p->poly.value] = 2;
    }
  }
  return navmesh::NavMesh(std::move(d));
}

TEST(FailureReason, NavMeshEndsOffTheMeshExcludedOrCutOff) {
  // Floor 0..2, a gap, then 3..9; square 8 is flagged 2 (excluded below).
  const navmesh::NavMesh nav = floor_of({0, 1, 3, 4, 5, 6, 7, 8, 9}, {8});
  const navmesh::QueryFilter no_flag_2{.exclude = 2};
  for (const auto& [mode, name] : navmesh::nav_mode_names) {
    SCOPED_TRACE(std::string(name));
    navmesh::NavMeshQuery q(nav, {.mode = mode, .half_extents = {0.1, 1, 0.1}});
    EXPECT_TRUE(q.find_path({3.5, 0, 0.5}, {9.5, 0, 0.5}).succeeded());
    Status st = q.find_path({0.5, 0, 0.5}, {20, 0, 20});
    EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
    EXPECT_TRUE(st.has(refused));
    st = q.find_path({0.5, 0, -5}, {1.5, 0, 0.5});
    EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
    st = q.find_path({0.5, 0, std::numeric_limits<double>::quiet_NaN()}, {1.5, 0, 0.5});
    EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
    st = q.find_path({3.5, 0, 0.5}, {8.5, 0, 0.5}, no_flag_2);
    EXPECT_EQ(st.reason(), FailureReason::goal_blocked) << describe(st);
    EXPECT_TRUE(st.has(refused));
    st = q.find_path({8.5, 0, 0.5}, {3.5, 0, 0.5}, no_flag_2);
    EXPECT_EQ(st.reason(), FailureReason::start_blocked) << describe(st);
    // Across the gap: unreachable, with a partial path (asked for) to the edge at x = 2.
    navmesh::NavMeshQuery partial(nav, {.mode = mode, .half_extents = {0.1, 1, 0.1}, .query = {.partial_result = true}});
    st = partial.find_path({0.5, 0, 0.5}, {3.5, 0, 0.5});
    EXPECT_EQ(st.reason(), FailureReason::unreachable) << describe(st);
    EXPECT_TRUE(st.has(StatusDetail::partial_result));
    ASSERT_FALSE(partial.path().corners.empty());
    EXPECT_EQ(partial.path().corners.front(), (Vec3{0.5, 0, 0.5}));
    // The far floor cut by the excluded square: unreachable too.
    st = q.find_path({3.5, 0, 0.5}, {9.5, 0, 0.5}, no_flag_2);
    EXPECT_EQ(st.reason(), FailureReason::unreachable) << describe(st);
  }
}

TEST(FailureReason, NavMeshBudgetIsNotUnreachable) {
  const navmesh::NavMesh nav = floor_of({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  for (const auto& [mode, name] : navmesh::nav_mode_names) {
    SCOPED_TRACE(std::string(name));
    // The shortest mode expands a straight chain of polygons as one node (intermediate pruning):
    // one node is its budget here.
    const std::size_t nodes = mode == navmesh::NavMode::shortest ? 1 : 2;
    navmesh::NavMeshQuery q(nav, {.mode = mode, .query = {.max_nodes = nodes, .partial_result = true}});
    const Status st = q.find_path({0.5, 0, 0.5}, {9.5, 0, 0.5});
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
    if (mode != navmesh::NavMode::shortest) {  // the portal searches leave a partial path
      EXPECT_TRUE(st.has(StatusDetail::partial_result)) << describe(st);
      ASSERT_FALSE(q.path().corners.empty());
      EXPECT_EQ(q.path().corners.front(), (Vec3{0.5, 0, 0.5}));
      EXPECT_LT(q.path().corners.back().x, 9.5);
    }
  }
}

// ---- visibility graphs -------------------------------------------------------------------------

TEST(FailureReason, VisibilityEndsInsideObstaclesOutsideTheBoundsOrWalledOff) {
  // Two walls closing the box's middle (y 4..5), and a pillar at (1..2, 1..2).
  const visibility::Obstacles world{
      .polygons = {{{0, 4}, {6, 4}, {6, 5}, {0, 5}}, {{5, 4}, {10, 4}, {10, 5}, {5, 5}}, {{1, 1}, {2, 1}, {2, 2}, {1, 2}}},
      .bounds = Aabb2{{0, 0}, {10, 10}}};
  const visibility::VisibilityGraph g(world, {.radius = 0.2});
  visibility::VisibilityQuery q(g);
  EXPECT_TRUE(q.find_path({5, 1}, {8, 3}).succeeded());
  Status st = q.find_path({1.5, 1.5}, {8, 3});
  EXPECT_EQ(st.reason(), FailureReason::start_blocked) << describe(st);
  EXPECT_TRUE(st.has(refused));
  st = q.find_path({8, 3}, {1.5, 1.5});
  EXPECT_EQ(st.reason(), FailureReason::goal_blocked) << describe(st);
  st = q.find_path({-3, 1}, {8, 3});
  EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
  st = q.find_path({8, 3}, {std::numeric_limits<double>::infinity(), 3});
  EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
  st = q.find_path({5, 1}, {5, 9});
  EXPECT_EQ(st, Status::failure(StatusDetail::unreachable));
  EXPECT_TRUE(q.path().points.empty());

  visibility::VisibilityQuery partial(g, {.query = {.partial_result = true}});
  st = partial.find_path({5, 1}, {5, 9});
  EXPECT_EQ(st, Status::failure(StatusDetail::unreachable | StatusDetail::partial_result));
  ASSERT_FALSE(partial.path().points.empty());
  EXPECT_EQ(partial.path().points.front(), (Vec2{5, 1}));
  EXPECT_LT(partial.path().points.back().y, 4);  // nearest the goal, still below the walls

  visibility::VisibilityQuery limited(g, {.query = {.max_nodes = 1, .partial_result = true}});
  st = limited.find_path({0.5, 0.5}, {9, 3});
  EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
  EXPECT_TRUE(st.has(StatusDetail::partial_result));
  ASSERT_FALSE(limited.path().points.empty());
  EXPECT_EQ(limited.path().points.front(), (Vec2{0.5, 0.5}));
}

// ---- puzzles -----------------------------------------------------------------------------------

TEST(FailureReason, PuzzleUnsolvableIsUnreachableAndMalformedIsOutOfBounds) {
  const puzzle::SlidingPuzzle p(3);
  const puzzle::PuzzleState unsolvable = p.make_state(std::vector<int>{0, 2, 1, 3, 4, 5, 6, 7, 8});
  const puzzle::PuzzleState far = p.make_state(std::vector<int>{8, 6, 7, 2, 5, 4, 3, 0, 1});  // 31 moves
  ASSERT_TRUE(p.is_solvable(far));
  const puzzle::PuzzleSolver solver(p, puzzle::HeuristicKind::manhattan);
  for (const puzzle::Algorithm a : {puzzle::Algorithm::ida, puzzle::Algorithm::astar}) {
    SCOPED_TRACE(std::string(to_string(a)));
    SearchHandle<puzzle::PuzzleState> h = solver.make_search(a, {});
    EXPECT_EQ(h.run(unsolvable, p.goal()), Status::failure(StatusDetail::unreachable));
    Status st = h.run(puzzle::PuzzleState{}, p.goal());
    EXPECT_EQ(st.reason(), FailureReason::out_of_bounds) << describe(st);
    EXPECT_TRUE(st.has(refused));
    st = search::run_within(h, far, p.goal(), Budget::of_expansions(5));
    EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
  }
  // A* with partial results: the moves from the start towards the goal, as far as it got.
  SearchHandle<puzzle::PuzzleState> h = solver.make_search(puzzle::Algorithm::astar, {.max_nodes = 200, .partial_result = true});
  const Status st = h.run(far, p.goal());
  EXPECT_EQ(st.reason(), FailureReason::budget_exhausted) << describe(st);
  ASSERT_TRUE(st.has(StatusDetail::partial_result));
  const auto& nodes = h.path().nodes;
  ASSERT_FALSE(nodes.empty());
  EXPECT_EQ(nodes.front(), far);
  EXPECT_EQ(h.path().cost, static_cast<Cost>(nodes.size() - 1));
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    bool adjacent = false;
    p.for_each_successor(nodes[i - 1], [&](const puzzle::PuzzleState& n, Cost) { adjacent = adjacent || n == nodes[i]; });
    EXPECT_TRUE(adjacent) << "boards " << i - 1 << " and " << i << " are not one move apart";
  }
  EXPECT_LT(solver.estimate(nodes.back()), solver.estimate(far));  // closer than the start
}

}  // namespace
}  // namespace waymark::failure_test
