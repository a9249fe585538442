// The traps a newcomer fell into (issue 29), one test each: every one of these failed (or did
// not compile the way it must not) on the code before the fix.
// 1. Jump searches on a map with cost multipliers: refused at once, never "stale".
// 2. Nothing waits silently: a request queue says why a request waits or was refused.
// 3. APIs that keep a reference refuse temporaries at compile time.
// 4. Coordinates outside a map: a checked form, and edits that refuse instead of aborting.
// 5. A path that was not found has no finite cost.
// 6. Smoothing takes the space the path was searched in (map and diagonal rule together).
// 7. One convention each: to_string() names, describe() composes; partial paths off by
//    default everywhere; raycast's filter defaults like nearest_poly's; only LoadError,
//    SaveError and BuildError are thrown, and per-frame calls refuse instead.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "waymark/core/binary_io.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/graph/generate.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/grid/any_angle.hpp"
#include "waymark/grid/batch.hpp"
#include "waymark/grid/clearance.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/jump_point.hpp"
#include "waymark/grid/jump_table.hpp"
#include "waymark/grid/line_of_sight.hpp"
#include "waymark/grid/path_smoothing.hpp"
#include "waymark/navmesh/nav_file.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/navmesh/nav_planner.hpp"
#include "waymark/navmesh/nav_query.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"
#include "waymark/navmesh/tiled_nav_planner.hpp"
#include "waymark/puzzle/solver.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/goal.hpp"
#include "waymark/search/planner.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/request_queue.hpp"
#include "waymark/search/shortest_path_tree.hpp"
#include "waymark/search/traversal.hpp"
#include "waymark/steer/flow_field.hpp"
#include "waymark/steer/orca.hpp"
#include "waymark/steer/simulation.hpp"
#include "waymark/visibility/visibility_planner.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace waymark::core_api_traps_test {
namespace {

using grid::Algorithm;
using grid::DiagonalRule;
using grid::GridMap;
using grid::GridPlanner;
using grid::GridSpace;
using search::PathRequestQueue;
using search::RequestState;
using search::RequestWait;

/// An open w×h map with a wall down column `wall_x` (a gap at the top row when `gap`).
GridMap walled(int w, int h, int wall_x, bool gap) {
  GridMap map(w, h);
  for (int y = gap ? 1 : 0; y < h; ++y) map.set_passable(wall_x, y, false);
  return map;
}

// ---- 1. Jump searches on a map with costs ------------------------------------------------

TEST(ApiTraps, JumpSearchesOnAMapWithCostsAreRefusedAtOnceNotStale) {
  for (const Algorithm a : {Algorithm::jps, Algorithm::jps_plus}) {
    SCOPED_TRACE(to_string(a));
    GridMap map(16, 16);
    GridPlanner planner(map, {.algorithm = a});
    ASSERT_TRUE(map.set_cost_multiplier(3, 3, 2.0));
    planner.sync();
    EXPECT_FALSE(planner.stale()) << "costs are not something sync() can clear";
    ASSERT_TRUE(planner.unsupported().has_value());
    EXPECT_NE(planner.unsupported()->find("uniform"), std::string::npos) << *planner.unsupported();
    search::SearchHandle<CellId> search = planner.make_search();
    const Status begun = search.begin(map.cell(0, 0), map.cell(15, 15));
    EXPECT_TRUE(begun.failed()) << "refused in begin(), before any step";
    EXPECT_EQ(begun.reason(), FailureReason::unsupported) << describe(begun);
    EXPECT_TRUE(begun.has(StatusDetail::invalid_query));
    EXPECT_FALSE(begun.has(StatusDetail::stale_world));

    // The same request through a queue finishes in its first frame, saying why.
    const GridPlanner& world = planner;  // the planner is the search source
    PathRequestQueue<CellId> queue;
    const search::RequestId id = queue.submit(world, map.cell(0, 0), map.cell(15, 15));
    queue.update(search::Budget::of_expansions(1000));
    EXPECT_EQ(queue.state(id), RequestState::failed);
    EXPECT_EQ(queue.info(id).status.reason(), FailureReason::unsupported);
    EXPECT_EQ(queue.info(id).why, search::request_why::unsupported);
    EXPECT_EQ(queue.in_flight(), 0u);
    EXPECT_EQ(queue.stats().refused, 1u);

    // Back to uniform costs: the same planner answers again.
    ASSERT_TRUE(map.set_cost_multiplier(3, 3, 1.0));
    planner.sync();
    EXPECT_TRUE(search.run(map.cell(0, 0), map.cell(15, 15)).succeeded());
  }
}

// ---- 2. Nothing waits silently ------------------------------------------------------------

TEST(ApiTraps, AQueuedRequestOnAnUnsyncedWorldSaysItWaitsForSync) {
  GridMap map(32, 32);
  GridPlanner planner(map);
  const GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue;
  const search::RequestId id = queue.submit(world, map.cell(0, 0), map.cell(31, 31));
  map.set_passable(10, 10, false);  // edited, not synced
  for (int frame = 0; frame < 3; ++frame) queue.update(search::Budget::of_expansions(10000));
  const search::RequestInfo waiting = queue.info(id);
  EXPECT_EQ(waiting.state, RequestState::queued);
  EXPECT_EQ(waiting.waiting, RequestWait::for_sync);
  EXPECT_EQ(waiting.why, search::request_why::stale_world);
  EXPECT_NE(waiting.why.find("sync()"), std::string_view::npos);
  EXPECT_EQ(queue.stats().waiting_for_sync, 1u);
  planner.sync();
  queue.update(search::Budget::of_expansions(100000));
  EXPECT_EQ(queue.state(id), RequestState::succeeded);
  EXPECT_EQ(queue.info(id).waiting, RequestWait::none);
  EXPECT_TRUE(queue.info(id).why.empty());
  EXPECT_EQ(queue.stats().waiting_for_sync, 0u);
  EXPECT_EQ(queue.stats().succeeded, 1u);
}

TEST(ApiTraps, WhyARequestWaitsIsEveryFramesAnswerEvenWhenTheBudgetRunsOutFirst) {
  GridMap map(64, 64);
  GridPlanner planner(map);
  PathRequestQueue<CellId> queue({.turn = search::Budget::of_expansions(8)});
  const search::RequestId a = queue.submit(planner, map.cell(0, 0), map.cell(63, 63));
  const search::RequestId b = queue.submit(planner, map.cell(0, 63), map.cell(63, 0));
  map.set_passable(30, 30, false);  // edited, not synced
  queue.update(search::Budget::of_expansions(1));  // one expansion: b gets no turn this frame
  EXPECT_EQ(queue.info(a).waiting, RequestWait::for_sync);
  EXPECT_EQ(queue.info(b).waiting, RequestWait::for_sync);
  EXPECT_EQ(queue.stats().waiting_for_sync, 2u);
  planner.sync();
  queue.update(search::Budget::of_expansions(1));  // the budget runs out before b's turn again
  EXPECT_EQ(queue.info(a).waiting, RequestWait::none);
  EXPECT_EQ(queue.info(b).waiting, RequestWait::none) << queue.info(b).why;
  EXPECT_TRUE(queue.info(b).why.empty());
  EXPECT_EQ(queue.stats().waiting_for_sync, 0u);
}

TEST(ApiTraps, ARequestTheQueueRefusesNamesTheOptionThatWouldChangeIt) {
  GridMap map(64, 64);
  GridPlanner planner(map, {.algorithm = Algorithm::jps});
  const GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue({.sparse_above_nodes = 1000});  // the map is "large"
  const search::RequestId id = queue.submit(world, map.cell(0, 0), map.cell(63, 63));
  EXPECT_EQ(queue.state(id), RequestState::failed);
  EXPECT_EQ(queue.info(id).status.reason(), FailureReason::unsupported);
  EXPECT_NE(queue.info(id).why.find("dense_fallback"), std::string_view::npos);
  EXPECT_EQ(queue.stats().refused, 1u);
  EXPECT_EQ(queue.stats().failed, 1u);
  EXPECT_EQ(queue.in_flight(), 0u);
}

TEST(ApiTraps, ARequestWithoutAFreeSearchSaysItWaitsForOne) {
  GridMap map(64, 64);
  GridPlanner planner(map);
  const GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue({.max_searches = 1, .turn = search::Budget::of_expansions(4)});
  const search::RequestId first = queue.submit(world, map.cell(0, 0), map.cell(63, 63));
  const search::RequestId second = queue.submit(world, map.cell(0, 63), map.cell(63, 0));
  queue.update(search::Budget::of_expansions(4));
  EXPECT_EQ(queue.state(first), RequestState::running);
  EXPECT_EQ(queue.info(second).waiting, RequestWait::for_search);
  EXPECT_NE(queue.info(second).why.find("max_searches"), std::string_view::npos);
  EXPECT_EQ(queue.stats().waiting_for_search, 1u);
  EXPECT_EQ(queue.stats().running, 1u);
  EXPECT_EQ(queue.stats().queued, 1u);
}

// ---- 3. Kept references refuse temporaries -------------------------------------------------

template <class Queue, class World>
concept SubmitsRvalue = requires(Queue& q, CellId c) { q.submit(std::declval<const World&&>(), c, c); };
template <class Queue, class World>
concept SubmitsLvalue = requires(Queue& q, const World& w, CellId c) { q.submit(w, c, c); };
static_assert(SubmitsLvalue<PathRequestQueue<CellId>, GridPlanner>);
static_assert(!SubmitsRvalue<PathRequestQueue<CellId>, GridPlanner>, "a temporary world would dangle");

// Each type that keeps a reference to a constructor argument: constructible from an lvalue,
// not from a temporary.
static_assert(std::is_constructible_v<GridSpace, const GridMap&, DiagonalRule>);
static_assert(!std::is_constructible_v<GridSpace, GridMap, DiagonalRule>);
static_assert(!std::is_constructible_v<grid::GridCells, GridMap>);
static_assert(!std::is_constructible_v<grid::AnyAngleSpace, GridSpace>);
static_assert(!std::is_constructible_v<grid::JumpPointSpace, GridMap>);
static_assert(!std::is_constructible_v<grid::JumpPointPlusSpace, GridMap, const grid::JumpTable&>);
static_assert(!std::is_constructible_v<grid::JumpPointPlusSpace, const GridMap&, grid::JumpTable>);
static_assert(!std::is_constructible_v<GridPlanner, GridMap>);
static_assert(!std::is_constructible_v<graph::GraphPlanner, graph::Graph>);
static_assert(!std::is_constructible_v<steer::FlowField, GridMap>);
static_assert(std::is_constructible_v<steer::FlowField, const GridMap&>);
static_assert(!std::is_constructible_v<graph::ChQuery, graph::ContractionHierarchy>);
static_assert(!std::is_constructible_v<graph::LandmarkHeuristic, graph::Landmarks>);
static_assert(!std::is_constructible_v<graph::BidirectionalDijkstra<>, graph::BidirectionalGraph>);
static_assert(!std::is_constructible_v<puzzle::PuzzleSolver, puzzle::SlidingPuzzle, puzzle::HeuristicKind>);
static_assert(!std::is_constructible_v<navmesh::NavMeshQuery, navmesh::NavMesh>);
static_assert(!std::is_constructible_v<visibility::VisibilityQuery, visibility::VisibilityGraph>);
static_assert(!std::is_constructible_v<ChecksummedReader, std::istream&, std::string>);
// The engines keep their space.
using AStar = search::BestFirstSearch<GridSpace, search::ZeroHeuristic>;
static_assert(std::is_constructible_v<AStar, const GridSpace&>);
static_assert(!std::is_constructible_v<AStar, GridSpace>);
static_assert(!std::is_constructible_v<search::IdaStar<GridSpace, search::ZeroHeuristic>, GridSpace>);
static_assert(!std::is_constructible_v<search::TraversalSearch<GridSpace, search::FifoFrontier>, GridSpace>);
static_assert(!std::is_constructible_v<search::ShortestPathTree<GridSpace>, GridSpace>);
// Goal::matching keeps its test.
template <class Test>
concept MatchesRvalue = requires { search::Goal<CellId>::matching(std::declval<Test>()); };
template <class Test>
concept MatchesLvalue = requires(const Test& t) { search::Goal<CellId>::matching(t); };
struct IsOrigin {
  bool operator()(CellId c) const { return c.value == 0; }
};
static_assert(MatchesLvalue<IsOrigin>);
// Goal::any_of keeps a span of its nodes.
template <class Nodes>
concept AnyOfAccepts = requires(Nodes&& nodes) { search::Goal<CellId>::any_of(std::forward<Nodes>(nodes)); };
static_assert(AnyOfAccepts<std::vector<CellId>&> && AnyOfAccepts<std::span<const CellId>>);
static_assert(!AnyOfAccepts<std::vector<CellId>>, "a temporary list would dangle");
static_assert(!MatchesRvalue<IsOrigin>, "a temporary test would dangle");

// Accessors that hand out a reference into what they own (issue 42): of an lvalue, not of a
// temporary, whose parts die at the end of the statement. Each `!` form compiled before.
template <class T>
concept SizeClassMapOf = requires(T&& t) { std::forward<T>(t).map(); };
static_assert(SizeClassMapOf<const grid::SizeClassMap&> && SizeClassMapOf<grid::SizeClassMap&>);
static_assert(!SizeClassMapOf<grid::SizeClassMap>, "GridPlanner(SizeClassMap(c, r).map()) would dangle");
static_assert(!SizeClassMapOf<const grid::SizeClassMap>);
// A snapshot of a tiled world: kept as a pointer it stays alive; `->` on the temporary would
// hand out a reference the world drops at its next change (`world.snapshot()->mesh`).
template <class P>
concept Arrows = requires(P&& p) { std::forward<P>(p)->version; };
template <class P>
concept Stars = requires(P&& p) { *std::forward<P>(p); };
using Snapshot = decltype(std::declval<const navmesh::TiledNavMesh&>().snapshot());
using WorldMesh = decltype(std::declval<const navmesh::TiledNavMesh&>().mesh());
static_assert(Arrows<const Snapshot&> && Stars<const Snapshot&> && Stars<WorldMesh&>);
static_assert(!Arrows<Snapshot> && !Stars<Snapshot>, "world.snapshot()->mesh would dangle");
static_assert(!Stars<WorldMesh>, "*world.mesh() would dangle");
static_assert(std::is_convertible_v<Snapshot, std::shared_ptr<const navmesh::TiledSnapshot>>);
// A bake's classes: of a kept bake, not of recast::bake(…) or NavBake::load(…) themselves.
template <class B>
concept FindsClass = requires(B&& b) { std::forward<B>(b).find_class("x"); };
template <class B>
concept HasClasses = requires(B&& b) { std::forward<B>(b).classes(); };
static_assert(FindsClass<const navmesh::NavBake&> && HasClasses<const navmesh::NavBake&> && HasClasses<navmesh::NavBake&>);
static_assert(!FindsClass<navmesh::NavBake> && !FindsClass<const navmesh::NavBake>, "a temporary bake's mesh would dangle");
static_assert(!HasClasses<navmesh::NavBake> && !HasClasses<const navmesh::NavBake>, "a temporary bake's mesh would dangle");

TEST(ApiTraps, KeptReferencesRefuseTemporariesAtCompileTime) {
  // The checks are the static_asserts above; this runs the lvalue forms they allow.
  GridMap map(8, 8);
  const GridPlanner planner(map);
  const GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue;
  const search::RequestId id = queue.submit(world, map.cell(0, 0), map.cell(7, 7));
  queue.update(search::Budget{});
  EXPECT_EQ(queue.state(id), RequestState::succeeded);
  // The lvalue forms of the accessors above.
  grid::ClearanceMap clearance(map, {.max_clearance = 1.0});
  const grid::SizeClassMap sized(clearance, 0.5);
  const GridPlanner on_sized(sized.map());
  EXPECT_TRUE(on_sized.plan(map.cell(0, 0), map.cell(7, 7)).status.succeeded());
  navmesh::TiledNavMesh tiled;
  const auto snapshot = tiled.snapshot();
  EXPECT_EQ(snapshot->version, 0u);
  EXPECT_EQ((*tiled.mesh().get()).poly_count(), 0u);
  const navmesh::NavBake bake;
  EXPECT_TRUE(bake.classes().empty());
  EXPECT_EQ(bake.find_class("x"), nullptr);
}

// ---- 4. Coordinates outside a map -----------------------------------------------------------

TEST(ApiTraps, CoordinatesOutsideAMapHaveACheckedFormAndEditsRefuse) {
  GridMap map(10, 5);
  EXPECT_EQ(map.try_cell(3, 4), std::optional<CellId>(map.cell(3, 4)));
  for (const auto& [x, y] : {std::pair{-1, 0}, std::pair{0, -1}, std::pair{10, 0}, std::pair{0, 5},
                             std::pair{std::numeric_limits<int>::min(), 2}, std::pair{2, std::numeric_limits<int>::max()}}) {
    EXPECT_FALSE(map.try_cell(x, y).has_value()) << x << "," << y;
    EXPECT_FALSE(map.passable(x, y));
    EXPECT_FALSE(map.set_passable(x, y, false)) << "refused, not an abort";
    EXPECT_FALSE(map.set_cost_multiplier(x, y, 2.0));
  }
  EXPECT_EQ(map.version(), 0u) << "a refused edit changes nothing";
  EXPECT_FALSE(map.passable(CellId{50}));  // one past the last cell
  EXPECT_FALSE(map.passable(CellId{std::numeric_limits<std::uint32_t>::max() - 1}));
  EXPECT_FALSE(map.contains(CellId{50}));
  EXPECT_TRUE(map.contains(CellId{49}));
  EXPECT_FALSE(map.set_cost_multiplier(1, 1, 0.0));
  EXPECT_FALSE(map.set_cost_multiplier(1, 1, std::nan("")));
  // A search given a cell id past the map says out_of_bounds (as documented), never aborts.
  GridPlanner planner(map);
  search::SearchHandle<CellId> search = planner.make_search();
  EXPECT_EQ(search.run(CellId{50}, map.cell(0, 0)).reason(), FailureReason::out_of_bounds);
}

// ---- 5. A failed query has no finite cost -----------------------------------------------------

TEST(ApiTraps, APathThatWasNotFoundHasNoFiniteCost) {
  const GridMap map = walled(12, 6, 6, false);  // the right half is cut off
  const CellId start = map.cell(0, 0), goal = map.cell(11, 5), reachable = map.cell(5, 5);
  for (const Algorithm a : {Algorithm::astar, Algorithm::dijkstra, Algorithm::bfs, Algorithm::ida, Algorithm::jps,
                            Algorithm::jps_plus, Algorithm::theta}) {
    SCOPED_TRACE(to_string(a));
    const GridPlanner planner(map, {.algorithm = a});
    search::SearchHandle<CellId> search = planner.make_search();
    ASSERT_EQ(search.run(start, goal).reason(), FailureReason::unreachable);
    EXPECT_FALSE(search.path().found());
    EXPECT_EQ(search.path().cost, infinite_cost);
    EXPECT_EQ(search.result().path.cost, infinite_cost);
    // "The cheapest of several targets" picks the reachable one.
    const Cost to_goal = search.path().cost;
    ASSERT_TRUE(search.run(start, reachable).succeeded());
    EXPECT_LT(search.path().cost, to_goal);
    ASSERT_TRUE(search.run(start, start).succeeded());
    EXPECT_EQ(search.path().cost, 0.0) << "start == goal: found, cost 0";
  }
  EXPECT_EQ(Path<CellId>{}.cost, infinite_cost);
  Path<CellId> p{{CellId{1}}, 3.0};
  p.clear();
  EXPECT_EQ(p.cost, infinite_cost);

  // Through a queue, a batch and a navmesh query alike.
  const GridPlanner planner(map);
  const GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue;
  const search::RequestId id = queue.submit(world, start, goal);
  while (queue.in_flight() > 0) queue.update(search::Budget{});
  ASSERT_NE(queue.result(id), nullptr);
  EXPECT_EQ(queue.result(id)->path.cost, infinite_cost);
  const std::vector<grid::BatchQuery> queries{{start, goal}, {start, CellId{1000}}};
  const std::vector<grid::BatchResult> batch = grid::run_batch(planner, queries, {.threads = 1});
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].cost, infinite_cost);
  EXPECT_EQ(batch[1].cost, infinite_cost);

  // Two unit floors with a gap between x = 1 and x = 3 (wound as tests/navmesh's floor_of()).
  const navmesh::NavMesh two_floors = navmesh::build_from_triangles(TriangleMesh{
      {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {3, 0, 0}, {3, 0, 1}, {4, 0, 1}, {4, 0, 0}},
      {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}}});
  navmesh::NavMeshQuery nav(two_floors);
  EXPECT_EQ(nav.find_path({0.5, 0, 0.5}, {3.5, 0, 0.5}).reason(), FailureReason::unreachable);
  EXPECT_EQ(nav.path().length, infinite_cost);
}

