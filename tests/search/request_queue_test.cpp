// PathRequestQueue: requests advanced a frame budget at a time give exactly the paths of one-shot
// searches; cancellation; worlds edited while requests are in flight; fairness (measured) and
// priorities; graph worlds; the memory a queue holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "support/random_grid.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/request_queue.hpp"

namespace waymark::search_request_queue_test {
namespace {

using search::Budget;
using search::NodeTableKind;
using search::PathRequestQueue;
using search::RequestId;
using search::RequestState;

struct Query {
  CellId start;
  CellId goal;
  io::ScenarioQuery scenario;
};

std::vector<Query> scenario_queries(const grid::GridMap& map, const std::string& scen_path, std::size_t count) {
  const io::Scenario scen = io::load_movingai_scenario(scen_path);
  std::vector<Query> out;
  const std::size_t stride = std::max<std::size_t>(1, scen.queries.size() / count);
  for (std::size_t i = 0; i < scen.queries.size() && out.size() < count; i += stride) {
    const io::ScenarioQuery& q = scen.queries[i];
    out.push_back({map.cell(q.start.x, q.start.y), map.cell(q.goal.x, q.goal.y), q});
  }
  return out;
}

/// Runs update(frame) until nothing is in flight; returns the frames it took.
template <class Node>
std::uint64_t drain(PathRequestQueue<Node>& queue, const Budget& frame, std::uint64_t max_frames = 10'000'000) {
  const std::uint64_t first = queue.frame();
  while (queue.in_flight() > 0 && queue.frame() - first < max_frames) queue.update(frame);
  return queue.frame() - first;
}

// 100 requests at once, a budget of a few expansions per frame, a pool of 8 searches on a map
// of 256²: every request ends with exactly the one-shot path (nodes, cost, status) — dense and
// sparse tables alike — and with the Moving AI optimal length.
TEST(RequestQueue, HundredRequestsWithATinyBudgetGiveTheOneShotPaths) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/Boston_0_256.map");
  const std::vector<Query> queries =
      scenario_queries(map, test::data_dir + "/maps/Boston_0_256.map.scen", 100);
  ASSERT_EQ(queries.size(), 100u);
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  for (const NodeTableKind table : {NodeTableKind::dense, NodeTableKind::sparse}) {
    SCOPED_TRACE(table == NodeTableKind::dense ? "dense" : "sparse");
    PathRequestQueue<CellId> queue({.max_requests = 128, .max_searches = 8, .turn = Budget::of_expansions(7)});
    std::vector<RequestId> ids;
    for (const Query& q : queries) ids.push_back(queue.submit(world, q.start, q.goal, {.table = table}));
    const std::uint64_t frames = drain(queue, Budget::of_expansions(40));
    EXPECT_GT(frames, 100u);  // the budget spread them over many frames
    EXPECT_LE(queue.searches(), 8u);
    search::SearchHandle<CellId> fresh = planner.make_search();
    search::SearchResult<CellId> got;
    std::size_t turns = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      ASSERT_TRUE(queue.copy_result(ids[i], got));
      fresh.run(queries[i].start, queries[i].goal);
      ASSERT_EQ(queue.state(ids[i]), RequestState::succeeded);
      EXPECT_EQ(got.status, fresh.status());
      EXPECT_EQ(got.path.nodes, fresh.path().nodes) << "request " << i;
      EXPECT_EQ(got.path.cost, fresh.path().cost);
      EXPECT_EQ(got.stats.expanded, fresh.stats().expanded);
      EXPECT_TRUE(queries[i].scenario.matches_optimal(got.path.cost)) << "line " << queries[i].scenario.line;
      turns += queue.info(ids[i]).turns;
    }
    EXPECT_GT(turns, 3 * queries.size());
  }
}

