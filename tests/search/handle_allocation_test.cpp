// Handles allocate nothing per query after warm-up either: stepped with budgets, recording
// events into a recorder, kept results copied out, several sources and goal lists — on grids
// and on graphs, for every algorithm.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "support/allocation_counter.hpp"
#include "support/random_grid.hpp"
#include "waymark/graph/graph_planner.hpp"
#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/io/movingai.hpp"
#include "waymark/search/events.hpp"

namespace waymark::search_handle_allocation_test {
namespace {

using test::expect_no_allocation_after_warm_up;

TEST(HandleAllocation, GridHandlesSteppedWithEventsAndKeptResults) {
  const grid::GridMap large = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridMap small = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  for (const auto& [algorithm, name] : grid::algorithm_names) {
    SCOPED_TRACE(name);
    const grid::GridMap& map = algorithm == grid::Algorithm::ida ? small : large;
    std::mt19937 rng(4);
    std::vector<std::pair<CellId, CellId>> queries;
    for (int i = 0; i < 20; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
    search::EventRecorder<CellId> recorder(1u << 16);  // reserved once; beyond it events are counted
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    search::SearchHandle<CellId> handle = planner.make_search({.events = &recorder});
    search::SearchResult<CellId> kept;
    expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [s, g] : queries) {
        recorder.clear();
        handle.begin(s, g);
        while (handle.step(search::Budget{.expansions = 50, .scanned = 4000}).running()) {
        }
        handle.copy_result(kept);
        solved += kept.status.succeeded() ? 1 : 0;
      }
      return solved;
    });
  }
}

// The one-shot plan() lends a search the planner keeps: after the first call of an algorithm
// nothing is allocated into a kept result, and the by-value form allocates only the path it
// returns (before, each call made a search: for the jump searches a dense table of the map).
TEST(HandleAllocation, OneShotPlanAllocatesNothingAfterTheFirst) {
  const grid::GridMap large = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridMap small = io::load_movingai_map(test::data_dir + "/maps/arena.map");
  for (const auto& [algorithm, name] : grid::algorithm_names) {
    SCOPED_TRACE(name);
    const grid::GridMap& map = algorithm == grid::Algorithm::ida ? small : large;
    std::mt19937 rng(5);
    std::vector<std::pair<CellId, CellId>> queries;
    for (int i = 0; i < 20; ++i) queries.emplace_back(test::random_passable(map, rng), test::random_passable(map, rng));
    const grid::GridPlanner planner(map, {.algorithm = algorithm});
    search::SearchResult<CellId> kept;
    expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [s, g] : queries) solved += planner.plan(s, g, kept).succeeded() ? 1 : 0;
      return solved;
    });
    // By value: one block per call, the returned path's (none when it is empty).
    std::size_t paths = 0;
    const std::size_t before = test::allocation_count();
    for (const auto& [s, g] : queries) paths += planner.plan(s, g).path.nodes.empty() ? 0 : 1;
    EXPECT_EQ(test::allocation_count() - before, paths);
  }
}

TEST(HandleAllocation, SeveralSourcesAndGoalLists) {
  const grid::GridMap map = io::load_movingai_map(test::data_dir + "/maps/den520d.map");
  const grid::GridPlanner planner(map, {.algorithm = grid::Algorithm::astar});
  search::SearchHandle<CellId> handle = planner.make_search();
  std::mt19937 rng(8);
  std::vector<std::vector<search::Source<CellId>>> sources(10);
  std::vector<std::vector<CellId>> goals(10);
  for (int i = 0; i < 10; ++i) {
    for (int k = 0; k < 3; ++k) {
      sources[i].push_back({test::random_passable(map, rng), static_cast<Cost>(k)});
      goals[i].push_back(test::random_passable(map, rng));
    }
  }
  expect_no_allocation_after_warm_up([&] {
    std::size_t solved = 0;
    for (int i = 0; i < 10; ++i) {
      handle.begin(sources[i], search::Goal<CellId>::any_of(goals[i]));
      solved += handle.step().succeeded() ? 1 : 0;
    }
    return solved;
  });
}

TEST(HandleAllocation, GraphHandlesForEveryAlgorithm) {
  // Oldenburg has coordinates (astar); Rome99 is small enough for a quick route table.
  const graph::Graph oldenburg =
      io::load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt").graph;
  const graph::Graph rome = io::load_dimacs_graph(test::data_dir + "/roads/rome99.gr").graph;
  for (const auto& [algorithm, name] : graph::algorithm_names) {
    SCOPED_TRACE(name);
    const graph::Graph& g = algorithm == graph::Algorithm::table ? rome : oldenburg;
    std::mt19937 rng(6);
    std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(g.node_count() - 1));
    std::vector<std::pair<VertexId, VertexId>> queries;
    for (int i = 0; i < 30; ++i) queries.emplace_back(VertexId{vertex(rng)}, VertexId{vertex(rng)});
    const graph::GraphPlanner planner(g, {.algorithm = algorithm});
    search::EventRecorder<VertexId> recorder(1u << 16);
    search::SearchHandle<VertexId> handle = planner.make_search({.events = &recorder});
    expect_no_allocation_after_warm_up([&] {
      std::size_t solved = 0;
      for (const auto& [s, t] : queries) {
        recorder.clear();
        handle.begin(s, t);
        while (handle.step(search::Budget::of_expansions(25)).running()) {
        }
        solved += handle.status().succeeded() ? 1 : 0;
      }
      return solved;
    });
  }
}

}  // namespace
}  // namespace waymark::search_handle_allocation_test