// ---- 6. Smoothing under the rule the path was searched with -----------------------------------

template <class... Args>
concept SmoothsWith = requires(Args... args, std::vector<CellId>& out) { grid::smooth_path(args..., out); };
static_assert(SmoothsWith<const GridSpace&, std::span<const CellId>>);
static_assert(!SmoothsWith<const GridMap&, DiagonalRule, std::span<const CellId>>,
                "a rule passed apart from the path's space could be the wrong one");

TEST(ApiTraps, SmoothingUsesTheRuleThePathWasSearchedWith) {
  // Pillars leave diagonal gaps that only corner cutting passes.
  GridMap map(20, 20);
  for (int i = 2; i < 18; i += 3) {
    for (int j = 1; j < 19; j += 2) map.set_passable(i, j, false);
  }
  for (const DiagonalRule rule : {DiagonalRule::never, DiagonalRule::no_corner_cutting, DiagonalRule::at_most_one_obstacle,
                                  DiagonalRule::always}) {
    SCOPED_TRACE(to_string(rule));
    const GridPlanner planner(map, {.diagonal = rule});
    search::SearchHandle<CellId> search = planner.make_search();
    ASSERT_TRUE(search.run(map.cell(0, 0), map.cell(19, 19)).succeeded());
    std::vector<CellId> out;
    const grid::SmoothingResult r = grid::smooth_path(planner.space(), search.path().nodes, out);
    EXPECT_LE(r.cost, search.path().cost * (1 + 1e-9));
    for (std::size_t i = 1; i < out.size(); ++i) {
      EXPECT_TRUE(std::isfinite(grid::segment_cost(map, rule, out[i - 1], out[i]))) << "segment " << i;
    }
  }
  std::vector<CellId> out;
  EXPECT_EQ(grid::smooth_path(GridSpace(map, DiagonalRule::always), {}, out).cost, infinite_cost) << "no path";
}