TEST(RequestQueue, CancelQueuedAndRunningRequests) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  // The 12 longest of 120 sampled queries: none ends in its first turns.
  const std::vector<Query> sample = scenario_queries(map, test::data_dir + "/maps/den520d.map.scen", 120);
  const std::vector<Query> queries(sample.end() - 12, sample.end());
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue({.max_requests = 16, .max_searches = 2, .turn = Budget::of_expansions(5)});
  std::vector<RequestId> ids;
  for (const Query& q : queries) {
    EXPECT_FALSE(queue.full());
    ids.push_back(queue.submit(world, q.start, q.goal));
  }
  // full(): every one of the 16 slots held, so submit() refuses; a release frees one.
  std::vector<RequestId> extra;
  while (!queue.full()) extra.push_back(queue.submit(world, queries[0].start, queries[0].goal));
  EXPECT_EQ(ids.size() + extra.size(), 16u);
  EXPECT_FALSE(queue.submit(world, queries[0].start, queries[0].goal).valid());
  EXPECT_TRUE(queue.release(extra.back()));
  EXPECT_FALSE(queue.full());
  extra.pop_back();
  for (const RequestId id : extra) EXPECT_TRUE(queue.release(id));
  queue.update(Budget::of_expansions(20));
  // The two oldest run, the rest wait for a search.
  ASSERT_EQ(queue.state(ids[0]), RequestState::running);
  ASSERT_EQ(queue.state(ids[1]), RequestState::running);
  ASSERT_EQ(queue.state(ids[5]), RequestState::queued);
  EXPECT_TRUE(queue.cancel(ids[1]));  // running
  EXPECT_TRUE(queue.cancel(ids[5]));  // queued
  EXPECT_FALSE(queue.cancel(ids[5]));  // already ended
  EXPECT_EQ(queue.state(ids[1]), RequestState::cancelled);
  EXPECT_EQ(queue.state(ids[5]), RequestState::cancelled);
  search::SearchResult<CellId> got;
  ASSERT_TRUE(queue.copy_result(ids[1], got));
  EXPECT_TRUE(got.status.has(StatusDetail::cancelled));
  EXPECT_TRUE(got.path.nodes.empty());
  drain(queue, Budget::of_expansions(500));
  search::SearchHandle<CellId> fresh = planner.make_search();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i == 1 || i == 5) {
      EXPECT_EQ(queue.state(ids[i]), RequestState::cancelled);
      continue;
    }
    ASSERT_TRUE(queue.copy_result(ids[i], got));
    fresh.run(queries[i].start, queries[i].goal);
    EXPECT_EQ(got.path.nodes, fresh.path().nodes) << i;
  }
  EXPECT_LE(queue.searches(), 2u);  // the cancelled request's search went back to the pool
  // Released ids name nothing, even once their slot is reused.
  EXPECT_TRUE(queue.release(ids[0]));
  EXPECT_EQ(queue.state(ids[0]), RequestState::unknown);
  const RequestId reused = queue.submit(world, queries[0].start, queries[0].goal);
  EXPECT_EQ(reused.slot, ids[0].slot);
  EXPECT_EQ(queue.state(ids[0]), RequestState::unknown);
  EXPECT_FALSE(queue.copy_result(ids[0], got));
  EXPECT_EQ(queue.state(reused), RequestState::queued);
  // Releasing an unfinished request cancels it and gives its search back.
  queue.update(Budget::of_expansions(3));
  EXPECT_TRUE(queue.release(reused));
  EXPECT_EQ(queue.in_flight(), 0u);
}

