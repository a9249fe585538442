// The engine's run-time features: several sources with initial costs, goals given as lists,
// predicates or nothing, budgets in expansions, scanned cells and time, events as values,
// the type-erased handle, and the generation-stamped array behind every node table.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>
#include <random>
#include <set>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/grid/heuristics.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/events.hpp"
#include "waymark/search/generation_array.hpp"
#include "waymark/search/handle.hpp"
#include "waymark/search/ida_star.hpp"
#include "waymark/search/shortest_path_tree.hpp"
#include "waymark/search/traversal.hpp"

namespace waymark::search_engine_features_test {
using namespace search;
using namespace grid;
namespace {

constexpr double eps = 1e-9;

/// Distances from one cell to every cell (Dijkstra), for references.
std::vector<Cost> distances_from(const GridSpace& space, CellId from) {
  ShortestPathTree<GridSpace> tree(space);
  EXPECT_TRUE(tree.compute(from).succeeded());
  std::vector<Cost> d(space.node_count());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = tree.distance(space.node_at(i));
  return d;
}

class EngineFeatures : public ::testing::Test {
 protected:
  GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  GridSpace space{map, DiagonalRule::no_corner_cutting};
  std::mt19937 rng{17};
  CellId random_cell() { return test::random_passable(map, rng); }
};

TEST_F(EngineFeatures, SeveralSourcesWithInitialCostsGiveTheNearestAndItsOrigin) {
  for (int round = 0; round < 5; ++round) {
    std::vector<Source<CellId>> sources;
    std::vector<std::vector<Cost>> from;
    for (int i = 0; i < 4; ++i) {
      sources.push_back({random_cell(), static_cast<Cost>(i) * 3.5});
      from.push_back(distances_from(space, sources.back().node));
    }
    ShortestPathTree<GridSpace> tree(space);
    ASSERT_TRUE(tree.compute(sources).succeeded());
    for (std::size_t c = 0; c < map.cell_count(); ++c) {
      const CellId cell{static_cast<std::uint32_t>(c)};
      Cost best = infinite_cost;
      for (std::size_t i = 0; i < sources.size(); ++i) best = std::min(best, sources[i].cost + from[i][c]);
      if (best == infinite_cost) {
        EXPECT_FALSE(tree.reached(cell));
        continue;
      }
      ASSERT_NEAR(tree.distance(cell), best, eps) << c;
      const auto origin = tree.origin(cell);
      ASSERT_TRUE(origin.has_value());
      // The origin is a source that achieves the distance (ties may go either way).
      EXPECT_NEAR(sources[*origin].cost + from[*origin][c], best, eps) << c;
      Path<CellId> p;
      ASSERT_TRUE(tree.path_to(cell, p).succeeded());
      EXPECT_EQ(p.nodes.front(), sources[*origin].node);
    }
  }
}

TEST_F(EngineFeatures, RepeatedSourceKeepsTheCheapestCost) {
  const CellId s = random_cell(), g = random_cell();
  const std::vector<Source<CellId>> sources{{s, 5}, {s, 2}, {s, 7}};
  Dijkstra<GridSpace> dijkstra(space);
  dijkstra.begin(sources, Goal<CellId>::at(g));
  ASSERT_TRUE(dijkstra.step().succeeded());
  EXPECT_NEAR(dijkstra.path().cost, 2 + distances_from(space, s)[g.value], eps);
  EXPECT_EQ(dijkstra.origin_of(g), 1u);
}

TEST_F(EngineFeatures, NoUsableSourceFailsAtOnce) {
  Dijkstra<GridSpace> dijkstra(space);
  dijkstra.begin(std::span<const Source<CellId>>{}, Goal<CellId>::none());
  EXPECT_EQ(dijkstra.status(), Status::failure(StatusDetail::invalid_query));
  CellId wall{};
  for (std::size_t c = 0; c < map.cell_count(); ++c) {
    if (!map.passable(CellId{static_cast<std::uint32_t>(c)})) wall = CellId{static_cast<std::uint32_t>(c)};
  }
  const std::vector<Source<CellId>> blocked{{wall, 0}};
  dijkstra.begin(blocked, Goal<CellId>::none());
  EXPECT_EQ(dijkstra.status(), Status::failure(StatusDetail::invalid_query | StatusDetail::start_blocked));
  EXPECT_EQ(dijkstra.stats().expanded, 0u);
}

TEST_F(EngineFeatures, AnyOfGoalReachesTheNearestAndKeepsTheHeuristic) {
  for (int round = 0; round < 20; ++round) {
    const CellId s = random_cell();
    const std::vector<CellId> goals{random_cell(), random_cell(), random_cell()};
    const std::vector<Cost> d = distances_from(space, s);
    Cost nearest = infinite_cost;
    for (const CellId g : goals) nearest = std::min(nearest, d[g.value]);
    const Source<CellId> source{s, 0};
    AStar<GridSpace, OctileHeuristic> astar(space, OctileHeuristic(map));
    astar.begin(std::span(&source, 1), Goal<CellId>::any_of(goals));
    const Status st = astar.step();
    if (nearest == infinite_cost) {
      EXPECT_TRUE(st.failed());
      continue;
    }
    ASSERT_TRUE(st.succeeded());
    EXPECT_NEAR(astar.path().cost, nearest, eps);
    EXPECT_NE(std::find(goals.begin(), goals.end(), astar.path().nodes.back()), goals.end());
    // The heuristic (least over the goals) keeps A* from expanding more than Dijkstra does.
    Dijkstra<GridSpace> dijkstra(space);
    dijkstra.begin(std::span(&source, 1), Goal<CellId>::any_of(goals));
    ASSERT_TRUE(dijkstra.step().succeeded());
    EXPECT_NEAR(dijkstra.path().cost, nearest, eps);
    EXPECT_LE(astar.stats().expanded, dijkstra.stats().expanded);
  }
}

TEST_F(EngineFeatures, PredicateGoalReachesARegion) {
  const auto in_region = [this](CellId c) { return map.coord(c).x >= 40; };  // the arena's east side
  for (int round = 0; round < 20; ++round) {
    const CellId s = random_cell();
    const std::vector<Cost> d = distances_from(space, s);
    Cost nearest = infinite_cost;
    for (std::size_t c = 0; c < d.size(); ++c) {
      if (in_region(CellId{static_cast<std::uint32_t>(c)})) nearest = std::min(nearest, d[c]);
    }
    for (int which = 0; which < 3; ++which) {
      const Source<CellId> source{s, 0};
      const Goal<CellId> goal = Goal<CellId>::matching(in_region);
      Status st;
      Path<CellId> path;
      if (which == 0) {
        AStar<GridSpace, OctileHeuristic> a(space, OctileHeuristic(map));
        a.begin(std::span(&source, 1), goal);
        st = a.step();
        path = a.path();
      } else if (which == 1) {
        BreadthFirstSearch<GridSpace> b(space);
        b.begin(std::span(&source, 1), goal);
        st = b.step();
        path = b.path();
      } else {
        if (round >= 3) continue;  // without a heuristic IDA* runs one iteration per distinct g: slow
        IdaStar<GridSpace, OctileHeuristic> ida(space, OctileHeuristic(map));
        ida.begin(std::span(&source, 1), goal);
        st = ida.step();
        path = ida.path();
      }
      if (nearest == infinite_cost) {
        EXPECT_TRUE(st.failed());
        continue;
      }
      ASSERT_TRUE(st.succeeded()) << which;
      EXPECT_TRUE(in_region(path.nodes.back()));
      if (which != 1) {
        EXPECT_NEAR(path.cost, nearest, eps) << which;  // BFS: fewest moves, not cost
      }
    }
  }
}

TEST_F(EngineFeatures, NoGoalExploresEverythingReachable) {
  const CellId s = random_cell();
  Dijkstra<GridSpace> dijkstra(space);
  const Source<CellId> source{s, 0};
  dijkstra.begin(std::span(&source, 1), Goal<CellId>::none());
  const Status st = dijkstra.step();
  EXPECT_EQ(st, Status::failure(StatusDetail::unreachable));  // searched all it reached: nothing was a goal
  const std::vector<Cost> d = distances_from(space, s);
  std::size_t reachable = 0;
  for (std::size_t c = 0; c < d.size(); ++c) {
    const CellId cell{static_cast<std::uint32_t>(c)};
    if (d[c] == infinite_cost) {
      EXPECT_FALSE(dijkstra.reached(cell));
      continue;
    }
    ++reachable;
    EXPECT_TRUE(dijkstra.closed(cell));
    EXPECT_NEAR(dijkstra.g_of(cell), d[c], eps);
  }
  EXPECT_EQ(dijkstra.stats().expanded, reachable);
}

TEST_F(EngineFeatures, MultiSourceIdaAndTraversalsStartFromEverySource) {
  for (int round = 0; round < 10; ++round) {
    const std::vector<Source<CellId>> sources{{random_cell(), 0}, {random_cell(), 0}, {random_cell(), 0}};
    const CellId g = random_cell();
    Cost nearest = infinite_cost;
    for (const auto& s : sources) nearest = std::min(nearest, distances_from(space, s.node)[g.value]);
    IdaStar<GridSpace, OctileHeuristic> ida(space, OctileHeuristic(map));
    ida.begin(sources, Goal<CellId>::at(g));
    DepthFirstSearch<GridSpace> dfs(space);
    dfs.begin(sources, Goal<CellId>::at(g));
    const Status a = ida.step(), b = dfs.step();
    if (nearest == infinite_cost) {
      EXPECT_TRUE(a.failed());
      EXPECT_TRUE(b.failed());
      continue;
    }
    ASSERT_TRUE(a.succeeded());
    EXPECT_NEAR(ida.path().cost, nearest, eps);
    ASSERT_TRUE(b.succeeded());
    const auto starts_at_a_source = [&](CellId c) {
      return std::any_of(sources.begin(), sources.end(), [c](const Source<CellId>& s) { return s.node == c; });
    };
    EXPECT_TRUE(starts_at_a_source(ida.path().nodes.front()));
    EXPECT_TRUE(starts_at_a_source(dfs.path().nodes.front()));
  }
}

TEST_F(EngineFeatures, BudgetsInExpansionsScannedCellsAndTime) {
  const CellId s = map.cell(3, 1), g = map.cell(35, 7);
  AStar<GridSpace, OctileHeuristic> once(space, OctileHeuristic(map));
  ASSERT_TRUE(solve(once, s, g).succeeded());
  const std::vector<Budget> budgets{Budget::of_expansions(7), Budget::of_scanned(25),
                                    Budget::of_time(std::chrono::nanoseconds(0))};
  for (const Budget& budget : budgets) {
    AStar<GridSpace, OctileHeuristic> stepped(space, OctileHeuristic(map));
    stepped.begin(s, g);
    std::uint64_t steps = 0, last_expanded = 0, last_scanned = 0;
    while (stepped.status().running()) {
      stepped.step(budget);
      ++steps;
      const std::uint64_t expanded = stepped.stats().expanded - last_expanded;
      const std::uint64_t scanned = stepped.stats().scanned - last_scanned;
      EXPECT_GE(expanded + (stepped.status().running() ? 0 : 1), 1u);  // every step makes progress
      if (stepped.status().running()) {
        EXPECT_LE(expanded, budget.expansions);
        // A step stops after the expansion that reached the limit: at most one node's successors more.
        if (budget.scanned != Budget::unlimited) {
          EXPECT_LE(scanned, budget.scanned + 8);
        }
        if (budget.time == Budget::Clock::duration::zero()) {
          EXPECT_EQ(expanded, 1u);
        }
      }
      last_expanded = stepped.stats().expanded;
      last_scanned = stepped.stats().scanned;
    }
    EXPECT_TRUE(stepped.status().succeeded());
    EXPECT_EQ(stepped.path().nodes, once.path().nodes);
    EXPECT_EQ(stepped.stats().expanded, once.stats().expanded);
    EXPECT_EQ(stepped.stats().scanned, once.stats().generated);  // grids scan what they generate
    EXPECT_GT(steps, 1u);
  }
}

TEST(JumpBudget, LongJumpsOverOpenMapsStopAtTheCellLimitAndStayOptimal) {
  // A large open map: an unbounded diagonal jump from the corner scans the whole map.
  GridMap open(1500, 1500);
  for (int y = 100; y < 1400; y += 300) open.set_passable(CellRect{700, y, 701, y + 150}, false);
  const CellId s = open.cell(0, 0), g = open.cell(1499, 1400);
  const GridSpace space(open, DiagonalRule::no_corner_cutting);
  AStar<GridSpace, OctileHeuristic> astar(space, OctileHeuristic(open));
  ASSERT_TRUE(solve(astar, s, g).succeeded());
  std::vector<std::uint64_t> most_per_limit;
  const std::vector<std::uint32_t> limits{1u, 40u, 2000u, 1u << 24};
  for (const std::uint32_t limit : limits) {
    SCOPED_TRACE(limit);
    const JumpPointSpace jumps(open, JumpParams{.max_jump_cells = limit});
    AStar<JumpPointSpace, OctileHeuristic> jps(jumps, OctileHeuristic(open));
    jps.begin(s, g);
    std::uint64_t most = 0, before = 0;
    while (jps.step(1).running()) {
      most = std::max(most, jps.stats().scanned - before);
      before = jps.stats().scanned;
    }
    ASSERT_TRUE(jps.status().succeeded());
    EXPECT_NEAR(jps.path().cost, astar.path().cost, 1e-6);
    // One expansion: 8 jumps, each a straight row (<= width + 2 cells), or a diagonal that stops
    // once its cells reach the limit, checked per step (limit + two rows).
    const std::uint64_t row = 1502;
    EXPECT_LE(most, 8 * (std::uint64_t{limit} + 2 * row + 1));
    most_per_limit.push_back(most);
  }
  // Unbounded, one expansion here scans far more than any bounded one may.
  EXPECT_GT(most_per_limit.back(), 8 * (std::uint64_t{limits[2]} + 2 * 1502 + 1));
}

TEST_F(EngineFeatures, EventsAreValuesARecorderKeepsThemBounded) {
  const CellId s = map.cell(3, 1), g = map.cell(35, 7);
  EventRecorder<CellId> recorder;
  AStar<GridSpace, OctileHeuristic, EventObserver<CellId>> astar(space, OctileHeuristic(map), {},
                                                                 EventObserver<CellId>(&recorder));
  astar.begin(s, g);
  while (astar.step(10).running()) {
  }
  ASSERT_TRUE(astar.status().succeeded());
  const auto& ev = recorder.events();
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.front().kind, EventKind::begin);
  EXPECT_TRUE(ev.front().has_node);
  EXPECT_EQ(ev.front().node, g);
  EXPECT_EQ(ev.back().kind, EventKind::end);
  EXPECT_EQ(ev.back().status, astar.status());
  const auto count = [&](EventKind k) {
    return static_cast<std::uint64_t>(std::count_if(ev.begin(), ev.end(), [k](const Event<CellId>& e) { return e.kind == k; }));
  };
  EXPECT_EQ(count(EventKind::expand), astar.stats().expanded);
  EXPECT_EQ(count(EventKind::close), astar.stats().expanded);
  EXPECT_EQ(count(EventKind::goal), 1u);
  EXPECT_GE(count(EventKind::slice_end), 1u);
  std::set<std::uint32_t> opened;
  for (const auto& e : ev) {
    if (e.kind == EventKind::open) {
      EXPECT_EQ(e.has_parent, e.node != s);  // only the source opens without a parent
      opened.insert(e.node.value);
    }
    if (e.kind == EventKind::expand) {
      EXPECT_TRUE(opened.count(e.node.value)) << "expanded before opened";
    }
  }
  // A small recorder keeps the first events and counts the rest.
  EventRecorder<CellId> small(5);
  AStar<GridSpace, OctileHeuristic, EventObserver<CellId>> again(space, OctileHeuristic(map), {},
                                                                 EventObserver<CellId>(&small));
  solve(again, s, g);
  EXPECT_EQ(small.events().size(), 5u);
  EXPECT_TRUE(small.truncated());
  EXPECT_EQ(small.dropped(), ev.size() - 5 - count(EventKind::slice_end));
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(small.events()[i].kind, ev[i].kind);
}

TEST_F(EngineFeatures, HandlesDriveAnySearchAndKeepResultsOnRequest) {
  SearchHandle<CellId> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.begin(map.cell(3, 1), map.cell(35, 7)), Status::failure(StatusDetail::invalid_query));
  EXPECT_TRUE(empty.path().empty());