// ---- 7. One convention each ---------------------------------------------------------------------

template <class T>
constexpr bool names_as_view = std::is_same_v<decltype(to_string(std::declval<T>())), std::string_view>;
static_assert(names_as_view<grid::Algorithm> && names_as_view<graph::Algorithm> && names_as_view<puzzle::Algorithm>);
static_assert(names_as_view<SearchState> && names_as_view<FailureReason> && names_as_view<DiagonalRule>);
static_assert(names_as_view<grid::HeuristicKind> && names_as_view<steer::AvoidanceStatus>);
static_assert(std::is_same_v<decltype(describe(Status{})), std::string>);
static_assert(std::is_same_v<decltype(describe(StatusDetail::none)), std::string>);
template <class T>
concept HasToString = requires(T t) { to_string(t); };
static_assert(!HasToString<Status>, "composed text is describe(), to_string() names one value");

template <class Mesh>
concept RaycastsWithDefaultFilter = requires(const Mesh& m, navmesh::RaycastHit& hit) {
  m.raycast(PolyId{}, Vec3{}, Vec3{}, hit);
};
static_assert(RaycastsWithDefaultFilter<navmesh::NavMesh>);

TEST(ApiTraps, PartialPathsAreOffByDefaultOnEveryWorld) {
  EXPECT_FALSE(search::QueryOptions<CellId>{}.partial_result);
  EXPECT_FALSE(grid::GridPlannerOptions{}.query.partial_result);
  EXPECT_FALSE(graph::GraphPlannerOptions{}.query.partial_result);
  EXPECT_FALSE(navmesh::NavQueryOptions{}.query.partial_result);
  EXPECT_FALSE(visibility::VisibilityQueryOptions{}.query.partial_result);
}