// Walls are built across the map while requests are in flight. Before the owner syncs, the
// requests wait (no turns, no stale answers); after it, the ones already under way restart and
// every request ends with the cost of a fresh search on the edited map.
TEST(RequestQueue, WorldEditedWhileRequestsAreInFlight) {
  for (const NodeTableKind table : {NodeTableKind::dense, NodeTableKind::sparse}) {
    grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
    const std::vector<Query> queries = scenario_queries(map, test::data_dir + "/maps/den520d.map.scen", 30);
    grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
    const grid::GridPlanner& world = planner;  // the planner is the search source
    PathRequestQueue<CellId> queue({.max_searches = 10, .turn = Budget::of_expansions(20)});
    std::vector<RequestId> ids;
    for (const Query& q : queries) ids.push_back(queue.submit(world, q.start, q.goal, {.table = table}));
    for (int f = 0; f < 20; ++f) queue.update(Budget::of_expansions(200));
    std::vector<std::uint32_t> turns_before;
    std::vector<bool> done_before;  // these answer the map as it was
    for (const RequestId id : ids) {
      turns_before.push_back(queue.info(id).turns);
      done_before.push_back(queue.info(id).state == RequestState::succeeded);
    }
    const grid::GridMap original = map;
    // Walls with gaps, across the middle rows and columns; start and goal cells stay free.
    std::mt19937 rng(static_cast<unsigned>(table) + 5);
    for (int k = 0; k < 6; ++k) {
      const int y = 60 + 50 * k;
      const int gap = static_cast<int>(rng() % static_cast<unsigned>(map.width() - 20));
      map.set_passable({0, y, gap, y + 1}, false);
      map.set_passable({gap + 6, y, map.width(), y + 1}, false);
    }
    for (const Query& q : queries) {  // keep the endpoints usable
      const grid::CellCoord a = map.coord(q.start);
      const grid::CellCoord b = map.coord(q.goal);
      map.set_passable(a.x, a.y, true);
      map.set_passable(b.x, b.y, true);
    }
    ASSERT_TRUE(planner.stale());
    for (int f = 0; f < 5; ++f) queue.update(Budget::of_expansions(200));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (queue.info(ids[i]).state == RequestState::running) {
        EXPECT_EQ(queue.info(ids[i]).turns, turns_before[i]);
      }
    }
    planner.sync();
    drain(queue, Budget::of_expansions(2000));
    const grid::GridMap edited = map;  // a copy: a planner built afresh on the edited world
    const grid::GridPlanner reference(edited, {.algorithm = grid::Algorithm::astar});
    const grid::GridPlanner before(original, {.algorithm = grid::Algorithm::astar});
    search::SearchHandle<CellId> fresh = reference.make_search();
    search::SearchHandle<CellId> fresh_before = before.make_search();
    std::size_t restarted = 0;
    std::size_t after_edit = 0;
    search::SearchResult<CellId> got;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ASSERT_TRUE(queue.copy_result(ids[i], got));
      if (done_before[i]) {
        fresh_before.run(queries[i].start, queries[i].goal);
        EXPECT_EQ(got.path.nodes, fresh_before.path().nodes) << i;
        continue;
      }
      ++after_edit;
      fresh.run(queries[i].start, queries[i].goal);
      EXPECT_EQ(got.status, fresh.status()) << i;
      EXPECT_EQ(got.path.cost, fresh.path().cost) << i;
      EXPECT_EQ(got.path.nodes, fresh.path().nodes) << i;
      restarted += queue.info(ids[i]).restarts > 0 ? 1 : 0;
    }
    EXPECT_GT(restarted, 0u);
    EXPECT_GT(after_edit, 10u);
    std::printf("world edit (%s): %zu of %zu requests unfinished at the edit, %zu restarted\n",
                table == NodeTableKind::dense ? "dense" : "sparse", after_edit, ids.size(), restarted);
  }
}

// Fairness, measured: N requests of one priority, each frame's budget enough for about four
// turns. The most frames any request waits between two turns grows as N / 4, and every
// request finishes.
TEST(RequestQueue, NoRequestStarvesWithinAPriority) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  std::mt19937 rng(21);
  for (const std::size_t n : {10u, 50u, 100u}) {
    PathRequestQueue<CellId> queue({.max_requests = n, .max_searches = n, .turn = Budget::of_expansions(4)});
    std::vector<RequestId> ids;
    for (std::size_t i = 0; i < n; ++i) {
      ids.push_back(queue.submit(world, test::random_passable(map, rng), test::random_passable(map, rng)));
    }
    drain(queue, Budget::of_expansions(16));
    std::uint64_t max_wait = 0;
    for (const RequestId id : ids) {
      ASSERT_NE(queue.state(id), RequestState::queued);
      ASSERT_NE(queue.state(id), RequestState::running);
      max_wait = std::max(max_wait, queue.info(id).max_wait);
    }
    std::printf("fairness: %zu requests, 4 turns per frame: at most %llu frames without a turn\n", n,
                static_cast<unsigned long long>(max_wait));
    EXPECT_LE(max_wait, (n + 3) / 4);
  }
}