  const GridPlanner planner(map, {.algorithm = Algorithm::astar});
  SearchHandle<CellId> h = planner.make_search();
  ASSERT_TRUE(h.run(map.cell(3, 1), map.cell(35, 7)).succeeded());
  SearchResult<CellId> kept;
  h.copy_result(kept);
  const SearchResult<CellId> returned = h.result();
  ASSERT_TRUE(h.run(map.cell(35, 7), map.cell(3, 1)).succeeded());
  EXPECT_NE(h.path().nodes, kept.path.nodes);  // the handle moved on; the copies did not
  EXPECT_TRUE(kept.status.succeeded());
  EXPECT_EQ(kept.path.nodes, returned.path.nodes);
  EXPECT_EQ(kept.path.nodes.front(), map.cell(3, 1));
  EXPECT_EQ(kept.path.nodes.back(), map.cell(35, 7));
  EXPECT_EQ(kept.stats.expanded, returned.stats.expanded);

  SearchHandle<CellId> moved = std::move(h);
  EXPECT_TRUE(moved.status().succeeded());
  moved.begin(map.cell(3, 1), map.cell(35, 7));
  moved.cancel();
  EXPECT_EQ(moved.step(), Status::failure(StatusDetail::cancelled));

  // Handles made from engines directly.
  SearchHandle<CellId> bfs = SearchHandle<CellId>::of<BreadthFirstSearch<GridSpace>>(space);
  EXPECT_TRUE(bfs.run(map.cell(3, 1), map.cell(35, 7)).succeeded());
}

