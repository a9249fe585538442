// One planner, many threads: each thread drives its own handle over the planner's shared,
// read-only data, and gets exactly the answers a single thread gets.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "support/puzzle_support.hpp"
#include "support/random_grid.hpp"
#include "waymark/core/parallel.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/graph/contraction.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/puzzle/pattern_database.hpp"
#include "waymark/puzzle/solver.hpp"

namespace waymark::search_concurrency_test {
namespace {

constexpr int threads = 4;  // more than the machine's cores: the threads interleave

template <class Node, class Planner>
void expect_threads_agree(const Planner& planner, const std::vector<std::pair<Node, Node>>& queries) {
  // The reference: one handle, one thread.
  std::vector<Cost> expected;
  std::vector<std::size_t> lengths;
  search::SearchHandle<Node> single = planner.make_search();
  for (const auto& [s, g] : queries) {
    single.run(s, g);
    expected.push_back(single.status().succeeded() ? single.path().cost : -1);
    lengths.push_back(single.path().nodes.size());
  }
  std::vector<std::vector<Cost>> found(threads);
  std::vector<std::vector<std::size_t>> found_lengths(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      search::SearchHandle<Node> mine = planner.make_search();
      // Each thread walks the queries from a different place, stepping in small slices.
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const auto& [s, g] = queries[(i + static_cast<std::size_t>(t) * 7) % queries.size()];
        mine.begin(s, g);
        while (mine.step(search::Budget::of_expansions(64)).running()) {
        }
        found[t].push_back(mine.status().succeeded() ? mine.path().cost : -1);
        found_lengths[t].push_back(mine.path().nodes.size());
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const std::size_t q = (i + static_cast<std::size_t>(t) * 7) % queries.size();
      EXPECT_EQ(found[t][i], expected[q]) << "thread " << t << " query " << q;
      EXPECT_EQ(found_lengths[t][i], lengths[q]) << "thread " << t << " query " << q;
    }
  }
}

TEST(Concurrency, GridHandlesShareOnePlanner) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  std::mt19937 rng(12);
  std::vector<std::pair<CellId, CellId>> queries;
  for (int i = 0; i < 40; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
  for (const grid::Algorithm a : {grid::Algorithm::astar, grid::Algorithm::jps, grid::Algorithm::jps_plus}) {
    SCOPED_TRACE(to_string(a));
    const grid::GridPlanner planner(map, {.algorithm = a});
    expect_threads_agree(planner, queries);
  }
}

// The one-shot plan() lends each thread a search the planner keeps: more threads than it keeps
// searches, several algorithms, the same answers as one thread.
TEST(Concurrency, OneShotPlansFromManyThreads) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  std::mt19937 rng(13);
  std::vector<std::pair<CellId, CellId>> queries;
  for (int i = 0; i < 30; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
  const std::vector<grid::Algorithm> algorithms{grid::Algorithm::astar, grid::Algorithm::jps, grid::Algorithm::jps_plus};
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::jps});
  std::vector<Cost> expected;
  std::vector<std::size_t> lengths;
  for (const grid::Algorithm a : algorithms) {
    for (const auto& [s, g] : queries) {
      const search::SearchResult<CellId> r = planner.plan(s, g, a);  // one thread
      expected.push_back(r.status.succeeded() ? r.path.cost : -1);
      lengths.push_back(r.path.nodes.size());
    }
  }
  constexpr std::size_t many = grid::GridPlanner::kept_searches + 2;
  std::vector<std::vector<Cost>> found(many);
  std::vector<std::vector<std::size_t>> found_lengths(many);
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < many; ++t) {
    pool.emplace_back([&, t] {
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::size_t k = (i + t * 11) % expected.size();
        const auto& [s, g] = queries[k % queries.size()];
        const search::SearchResult<CellId> r = planner.plan(s, g, algorithms[k / queries.size()]);
        found[t].push_back(r.status.succeeded() ? r.path.cost : -1);
        found_lengths[t].push_back(r.path.nodes.size());
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (std::size_t t = 0; t < many; ++t) {
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const std::size_t k = (i + t * 11) % expected.size();
      EXPECT_EQ(found[t][i], expected[k]) << "thread " << t << " query " << k;
      EXPECT_EQ(found_lengths[t][i], lengths[k]) << "thread " << t << " query " << k;
    }
  }
}

// Per-call algorithms build their shared data on first use (std::call_once): threads asking
// for the same algorithm at once get one structure, and the same answers as one thread.
TEST(Concurrency, AlgorithmsAskedForFirstByManyThreadsAreBuiltOnce) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  const grid::GridPlanner planner(map);  // A*: no jump structure yet
  const CellId s = map.cell(3, 3), g = map.cell(45, 40);
  const Cost expected = planner.plan(s, g).path.cost;
  std::vector<Cost> found(threads * 2, -1);
  std::vector<std::thread> pool;
  // A request queue's thread asks whether the planner is stale meanwhile.
  std::atomic<bool> done{false};
  std::size_t stale_seen = 0;
  std::thread asker([&] {
    while (!done.load()) stale_seen += planner.stale() ? 1 : 0;
  });
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int k = 0; k < 2; ++k) {
        const grid::Algorithm a = k == 0 ? grid::Algorithm::jps : grid::Algorithm::jps_plus;
        search::SearchHandle<CellId> mine = planner.make_search(a, {});
        found[static_cast<std::size_t>(t * 2 + k)] = mine.run(s, g).succeeded() ? mine.path().cost : -1;
      }
    });
  }
  for (std::thread& th : pool) th.join();
  done = true;
  asker.join();
  EXPECT_EQ(stale_seen, 0u);  // nothing was edited
  for (const Cost c : found) EXPECT_NEAR(c, expected, 1e-9);

  const graph::Graph roads =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  const graph::GraphPlanner graph_planner(roads);  // Dijkstra: no reversed graph, no heuristic yet
  const VertexId from{10}, to{4000};
  const search::SearchResult<VertexId> reference = graph_planner.plan(from, to);
  std::vector<Cost> distances(threads * 2, -1);
  pool.clear();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int k = 0; k < 2; ++k) {
        const graph::Algorithm a = k == 0 ? graph::Algorithm::bidijkstra : graph::Algorithm::astar;
        search::SearchHandle<VertexId> mine = graph_planner.make_search(a, {});
        distances[static_cast<std::size_t>(t * 2 + k)] = mine.run(from, to).succeeded() ? mine.path().cost : -1;
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (const Cost d : distances) EXPECT_NEAR(d, reference.path.cost, 1e-6 * reference.path.cost);
}