// Priorities: with one search, the highest priority starts first; a stream of high-priority
// requests does not starve a low one (aging), and while both run the high one gets the turns.
TEST(RequestQueue, PrioritiesAndAging) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  const CellId a = map.cell(3, 3);
  const CellId b = map.cell(45, 40);
  {
    PathRequestQueue<CellId> queue({.max_searches = 1});
    const RequestId low = queue.submit(world, a, b, {}, 0);
    const RequestId high = queue.submit(world, b, a, {}, 5);
    queue.update(Budget::of_expansions(1));
    EXPECT_EQ(queue.state(high), RequestState::running);
    EXPECT_EQ(queue.state(low), RequestState::queued);
  }
  {
    // Many searches: both run, the high one is served first each frame with one turn per frame.
    PathRequestQueue<CellId> queue({.max_searches = 4, .turn = Budget::of_expansions(10)});
    const RequestId low = queue.submit(world, a, b, {}, 0);
    const RequestId high = queue.submit(world, a, b, {}, 3);
    drain(queue, Budget::of_expansions(10));
    EXPECT_LT(queue.info(high).finished, queue.info(low).finished);
  }
  // Three high-priority requests always in flight (each replaced when it finishes), one turn
  // per frame: with aging the low one gets a turn every ~2 agings and finishes; without, it
  // never gets one.
  for (const std::uint32_t aging : {4u, 1'000'000u}) {
    PathRequestQueue<CellId> queue(
        {.max_requests = 8, .max_searches = 8, .turn = Budget::of_expansions(10), .aging_frames = aging});
    const RequestId low = queue.submit(world, a, b, {}, 0);
    std::vector<RequestId> high;
    for (int f = 0; f < 600 && queue.state(low) != RequestState::succeeded; ++f) {
      if (high.size() < 3) high.push_back(queue.submit(world, b, a, {}, 2));  // staggered
      queue.update(Budget::of_expansions(10));
      std::erase_if(high, [&](RequestId h) {
        return queue.state(h) == RequestState::succeeded && queue.release(h);
      });
    }
    if (aging == 4) {
      EXPECT_EQ(queue.state(low), RequestState::succeeded);
      EXPECT_LE(queue.info(low).max_wait, 3u * aging);  // two levels of priority, plus ties
    } else {
      EXPECT_EQ(queue.info(low).turns, 0u);  // starved
    }
    std::printf("aging every %u frames: the low request %s after %llu frames, %u turns, at most %llu frames "
                "without one\n",
                aging, queue.state(low) == RequestState::succeeded ? "finished" : "is unfinished",
                static_cast<unsigned long long>(queue.frame()), queue.info(low).turns,
                static_cast<unsigned long long>(queue.info(low).max_wait));
  }
}

// A graph world (Rome99, Dijkstra and bidirectional Dijkstra): the queue's paths are the
// one-shot ones; a weight edited in flight restarts the requests, which then agree with a
// planner built on the edited graph.
TEST(RequestQueue, GraphWorld) {
  io::LoadedGraph loaded = io::load_dimacs_graph(test::data_dir + "/roads/rome99.gr");
  graph::Graph& g = loaded.graph;
  for (const graph::Algorithm algorithm : {graph::Algorithm::dijkstra, graph::Algorithm::bidijkstra}) {
    graph::GraphPlanner planner(g, {.algorithm = algorithm});
    const graph::GraphPlanner& world = planner;  // the planner is the search source
    std::mt19937 rng(3);
    std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(g.node_count() - 1));
    std::vector<std::pair<VertexId, VertexId>> queries;
    for (int i = 0; i < 40; ++i) queries.emplace_back(VertexId{pick(rng)}, VertexId{pick(rng)});
    PathRequestQueue<VertexId> queue({.max_searches = 4, .turn = Budget::of_expansions(25)});
    std::vector<RequestId> ids;
    for (const auto& [s, t] : queries) ids.push_back(queue.submit(world, s, t));
    for (int f = 0; f < 30; ++f) queue.update(Budget::of_expansions(100));
    // Make the first running request's current best route dearer: double every arc weight
    // around its start.
    const VertexId hub = queries[0].first;
    for (ArcId arc = g.first_arc(hub); arc.value < g.first_arc(hub).value + g.out_degree(hub); ++arc.value) {
      g.set_weight(arc, g.weight(arc) * 2 + 1);
    }
    planner.sync();
    drain(queue, Budget::of_expansions(100));
    graph::GraphPlanner reference(g, {.algorithm = algorithm});
    search::SearchHandle<VertexId> fresh = reference.make_search();
    search::SearchResult<VertexId> got;
    std::size_t restarted = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      ASSERT_TRUE(queue.copy_result(ids[i], got));
      fresh.run(queries[i].first, queries[i].second);
      EXPECT_EQ(got.status, fresh.status());
      EXPECT_EQ(got.path.cost, fresh.path().cost) << i;
      EXPECT_EQ(got.path.nodes, fresh.path().nodes) << i;
      restarted += queue.info(ids[i]).restarts;
    }
    EXPECT_GT(restarted, 0u);
  }
}