TEST(ApiTraps, BadDataThrowsBuildErrorAndPerFrameCallsRefuse) {
  EXPECT_THROW(steer::Simulation(GridMap(4, 4), steer::SimulationParams{.seed = 1, .orca = {.time_horizon = 0}}),
               BuildError);
  steer::Simulation sim(GridMap(4, 4));
  EXPECT_THROW(sim.add_agent({}, {std::nan(""), 1}, {2, 2}), BuildError);
  // Coordinates are bounded (steer::max_coordinate), for agents and every follower waypoint.
  EXPECT_THROW(sim.add_agent({}, {1, 1}, {2 * steer::max_coordinate, 2}), BuildError);
  const std::vector<Vec2> far_waypoints{{2, 2}, {-2 * steer::max_coordinate, 1}, {3, 3}};
  EXPECT_THROW(sim.add_follower({}, {1, 1}, far_waypoints, false), BuildError);
  const std::vector<Vec2> near_waypoints{{2, 2}, {3, 3}};
  EXPECT_NO_THROW(sim.add_follower({}, {1, 1}, near_waypoints, false));
  EXPECT_THROW(steer::OrcaSolver(steer::OrcaParams{.time_horizon = 0}), BuildError);
  EXPECT_FALSE(sim.step(0.0));
  EXPECT_FALSE(sim.step(std::nan("")));
  EXPECT_EQ(sim.stats().ticks, 0u);
  EXPECT_TRUE(sim.step(0.1));
  EXPECT_EQ(sim.stats().ticks, 1u);
}