TEST(StatusText, ShowsTheDetailFlags) {
  EXPECT_EQ(describe(Status::success()), "success");
  EXPECT_EQ(describe(Status{}), "not-started");
  EXPECT_EQ(describe(Status::failure(StatusDetail::out_of_nodes)), "failure (out-of-nodes)");
  EXPECT_EQ(describe(Status::failure(StatusDetail::partial_result | StatusDetail::cancelled)),
            "failure (partial-result+cancelled)");
  EXPECT_EQ(describe(Status::failure(StatusDetail::stale_world)), "failure (stale-world)");
}

struct Item {
  int value = -1;
  std::uint32_t stamp = 0;
};

TEST(GenerationArray, ResetForgetsEverythingAndTouchInitialises) {
  GenerationArray<Item> a;
  a.assign(10);
  EXPECT_FALSE(a.is_set(3));
  auto [item, fresh] = a.touch(3);
  EXPECT_TRUE(fresh);
  EXPECT_EQ(item.value, -1);
  item.value = 7;
  EXPECT_FALSE(a.touch(3).fresh);
  EXPECT_EQ(a[3].value, 7);
  a.reset();
  EXPECT_FALSE(a.is_set(3));
  EXPECT_EQ(a.touch(3).element.value, -1);  // re-initialised, not the old 7
  a.touch_all();
  EXPECT_FALSE(a.is_set(3));
  a.assign(10);  // same size: no new memory, still all unset
  EXPECT_FALSE(a.is_set(3));
  EXPECT_EQ(a.size(), 10u);
  EXPECT_EQ(a.memory_bytes(), 10 * sizeof(Item));
}