// Requests on two worlds and with two option sets share one pool: a search is made again only
// for a request no idle search fits, and the pool never holds more than max_searches.
TEST(RequestQueue, PoolIsSharedAcrossWorldsAndOptions) {
  const grid::GridMap arena = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridMap den = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner arena_planner(arena, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner den_planner(den, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& arena_world = arena_planner;  // the planner is the search source
  const grid::GridPlanner& den_world = den_planner;  // the planner is the search source
  std::mt19937 rng(9);
  PathRequestQueue<CellId> queue({.max_searches = 3, .turn = Budget::of_expansions(50)});
  struct Sent {
    RequestId id;
    const grid::GridPlanner* planner;
    CellId s, g;
    bool partial;
  };
  std::vector<Sent> sent;
  for (int i = 0; i < 30; ++i) {
    const bool on_den = i % 3 == 0;
    const grid::GridMap& map = on_den ? den : arena;
    const CellId s = test::random_passable(map, rng);
    const CellId g = test::random_passable(map, rng);
    const bool partial = i % 2 == 0;
    sent.push_back({queue.submit(on_den ? den_world : arena_world, s, g, {.partial_result = partial}),
                    on_den ? &den_planner : &arena_planner, s, g, partial});
  }
  drain(queue, Budget::of_expansions(300));
  EXPECT_EQ(queue.searches(), 3u);
  search::SearchResult<CellId> got;
  for (const Sent& r : sent) {
    ASSERT_TRUE(queue.copy_result(r.id, got));
    search::SearchHandle<CellId> fresh = r.planner->make_search({.partial_result = r.partial});
    fresh.run(r.s, r.g);
    EXPECT_EQ(got.status, fresh.status());
    EXPECT_EQ(got.path.nodes, fresh.path().nodes);
  }
}

// Memory: 8 requests in flight on a 1024² map. Over the queue's default size limit (256K
// nodes) the pool's searches get sparse tables: a few MiB instead of 8 × 32 MiB.
TEST(RequestQueue, LargeMapsGetSparseTables) {
  const grid::GridMap map(1024, 1024);
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  PathRequestQueue<CellId> queue({.max_searches = 8, .turn = Budget::of_expansions(20)});
  std::mt19937 rng(17);
  std::vector<RequestId> ids;
  for (int i = 0; i < 8; ++i) {
    const CellId s = test::random_passable(map, rng);
    const grid::CellCoord c = map.coord(s);
    const CellId g = map.cell(std::min(c.x + 100, 1023), std::min(c.y + 60, 1023));
    ids.push_back(queue.submit(world, s, g));
  }
  queue.update(Budget::of_expansions(8 * 50));
  EXPECT_EQ(queue.searches(), 8u);
  drain(queue, Budget::of_expansions(10'000));
  for (const RequestId id : ids) EXPECT_EQ(queue.state(id), RequestState::succeeded);
  const std::size_t dense_one = map.cell_count() * sizeof(search::NodeRecord);
  std::printf("queue with 8 searches on 1024x1024, sparse: %zu bytes (dense would hold %zu)\n", queue.memory_bytes(),
              8 * dense_one);
  EXPECT_LT(queue.memory_bytes(), dense_one);  // all eight together below one dense table
}

// Memory is budgeted by default: on a 1024² map (sparse tables) an unreachable goal fails with
// out_of_nodes once a search holds max_table_bytes of pages (a partial path when asked), instead
// of filling the start's whole component; the queue's memory stays within the bound of
// docs/request_queue.md. Without a budget (max_table_bytes = 0) the same search reaches every
// cell and ends unreachable, holding several times as much.
TEST(RequestQueue, DefaultTableBudgetBoundsAnUnreachableGoal) {
  grid::GridMap map(1024, 1024);
  // A closed box around the goal.
  map.set_passable({890, 890, 911, 891}, false);
  map.set_passable({890, 910, 911, 911}, false);
  map.set_passable({890, 890, 891, 911}, false);
  map.set_passable({910, 890, 911, 911}, false);
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  const CellId goal = map.cell(900, 900);
  using Options = search::RequestQueueOptions;
  const std::size_t budget = Options::default_max_table_bytes;
  EXPECT_EQ(budget, std::size_t{8} << 20);
  PathRequestQueue<CellId> queue({.max_searches = 2, .turn = Budget::of_expansions(5000)});
  ASSERT_EQ(queue.options().max_table_bytes, budget);
  const CellId start_a = map.cell(100, 100);
  const CellId start_b = map.cell(500, 40);
  const RequestId partial = queue.submit(world, start_a, goal, {.partial_result = true});
  const RequestId plain = queue.submit(world, start_b, goal);
  // A request's larger limit is cut to the queue's; a smaller one is kept.
  const RequestId small = queue.submit(world, start_a, goal, {.max_table_bytes = budget / 16});
  drain(queue, Budget::of_expansions(20'000));
  search::SearchResult<CellId> got;
  ASSERT_TRUE(queue.copy_result(partial, got));
  EXPECT_EQ(queue.state(partial), RequestState::failed);
  EXPECT_TRUE(got.status.has(StatusDetail::out_of_nodes));
  EXPECT_TRUE(got.status.has(StatusDetail::partial_result));
  EXPECT_EQ(got.status.reason(), FailureReason::budget_exhausted);
  ASSERT_FALSE(got.path.nodes.empty());
  EXPECT_EQ(got.path.nodes.front(), start_a);
  const std::uint64_t expanded_full = got.stats.expanded;
  EXPECT_LT(expanded_full, map.cell_count() / 2);  // far from the whole map
  // Pages hold 64 records: at most budget / 32 nodes were reached, so fewer were expanded.
  EXPECT_LE(expanded_full, budget / sizeof(search::NodeRecord));
  ASSERT_TRUE(queue.copy_result(plain, got));
  EXPECT_EQ(got.status, Status::failure(StatusDetail::out_of_nodes));
  EXPECT_TRUE(got.path.nodes.empty());
  ASSERT_TRUE(queue.copy_result(small, got));
  EXPECT_TRUE(got.status.has(StatusDetail::out_of_nodes));
  EXPECT_LT(got.stats.expanded * 8, expanded_full);  // a sixteenth of the pages
  // The bound: per search the pages (budget, plus one expansion's: at most 6 pages), the
  // directory (16 bytes per 64 cells) and the open list (16 bytes per reached node, at most
  // twice that in capacity: no more than the pages), plus the request slots.
  const std::size_t directory = map.cell_count() / 64 * 16;
  const std::size_t per_search = 2 * (budget + 6 * 2048) + directory;
  const std::size_t slots = queue.options().max_requests * 1024;
  const std::size_t bytes = queue.memory_bytes();
  EXPECT_LE(bytes, 2 * per_search + slots);
  std::printf("unreachable goal on 1024x1024, 2 searches, default budget %zu MiB: queue holds %.2f MiB, %llu "
              "expansions before out_of_nodes\n",
              budget >> 20, static_cast<double>(bytes) / (1 << 20), static_cast<unsigned long long>(expanded_full));
  // Without a budget: the search fills the component and ends unreachable.
  PathRequestQueue<CellId> unlimited({.max_searches = 1, .turn = Budget::of_expansions(50'000), .max_table_bytes = 0});
  const RequestId all = unlimited.submit(world, start_a, goal);
  drain(unlimited, Budget::of_expansions(1'000'000));
  ASSERT_TRUE(unlimited.copy_result(all, got));
  EXPECT_TRUE(got.status.has(StatusDetail::unreachable));
  EXPECT_GT(got.stats.expanded, map.cell_count() * 9 / 10);
  EXPECT_GT(unlimited.memory_bytes(), 3 * (budget + directory));
  std::printf("the same without a budget: %.2f MiB for one search, %llu expansions\n",
              static_cast<double>(unlimited.memory_bytes()) / (1 << 20),
              static_cast<unsigned long long>(got.stats.expanded));
}

// Searches without a sparse table (grid bfs, jps, theta, ...; graphs) on worlds above
// sparse_above_nodes are refused at submit() (failed, invalid_query, no search made) unless
// dense_fallback; below it they run.
TEST(RequestQueue, DenseOnlySearchesOnLargeWorldsAreRefused) {
  const grid::GridMap large(1024, 1024);
  for (const grid::Algorithm algorithm : {grid::Algorithm::bfs, grid::Algorithm::jps, grid::Algorithm::theta}) {
    SCOPED_TRACE(grid::to_string(algorithm));
    const grid::GridPlanner planner(large, {.algorithm = algorithm});
    const grid::GridPlanner& world = planner;  // the planner is the search source
    const CellId s = large.cell(10, 10);
    const CellId g = large.cell(40, 30);
    PathRequestQueue<CellId> queue({.max_searches = 2});
    const RequestId refused = queue.submit(world, s, g);
    ASSERT_TRUE(refused.valid());
    EXPECT_EQ(queue.state(refused), RequestState::failed);
    EXPECT_EQ(queue.info(refused).status, Status::failure(StatusDetail::invalid_query | StatusDetail::unsupported));
    EXPECT_EQ(queue.info(refused).why, search::request_why::needs_dense_table);
    EXPECT_EQ(queue.in_flight(), 0u);
    queue.update(Budget::of_expansions(100));
    EXPECT_EQ(queue.searches(), 0u);
    search::SearchResult<CellId> got;
    ASSERT_TRUE(queue.copy_result(refused, got));
    EXPECT_EQ(got.status.reason(), FailureReason::unsupported);
    EXPECT_TRUE(queue.release(refused));
    // With dense_fallback it runs (over a dense table: 32 bytes per cell, for the searches
    // that report their memory) and gives the one-shot answer.
    PathRequestQueue<CellId> fallback({.max_searches = 1, .dense_fallback = true});
    const RequestId ran = fallback.submit(world, s, g);
    drain(fallback, Budget::of_expansions(1000));
    ASSERT_TRUE(fallback.copy_result(ran, got));
    search::SearchHandle<CellId> fresh = planner.make_search();
    fresh.run(s, g);
    EXPECT_TRUE(got.status.succeeded());
    EXPECT_EQ(got.path.nodes, fresh.path().nodes);
    if (algorithm != grid::Algorithm::bfs) {
      EXPECT_GE(fallback.memory_bytes(), large.cell_count() * sizeof(search::NodeRecord));
    }
  }
  // Below the threshold: not refused. The best-first algorithms with sparse tables: never.
  const grid::GridMap arena = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner bfs(arena, {.algorithm = grid::Algorithm::bfs});
  const grid::GridPlanner& small_world = bfs;  // the planner is the search source
  const grid::GridPlanner astar(large, {.algorithm = grid::Algorithm::dijkstra});
  const grid::GridPlanner& large_world = astar;  // the planner is the search source
  PathRequestQueue<CellId> queue({.max_searches = 2});
  const RequestId on_arena = queue.submit(small_world, arena.cell(3, 3), arena.cell(45, 40));
  const RequestId on_large = queue.submit(large_world, large.cell(10, 10), large.cell(40, 30));
  drain(queue, Budget::of_expansions(1000));
  EXPECT_EQ(queue.state(on_arena), RequestState::succeeded);
  EXPECT_EQ(queue.state(on_large), RequestState::succeeded);
  // A graph has no sparse table: with sparse_above_nodes = 0 ("always sparse") its requests
  // are refused, unless dense_fallback.
  const io::LoadedGraph loaded = io::load_dimacs_graph(test::data_dir + "/roads/rome99.gr");
  const graph::GraphPlanner planner(loaded.graph, {.algorithm = graph::Algorithm::dijkstra});
  const graph::GraphPlanner& graph_world = planner;  // the planner is the search source
  PathRequestQueue<VertexId> strict({.sparse_above_nodes = 0});
  PathRequestQueue<VertexId> lenient({.sparse_above_nodes = 0, .dense_fallback = true});
  const RequestId no = strict.submit(graph_world, VertexId{0}, VertexId{100});
  const RequestId yes = lenient.submit(graph_world, VertexId{0}, VertexId{100});
  drain(strict, Budget::of_expansions(1000));
  drain(lenient, Budget::of_expansions(1000));
  EXPECT_EQ(strict.info(no).status, Status::failure(StatusDetail::invalid_query | StatusDetail::unsupported));
  EXPECT_EQ(lenient.state(yes), RequestState::succeeded);
}

// A world edited (and synced) before every update: a running request restarts at each turn,
// and after max_restarts fails with stale_world, giving its search back to the pool (the next
// request reuses it and gets the right answer). With unlimited_restarts it keeps restarting,
// and once the edits stop it ends with a fresh search's path.
TEST(RequestQueue, WorldEditedEveryFrameEndsAfterMaxRestarts) {
  grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const std::vector<Query> sample = scenario_queries(map, test::data_dir + "/maps/den520d.map.scen", 60);
  const Query& q = sample.back();  // a long one: never done in one turn
  grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  const grid::GridPlanner& world = planner;  // the planner is the search source
  std::mt19937 rng(31);
  CellId toggled = test::random_passable(map, rng);
  while (toggled == q.start || toggled == q.goal) toggled = test::random_passable(map, rng);
  const grid::CellCoord t = map.coord(toggled);
  bool blocked = false;
  const auto edit = [&] {
    blocked = !blocked;
    map.set_passable(t.x, t.y, !blocked);
    planner.sync();
  };
  using Options = search::RequestQueueOptions;
  PathRequestQueue<CellId> queue({.max_searches = 1, .turn = Budget::of_expansions(20)});
  PathRequestQueue<CellId> patient(
      {.max_searches = 1, .turn = Budget::of_expansions(20), .max_restarts = Options::unlimited_restarts});
  ASSERT_EQ(queue.options().max_restarts, Options::default_max_restarts);
  const RequestId doomed = queue.submit(world, q.start, q.goal);
  const RequestId kept = patient.submit(world, q.start, q.goal);
  for (int f = 0; f < 50; ++f) {
    queue.update(Budget::of_expansions(20));
    patient.update(Budget::of_expansions(20));
    edit();
  }
  const search::RequestInfo info = queue.info(doomed);
  EXPECT_EQ(info.state, RequestState::failed);
  EXPECT_EQ(info.status, Status::failure(StatusDetail::stale_world));
  EXPECT_EQ(info.status.reason(), FailureReason::stale_world);
  EXPECT_EQ(info.restarts, Options::default_max_restarts);
  EXPECT_EQ(info.finished, Options::default_max_restarts + 2u);  // began in frame 1, one edit per frame
  EXPECT_EQ(queue.in_flight(), 0u);
  EXPECT_EQ(patient.state(kept), RequestState::running);
  EXPECT_EQ(patient.info(kept).restarts, 49u);
  // Edits stop: the pool's search (left mid-query) serves a new request; the patient one ends.
  const RequestId next = queue.submit(world, q.start, q.goal);
  drain(queue, Budget::of_expansions(200));
  drain(patient, Budget::of_expansions(200));
  const grid::GridMap edited = map;
  const grid::GridPlanner reference(edited, {.algorithm = grid::Algorithm::astar});
  search::SearchHandle<CellId> fresh = reference.make_search();
  fresh.run(q.start, q.goal);
  ASSERT_TRUE(fresh.status().succeeded());
  search::SearchResult<CellId> got;
  for (const auto& [which, id] : {std::pair{&queue, next}, std::pair{&patient, kept}}) {
    ASSERT_TRUE(which->copy_result(id, got));
    EXPECT_EQ(got.status, fresh.status());
    EXPECT_EQ(got.path.nodes, fresh.path().nodes);
  }
  EXPECT_EQ(queue.searches(), 1u);
}

}  // namespace
}  // namespace waymark::search_request_queue_test