// ---- One shape: planners are the search sources, the algorithm chosen per call ---------------

static_assert(std::is_base_of_v<search::SearchSource<CellId>, GridPlanner>);
static_assert(std::is_base_of_v<search::SearchSource<VertexId>, graph::GraphPlanner>);
static_assert(std::is_base_of_v<search::SearchSource<Vec3>, navmesh::NavPlanner>);
static_assert(std::is_base_of_v<search::SearchSource<Vec2>, visibility::VisibilityPlanner>);
static_assert(std::is_base_of_v<search::SearchSource<puzzle::PuzzleState>, puzzle::PuzzleSolver>);
// The shape in code (issue 42): each header also asserts its own.
static_assert(search::Planner<GridPlanner> && search::Planner<graph::GraphPlanner> &&
              search::Planner<navmesh::NavPlanner> && search::Planner<navmesh::TiledNavPlanner> &&
              search::Planner<visibility::VisibilityPlanner> && search::Planner<puzzle::PuzzleSolver>);
// Limits carry nothing typed by a world's nodes; one designated list initialises either form.
static_assert(std::is_same_v<decltype(navmesh::NavQueryOptions{}.query), search::QueryLimits>);
static_assert(std::is_same_v<decltype(visibility::VisibilityQueryOptions{}.query), search::QueryLimits>);
static_assert(std::is_same_v<decltype(puzzle::PuzzleSolverOptions{}.query), search::QueryLimits>);