TEST(GenerationSet, InsertsOnceUntilReset) {
  GenerationSet s;
  s.assign(5);
  EXPECT_TRUE(s.insert(2));
  EXPECT_FALSE(s.insert(2));
  EXPECT_TRUE(s.contains(2));
  EXPECT_FALSE(s.contains(1));
  s.reset();
  EXPECT_FALSE(s.contains(2));
  EXPECT_TRUE(s.insert(2));
}

// A Deadline gives each step what is left of one time budget: none once past (a step still
// expands a node), everything when it never passes; a budget longer than the clock's range
// never passes rather than wrapping round.
TEST(SearchDeadline, StepsShareOneTimeBudget) {
  const search::Deadline never;
  EXPECT_TRUE(never.left().is_unlimited());
  EXPECT_FALSE(never.passed());
  EXPECT_EQ(never.seconds_left(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(never.end(), search::Budget::Clock::time_point::max());
  const search::Deadline huge(search::Budget::of_time(search::Budget::Clock::duration::max() - search::Budget::Clock::duration(1)));
  EXPECT_FALSE(huge.passed());
  EXPECT_EQ(huge.end(), search::Budget::Clock::time_point::max());
  const search::Deadline now(search::Budget::of_time(search::Budget::Clock::duration::zero()));
  EXPECT_TRUE(now.passed());
  EXPECT_EQ(now.left().time, search::Budget::Clock::duration::zero());
  EXPECT_FALSE(now.left().is_unlimited());
  const search::Deadline minute(search::Budget::of_time(std::chrono::minutes(1)));
  EXPECT_FALSE(minute.passed());
  EXPECT_GT(minute.left().time, std::chrono::seconds(59));
  EXPECT_LE(minute.left().time, std::chrono::seconds(60));
  EXPECT_GT(minute.seconds_left(), 59.0);
  const search::Deadline brief(search::Budget::of_time(std::chrono::milliseconds(20)));
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_TRUE(brief.passed());
  EXPECT_EQ(brief.seconds_left(), 0.0);
}

}  // namespace
}  // namespace waymark::search_engine_features_test