TEST(Concurrency, GraphHandlesShareOnePlanner) {
  const graph::Graph g =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  std::mt19937 rng(13);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
  std::vector<std::pair<VertexId, VertexId>> queries;
  for (int i = 0; i < 60; ++i) queries.emplace_back(VertexId{vertex(rng)}, VertexId{vertex(rng)});
  for (const graph::Algorithm a : {graph::Algorithm::bidijkstra, graph::Algorithm::alt, graph::Algorithm::ch}) {
    SCOPED_TRACE(to_string(a));
    const graph::GraphPlanner planner(g, {.algorithm = a});
    expect_threads_agree(planner, queries);
  }
}

TEST(Concurrency, HierarchyLoadChecksOnEveryCore) {
  // Loading a hierarchy proves it on every core (share_indices over blocks of ranks); the
  // loaded one answers as the built one.
  const graph::Graph g =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  const graph::ContractionHierarchy built = graph::ContractionHierarchy::build(g);
  std::stringstream file;
  built.save(file);
  const graph::ContractionHierarchy loaded = graph::ContractionHierarchy::load(file, "oldenburg.ch", g);
  graph::ChQuery a(built), b(loaded);
  for (std::uint32_t s = 0; s < g.node_count(); s += 97) {
    const VertexId from{s}, to{static_cast<std::uint32_t>((s * 7919) % g.node_count())};
    ASSERT_EQ(a.query(from, to), b.query(from, to));
    EXPECT_EQ(a.distance(), b.distance());
  }
}

TEST(Concurrency, PuzzleSolversShareOnePatternDatabase) {
  // The database is built on every core (share_indices), then read by one solver per thread,
  // as `waymark puzzle --threads` does; every board gets its breadth-first distance.
  using namespace puzzle;
  const SlidingPuzzle& p = puzzle_test::eight_puzzle();
  const AdditivePatternDatabase db = AdditivePatternDatabase::build(p, {{1, 2, 3, 4}, {5, 6, 7, 8}});
  const std::vector<PuzzleState> boards = puzzle_test::random_eight_puzzles(60, 14);
  std::vector<int> lengths(boards.size(), -1);
  share_indices(boards.size(), threads, [&](const auto& next) {
    PuzzleSolver solver(p, HeuristicKind::pdb_663, &db);
    for (std::size_t i = next(); i < boards.size(); i = next()) {
      const PuzzleSolution s = solver.ida(boards[i]);
      lengths[i] = s.status.succeeded() ? static_cast<int>(s.moves.size()) : -1;  // each index is one thread's
    }
  });
  for (std::size_t i = 0; i < boards.size(); ++i) EXPECT_EQ(lengths[i], puzzle_test::eight_puzzle_distance(boards[i])) << i;
}

}  // namespace
}  // namespace waymark::search_concurrency_test