TEST(PlannersAlike, EveryFormOfTheShapeAgreesAndSyncReportsWhatItDid) {
  GridMap map = walled(40, 30, 20, true);
  GridPlanner planner(map);
  const CellId start = map.cell(2, 28), goal = map.cell(37, 27);
  const double cost = planner.plan(start, goal).path.cost;
  ASSERT_TRUE(std::isfinite(cost));
  EXPECT_EQ(planner.plan(start, goal, planner.default_algorithm()).path.cost, cost);
  EXPECT_EQ(planner.plan(start, goal, Algorithm::astar, planner.default_query()).path.cost, cost);
  // A query's own limits reach the search through every form.
  const search::SearchResult<CellId> capped = planner.plan(start, goal, Algorithm::astar, {.max_nodes = 3});
  EXPECT_EQ(capped.status.reason(), FailureReason::budget_exhausted);
  EXPECT_EQ(planner.make_search({.max_nodes = 3}).run(start, goal).reason(), FailureReason::budget_exhausted);
  EXPECT_EQ(planner.unsupported(), planner.unsupported(planner.default_algorithm()));

  // sync(): the same report type everywhere, the version it now answers from and the work done.
  map.set_passable(30, 5, false);
  ASSERT_TRUE(planner.stale());
  const search::SyncReport synced = planner.sync();
  EXPECT_EQ(synced.world_version, map.version());
  EXPECT_GT(synced.recomputed, 0u);
  EXPECT_EQ(planner.sync(), (search::SyncReport{map.version(), 0}));

  const graph::Graph roads = graph::generate_road_network({.columns = 4, .rows = 4, .seed = 2});
  graph::GraphPlanner roads_planner(roads);
  EXPECT_EQ(roads_planner.sync(), (search::SyncReport{roads.version(), 0}));  // nothing was stale

  // A world that never changes: nothing to do, every algorithm served.
  const navmesh::NavMesh strip = navmesh::build_from_triangles(
      TriangleMesh{{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}, {{0, 1, 2}, {0, 2, 3}}});
  navmesh::NavPlanner nav(strip, {.query = {.partial_result = true}});
  EXPECT_FALSE(nav.stale());
  EXPECT_EQ(nav.sync(), search::SyncReport{});
  EXPECT_FALSE(nav.unsupported(navmesh::NavMode::funnel).has_value());
  EXPECT_TRUE(nav.default_query().partial_result);  // the planner's limits become its default query

  // A puzzle goes to any goal the search can serve, with the query's limits.
  const puzzle::SlidingPuzzle eight(3);
  const puzzle::PuzzleSolver solver(eight, puzzle::HeuristicKind::manhattan, nullptr,
                                    {.algorithm = puzzle::Algorithm::astar, .query = {.max_nodes = 100'000}});
  const std::vector<int> tiles{1, 2, 0, 3, 4, 5, 6, 7, 8};
  const puzzle::PuzzleState scrambled = eight.make_state(tiles);
  EXPECT_EQ(solver.plan(scrambled, eight.goal()).path.cost, 2.0);
  EXPECT_EQ(solver.plan(eight.goal(), scrambled).path.cost, 2.0);  // A*: any board is a goal
  EXPECT_EQ(solver.plan(scrambled, eight.goal(), puzzle::Algorithm::astar, {.max_nodes = 1}).status.reason(),
            FailureReason::budget_exhausted);
  EXPECT_EQ(solver.default_query().max_nodes, 100'000u);
}

TEST(PlannersAlike, APuzzleSolverPlansOnceAndServesAQueue) {
  const puzzle::SlidingPuzzle eight(3);
  const puzzle::PuzzleSolver solver(eight, puzzle::HeuristicKind::manhattan);  // ida by default
  const search::SearchResult<puzzle::PuzzleState> at_goal = solver.plan(eight.goal());
  ASSERT_TRUE(at_goal.status.succeeded());
  EXPECT_EQ(at_goal.path.cost, 0.0);
  // The goal (blank in cell 0) with the blank moved right twice.
  const std::vector<int> tiles{1, 2, 0, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(eight.check(tiles), puzzle::PuzzleCheck::ok);
  const puzzle::PuzzleState scrambled = eight.make_state(tiles);
  const search::SearchResult<puzzle::PuzzleState> by_ida = solver.plan(scrambled);
  const search::SearchResult<puzzle::PuzzleState> by_astar = solver.plan(scrambled, puzzle::Algorithm::astar);
  ASSERT_TRUE(by_ida.status.succeeded() && by_astar.status.succeeded());
  EXPECT_EQ(by_ida.path.cost, 2.0);
  EXPECT_EQ(by_astar.path.cost, 2.0);
  PathRequestQueue<puzzle::PuzzleState> queue;
  const search::RequestId id = queue.submit(solver, scrambled, eight.goal());
  while (queue.in_flight() > 0) queue.update(search::Budget{});
  ASSERT_EQ(queue.state(id), RequestState::succeeded);
  EXPECT_EQ(queue.result(id)->path.cost, 2.0);
}

TEST(PlannersAlike, ANavPlannerRunsEitherModePerCallAndPlansOnce) {
  // Three unit squares in a row (wound as tests/navmesh's floor_of()).
  const navmesh::NavMesh strip = navmesh::build_from_triangles(TriangleMesh{
      {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}, {2, 0, 1}, {2, 0, 0}, {3, 0, 1}, {3, 0, 0}},
      {{0, 1, 2}, {0, 2, 3}, {3, 2, 4}, {3, 4, 5}, {5, 4, 6}, {5, 6, 7}}});
  const navmesh::NavPlanner planner(strip);
  for (const navmesh::NavMode mode : {navmesh::NavMode::shortest, navmesh::NavMode::funnel}) {
    const search::SearchResult<Vec3> once = planner.plan({0.5, 0, 0.5}, {2.5, 0, 0.5}, mode);
    ASSERT_TRUE(once.status.succeeded());
    EXPECT_NEAR(once.path.cost, 2.0, 1e-9);
    search::SearchHandle<Vec3> search = planner.make_search(mode, {});
    ASSERT_TRUE(search.run({0.5, 0, 0.5}, {2.5, 0, 0.5}).succeeded());
    EXPECT_NEAR(search.path().cost, 2.0, 1e-9);
  }
  const search::SearchResult<Vec3> off = planner.plan({0.5, 0, 0.5}, {9.5, 0, 0.5});
  EXPECT_EQ(off.status.reason(), FailureReason::out_of_bounds);
  EXPECT_EQ(off.path.cost, infinite_cost);
}

TEST(PlannersAlike, AGridPlannerRunsAnyAlgorithmPerCallAndIsTheQueuesWorld) {
  const GridMap map = walled(40, 30, 20, true);
  const GridPlanner planner(map);  // default: astar
  const CellId start = map.cell(2, 28), goal = map.cell(37, 27);
  const search::SearchResult<CellId> astar = planner.plan(start, goal);
  ASSERT_TRUE(astar.status.succeeded());
  for (const Algorithm a : {Algorithm::dijkstra, Algorithm::jps, Algorithm::jps_plus, Algorithm::bfs}) {
    SCOPED_TRACE(to_string(a));
    search::SearchHandle<CellId> search = planner.make_search(a, {});
    ASSERT_TRUE(search.run(start, goal).succeeded());
    if (a != Algorithm::bfs) {
      EXPECT_NEAR(search.path().cost, astar.path.cost, 1e-9);
    }
    EXPECT_EQ(search.path().nodes.front(), start);
    EXPECT_EQ(search.path().nodes.back(), goal);
    const search::SearchResult<CellId> once = planner.plan(start, goal, a);
    EXPECT_EQ(once.path.cost, search.path().cost);
  }
  PathRequestQueue<CellId> queue;
  const search::RequestId id = queue.submit(planner, start, goal);
  while (queue.in_flight() > 0) queue.update(search::Budget{});
  ASSERT_EQ(queue.state(id), RequestState::succeeded);
  EXPECT_NEAR(queue.result(id)->path.cost, astar.path.cost, 1e-9);
}

TEST(PlannersAlike, AGraphPlannerAnswersEveryPreparedAlgorithmOnOneGraph) {
  const graph::Graph roads = graph::generate_road_network({.columns = 12, .rows = 10, .seed = 5});
  const graph::GraphPlanner planner(roads, {.algorithm = graph::Algorithm::dijkstra,
                                            .prepare = {graph::Algorithm::alt, graph::Algorithm::ch}});
  std::vector<search::SearchHandle<VertexId>> searches;
  for (const graph::Algorithm a : {graph::Algorithm::dijkstra, graph::Algorithm::bidijkstra, graph::Algorithm::astar,
                                   graph::Algorithm::alt, graph::Algorithm::ch}) {
    EXPECT_FALSE(planner.unsupported(a).has_value()) << to_string(a);
    searches.push_back(planner.make_search(a, {}));
  }
  for (std::uint32_t i = 0; i < 40; ++i) {
    const VertexId s{(i * 37) % 120}, t{(i * 53 + 11) % 120};
    const Status reference = searches[0].run(s, t);
    for (std::size_t k = 1; k < searches.size(); ++k) {
      ASSERT_EQ(searches[k].run(s, t).succeeded(), reference.succeeded()) << k;
      if (reference.succeeded()) {
        EXPECT_NEAR(searches[k].path().cost, searches[0].path().cost, 1e-9) << k;
      }
    }
  }
  // Not prepared: refused at once, saying what would change it.
  ASSERT_TRUE(planner.unsupported(graph::Algorithm::table).has_value());
  EXPECT_NE(planner.unsupported(graph::Algorithm::table)->find("prepare"), std::string::npos);
  search::SearchHandle<VertexId> table = planner.make_search(graph::Algorithm::table, {});
  EXPECT_EQ(table.run(VertexId{0}, VertexId{5}).reason(), FailureReason::unsupported);
}

}  // namespace
}  // namespace waymark::core_api_traps_test
