// Shortest-path trees, bidirectional Dijkstra and route tables against Boost Graph's
// dijkstra_shortest_paths: seeded random graphs with every edge case, the two bundled road
// networks, hand-made corner cases, and the route-table file format.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support/forge.hpp"
#include "support/random_graph.hpp"
#include "support/random_grid.hpp"
#include "support/sanitized.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/graph/shortest_paths.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::graph_routes_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

using test::BoostReference;
using test::CheapestArcs;
using test::EdgeList;

bool near_cost(Cost got, Cost expected) { return std::abs(got - expected) <= test::cost_tolerance(expected); }

/// One answer (status + path) for start → goal against the reference distance. (The pair is
/// named in each failure message rather than by SCOPED_TRACE, which costs a string per call.)
void expect_answer(const char* who, Status st, const Path<VertexId>& path, const CheapestArcs& arcs, VertexId start,
                   VertexId goal, Cost expected) {
  const auto pair = [&] { return ::testing::Message() << who << ": start " << start.value << " goal " << goal.value; };
  if (expected == infinite_cost) {
    EXPECT_TRUE(st.failed()) << pair();
    EXPECT_TRUE(path.empty()) << pair();
    return;
  }
  ASSERT_TRUE(st.succeeded()) << pair();
  EXPECT_TRUE(near_cost(path.cost, expected)) << pair() << ": " << path.cost << " vs " << expected;
  EXPECT_TRUE(arcs.is_valid_path(path, start, goal)) << pair();
}

/// The tree's distances equal the reference for every vertex; each reached vertex's parent is
/// one cheapest arc closer.
void expect_tree_matches(const graph::ShortestPathTree& tree, VertexId source, const Graph& graph,
                         const std::vector<Cost>& dist) {
  EXPECT_FALSE(tree.parent(source).has_value());
  EXPECT_EQ(tree.origin(source), 0u);
  for (std::uint32_t v = 0; v < graph.node_count(); ++v) {
    const VertexId t{v};
    const auto where = [&] { return ::testing::Message() << "tree from " << source.value << " to " << v; };
    if (dist[v] == infinite_cost) {
      EXPECT_FALSE(tree.reached(t)) << where();
      EXPECT_EQ(tree.distance(t), infinite_cost) << where();
      EXPECT_FALSE(tree.parent(t).has_value()) << where();
      continue;
    }
    ASSERT_TRUE(tree.reached(t)) << where();
    EXPECT_TRUE(near_cost(tree.distance(t), dist[v])) << where() << ": " << tree.distance(t) << " vs " << dist[v];
    if (t == source) continue;
    ASSERT_TRUE(tree.parent(t).has_value()) << where();
    const VertexId p = *tree.parent(t);
    Cost cheapest = infinite_cost;
    graph.for_each_successor(p, [&](VertexId head, Cost w) {
      if (head == t) cheapest = std::min(cheapest, w);
    });
    EXPECT_EQ(tree.distance(p) + cheapest, tree.distance(t)) << where();
  }
}

/// Every algorithm of shortest_paths.hpp on one graph, sharing the reversed graph and scratch.
struct AllAlgorithms {
  explicit AllAlgorithms(const Graph& g)
      : graph(g),
        graphs(g),
        by_key(graphs, {}, BidirectionalOptions{.alternation = Alternation::smaller_key}),
        by_frontier(graphs),
        tree(g) {}

  /// Bidirectional (both alternations) and, with a table, the table, for one pair.
  void check_pair(const CheapestArcs& arcs, const RouteTable* table, VertexId s, VertexId t, Cost expected) {
    expect_answer("bidirectional (key)", solve(by_key, s, t), by_key.path(), arcs, s, t, expected);
    expect_answer("bidirectional (frontier)", solve(by_frontier, s, t), by_frontier.path(), arcs, s, t, expected);
    if (table != nullptr) {
      expect_answer("route table", table->route(s, t, path), path, arcs, s, t, expected);
      const Cost d = table->distance(s, t);
      EXPECT_TRUE(expected == infinite_cost ? d == infinite_cost : near_cost(d, expected)) << d << " vs " << expected;
    }
  }

  const Graph& graph;
  BidirectionalGraph graphs;
  BidirectionalDijkstra<> by_key;
  BidirectionalDijkstra<> by_frontier;
  graph::ShortestPathTree tree;
  Path<VertexId> path;
};

TEST(GraphRoutesRandom, TreeBidirectionalAndTableMatchBoost) {
  constexpr unsigned first_seed = 7000;  // apart from the seeds of differential_test.cpp
  constexpr unsigned graphs = 240;
  constexpr std::size_t max_sources = 10;
  constexpr std::size_t max_targets = 20;
  constexpr Coordinates kinds[] = {Coordinates::none, Coordinates::xy, Coordinates::xyz};
  std::size_t pairs = 0, unreachable = 0, self_loops = 0, zero_weights = 0;
  for (unsigned seed = first_seed; seed < first_seed + graphs; ++seed) {
    std::mt19937 rng(seed);
    const EdgeList list = test::random_edge_list(rng, kinds[seed % 3]);
    const Graph graph = test::build_graph(list);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << list.vertices << " vertices, "
                                      << list.edges.size() << " edges");
    for (const test::RawEdge& e : list.edges) {
      self_loops += e.from == e.to ? 1 : 0;
      zero_weights += e.weight == 0 ? 1 : 0;
    }
    const BoostReference boost_ref(list);
    const CheapestArcs arcs(list);
    AllAlgorithms all(graph);
    const RouteTable table(graph);
    ASSERT_EQ(table.memory_bytes(), list.vertices * list.vertices * 4);

    std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(list.vertices - 1));
    const std::size_t sources = std::min(max_sources, list.vertices);
    for (std::size_t i = 0; i < sources; ++i) {
      const VertexId s{list.vertices <= max_sources ? static_cast<std::uint32_t>(i) : vertex(rng)};
      const std::vector<Cost> dist = boost_ref.distances(s.value);
      ASSERT_TRUE(all.tree.compute(s).succeeded());
      expect_tree_matches(all.tree, s, graph, dist);
      const std::size_t targets = std::min(max_targets, list.vertices);
      for (std::size_t j = 0; j < targets; ++j) {
        const VertexId t{list.vertices <= max_targets ? static_cast<std::uint32_t>(j) : vertex(rng)};
        ++pairs;
        unreachable += dist[t.value] == infinite_cost ? 1 : 0;
        expect_answer("tree", all.tree.path_to(t, all.path), all.path, arcs, s, t, dist[t.value]);
        all.check_pair(arcs, &table, s, t, dist[t.value]);
      }
    }
  }
  ::testing::Test::RecordProperty("pairs", static_cast<int>(pairs));
  ::testing::Test::RecordProperty("unreachable", static_cast<int>(unreachable));
  // The generator must really produce the edge cases it promises.
  EXPECT_GE(pairs, 35000u);
  EXPECT_GT(unreachable, pairs / 20);
  EXPECT_GT(pairs - unreachable, pairs * 2 / 5);
  EXPECT_GT(self_loops, 100u);
  EXPECT_GT(zero_weights, 100u);
}

// ---------------------------------------------------------------------------------------------
// Road networks

// 1000 pairs per graph; the trees are checked for every vertex from each source.
constexpr int road_sources = 25;
constexpr int road_targets_per_source = 40;

struct RoadGraph {
  EdgeList list;  ///< read by the tests' own reader
  LoadedGraph loaded;
};

const RoadGraph& rome99() {
  static const RoadGraph g = [] {
    const std::string path = test::data_dir + "/roads/rome99.gr";
    return RoadGraph{test::read_dimacs_arcs_plainly(path), load_dimacs_graph(path)};
  }();
  return g;
}

const RoadGraph& oldenburg() {
  static const RoadGraph g = [] {
    const std::string nodes = test::data_dir + "/roads/OL.cnode.txt";
    const std::string edges = test::data_dir + "/roads/OL.cedge.txt";
    return RoadGraph{test::read_node_edge_lists_plainly(nodes, edges), load_node_edge_lists(nodes, edges)};
  }();
  return g;
}

/// Built once, shared by the road and file tests (about a second in a release build).
const RouteTable& rome99_table() {
  static const RouteTable table(rome99().loaded.graph);
  return table;
}

/// The tree against Boost for every vertex from 25 sources, and 1000 pairs for the
/// bidirectional searches and (when given) the table. Returns the expansions of the default
/// bidirectional search and a lower bound on one-to-one Dijkstra's over the reachable pairs
/// (the vertices nearer than the target).
std::pair<std::uint64_t, std::uint64_t> check_road_graph(const RoadGraph& road, const RouteTable* table) {
  const Graph& graph = road.loaded.graph;
  EXPECT_EQ(graph.node_count(), road.list.vertices);
  EXPECT_EQ(graph.arc_count(), road.list.arc_count());
  const BoostReference boost_ref(road.list);
  const CheapestArcs arcs(road.list);
  AllAlgorithms all(graph);
  std::uint64_t bidirectional_expanded = 0, dijkstra_expanded = 0;
  std::size_t reachable = 0;
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(graph.node_count() - 1));
  for (int i = 0; i < road_sources; ++i) {
    const VertexId s{vertex(rng)};
    const std::vector<Cost> dist = boost_ref.distances(s.value);
    EXPECT_TRUE(all.tree.compute(s).succeeded());
    expect_tree_matches(all.tree, s, graph, dist);
    for (int j = 0; j < road_targets_per_source; ++j) {
      const VertexId t{vertex(rng)};
      reachable += dist[t.value] == infinite_cost ? 0 : 1;
      expect_answer("tree", all.tree.path_to(t, all.path), all.path, arcs, s, t, dist[t.value]);
      all.check_pair(arcs, table, s, t, dist[t.value]);
      if (dist[t.value] != infinite_cost) bidirectional_expanded += all.by_frontier.stats().expanded;
      EXPECT_EQ(all.by_frontier.stats().expanded,
                all.by_frontier.forward_expanded() + all.by_frontier.backward_expanded());
      // One-to-one Dijkstra settles at least every vertex nearer than t before stopping.
      if (dist[t.value] != infinite_cost)
        dijkstra_expanded += static_cast<std::uint64_t>(
            std::count_if(dist.begin(), dist.end(), [&](Cost d) { return d < dist[t.value]; }));
    }
  }
  EXPECT_GT(reachable, std::size_t{road_sources * road_targets_per_source} * 9 / 10);
  ::testing::Test::RecordProperty("bidirectional_expanded", static_cast<int>(bidirectional_expanded));
  ::testing::Test::RecordProperty("dijkstra_expanded_at_least", static_cast<int>(dijkstra_expanded));
  return {bidirectional_expanded, dijkstra_expanded};
}

TEST(GraphRoutesRoads, Rome99MatchesBoost) {
  const RouteTable& table = rome99_table();
  EXPECT_EQ(table.memory_bytes(), std::size_t{3353} * 3353 * 4);
  const auto [bidirectional, dijkstra] = check_road_graph(rome99(), &table);
  EXPECT_LT(bidirectional * 3, dijkstra * 2);  // measured: 48%
}

TEST(GraphRoutesRoads, OldenburgMatchesBoost) {
  // Under AddressSanitizer the Oldenburg route table (6,105 Dijkstra searches, 149 MB) takes
  // too long; the sanitizer build checks route tables on Rome99 and the random graphs only.
  std::optional<RouteTable> built;
  if (!test::sanitized) {
    built.emplace(oldenburg().loaded.graph);
    EXPECT_EQ(built->memory_bytes(), std::size_t{6105} * 6105 * 4);
  }
  const RouteTable* table = built ? &*built : nullptr;
  const auto [bidirectional, dijkstra] = check_road_graph(oldenburg(), table);
  // Two balls of half the radius on a planar network: about half the work (measured: 55%).
  EXPECT_LT(bidirectional * 3, dijkstra * 2);
}

// ---------------------------------------------------------------------------------------------
// Corner cases on hand-made graphs

Graph graph_of(std::size_t vertices, std::initializer_list<test::RawEdge> edges) {
  EdgeList list;
  list.vertices = vertices;
  list.edges = edges;
  return test::build_graph(list);
}

TEST(GraphRoutesCorners, SourceEqualsTargetIsTheOneVertexPath) {
  const Graph g = graph_of(3, {{0, 0, 2.0, false}, {0, 0, 0.0, false}, {0, 1, 1.0, true}});
  AllAlgorithms all(g);
  const RouteTable table(g);
  for (std::uint32_t v = 0; v < 3; ++v) {
    const VertexId s{v};
    ASSERT_TRUE(solve(all.by_key, s, s).succeeded());
    EXPECT_EQ(all.by_key.path().nodes, std::vector<VertexId>{s});
    EXPECT_EQ(all.by_key.path().cost, 0);
    EXPECT_EQ(all.by_key.stats().expanded, 0u);
    ASSERT_TRUE(table.route(s, s, all.path).succeeded());
    EXPECT_EQ(all.path.nodes, std::vector<VertexId>{s});
    EXPECT_EQ(all.path.cost, 0);
    EXPECT_EQ(table.first_arc(s, s), RouteTable::no_arc);
    ASSERT_TRUE(all.tree.compute(s).succeeded());
    ASSERT_TRUE(all.tree.path_to(s, all.path).succeeded());
    EXPECT_EQ(all.path.nodes, std::vector<VertexId>{s});
    EXPECT_EQ(all.path.cost, 0);
  }
}

TEST(GraphRoutesCorners, UnreachableAndInvalidIdsFail) {
  // 0 → 1 one way, 2 isolated.
  const Graph g = graph_of(3, {{0, 1, 1.0, false}});
  AllAlgorithms all(g);
  const RouteTable table(g);
  const VertexId v0{0}, v1{1}, v2{2}, outside{3};
  EXPECT_TRUE(solve(all.by_key, v0, v1).succeeded());
  for (const auto& [s, t] : {std::pair{v1, v0}, {v0, v2}, {v2, v0}, {outside, v0}, {v0, outside},
                             {VertexId::invalid(), v0}}) {
    SCOPED_TRACE(::testing::Message() << s.value << " -> " << t.value);
    EXPECT_TRUE(solve(all.by_key, s, t).failed());
    EXPECT_TRUE(all.by_key.path().empty());
    EXPECT_EQ(all.by_key.forward_expanded() + all.by_key.backward_expanded(), all.by_key.stats().expanded);
    EXPECT_TRUE(solve(all.by_frontier, s, t).failed());
    EXPECT_TRUE(table.route(s, t, all.path).failed());
    EXPECT_TRUE(all.path.empty());
    EXPECT_EQ(table.distance(s, t), infinite_cost);
    EXPECT_EQ(table.first_arc(s, t), RouteTable::no_arc);
  }
  graph::ShortestPathTree fresh(g);
  EXPECT_EQ(fresh.status().state, SearchState::not_started);
  EXPECT_TRUE(fresh.path_to(v0, all.path).failed());
  EXPECT_FALSE(fresh.reached(v0));
  EXPECT_TRUE(fresh.compute(outside).failed());
  EXPECT_FALSE(fresh.reached(v0));
  ASSERT_TRUE(fresh.compute(v1).succeeded());
  EXPECT_TRUE(fresh.path_to(v0, all.path).failed());
  EXPECT_TRUE(fresh.path_to(outside, all.path).failed());
  EXPECT_EQ(fresh.distance(outside), infinite_cost);
  EXPECT_EQ(fresh.stats().expanded, 1u);
}

TEST(GraphRoutesCorners, ParallelArcsUseTheCheapest) {
  // Two arcs 0 → 1 (5, then 2), 1 → 2 (1), and a direct 0 → 2 (4): the best is 0, 1, 2 at 3.
  const Graph g = graph_of(3, {{0, 1, 5.0, false}, {0, 1, 2.0, false}, {1, 2, 1.0, false}, {0, 2, 4.0, false}});
  AllAlgorithms all(g);
  const RouteTable table(g);
  const VertexId s{0}, t{2};
  const std::vector<VertexId> expected{VertexId{0}, VertexId{1}, VertexId{2}};
  EXPECT_EQ(table.first_arc(s, t), 1u);
  ASSERT_TRUE(table.route(s, t, all.path).succeeded());
  EXPECT_EQ(all.path.nodes, expected);
  EXPECT_EQ(all.path.cost, 3);
  ASSERT_TRUE(solve(all.by_key, s, t).succeeded());
  EXPECT_EQ(all.by_key.path().nodes, expected);
  EXPECT_EQ(all.by_key.path().cost, 3);
  ASSERT_TRUE(all.tree.compute(s).succeeded());
  ASSERT_TRUE(all.tree.path_to(t, all.path).succeeded());
  EXPECT_EQ(all.path.nodes, expected);
  EXPECT_EQ(all.path.cost, 3);
}

TEST(GraphRoutesCorners, ZeroWeightArcsAndCycles) {
  // A zero-weight cycle 0 → 1 → 2 → 0, a zero-weight self-loop, and 2 → 3 at 0.
  const Graph g = graph_of(5, {{0, 1, 0.0, false}, {1, 2, 0.0, false}, {2, 0, 0.0, false}, {1, 1, 0.0, false},
                               {2, 3, 0.0, false}, {3, 4, 1.5, false}});
  AllAlgorithms all(g);
  const RouteTable table(g);
  ASSERT_TRUE(solve(all.by_key, VertexId{1}, VertexId{0}).succeeded());
  EXPECT_EQ(all.by_key.path().cost, 0);
  EXPECT_EQ(all.by_key.path().nodes, (std::vector<VertexId>{VertexId{1}, VertexId{2}, VertexId{0}}));
  ASSERT_TRUE(table.route(VertexId{0}, VertexId{4}, all.path).succeeded());
  EXPECT_EQ(all.path.cost, 1.5);
  EXPECT_EQ(all.path.nodes.size(), 5u);
  EXPECT_TRUE(solve(all.by_key, VertexId{4}, VertexId{0}).failed());
}

TEST(GraphRoutesCorners, EmptyGraph) {
  const Graph g;
  const RouteTable table(g);
  EXPECT_EQ(table.memory_bytes(), 0u);
  Path<VertexId> path;
  EXPECT_TRUE(table.route(VertexId{0}, VertexId{0}, path).failed());
  AllAlgorithms all(g);
  EXPECT_TRUE(solve(all.by_key, VertexId{0}, VertexId{0}).failed());
  EXPECT_TRUE(all.tree.compute(VertexId{0}).failed());
}

TEST(GraphRoutesCorners, RouteTableRefusesLargeGraphs) {
  const Graph big = GraphBuilder(RouteTable::max_vertices + 1).build();
  EXPECT_THROW(RouteTable{big}, BuildError);
}

TEST(GraphRoutesBidirectional, SteppingCancelAndReuse) {
  const Graph& graph = rome99().loaded.graph;
  const BidirectionalGraph graphs(graph);
  BidirectionalDijkstra once(graphs), stepped(graphs);
  const VertexId s{17}, t{2900};
  ASSERT_TRUE(solve(once, s, t).succeeded());
  stepped.begin(s, t);
  std::size_t steps = 0;
  while (stepped.step(1).running()) ++steps;
  ASSERT_TRUE(stepped.status().succeeded());
  EXPECT_EQ(stepped.path().nodes, once.path().nodes);
  EXPECT_EQ(stepped.path().cost, once.path().cost);
  EXPECT_EQ(stepped.stats().expanded, once.stats().expanded);
  EXPECT_GE(steps, once.stats().expanded);
  EXPECT_GT(once.stats().generated, 0u);
  EXPECT_GT(once.stats().max_open_size, 0u);

  stepped.begin(s, t);
  EXPECT_TRUE(stepped.step(10).running());
  stepped.cancel();
  const Status cancelled = stepped.step();
  EXPECT_TRUE(cancelled.failed());
  EXPECT_TRUE(cancelled.has(StatusDetail::cancelled));
  EXPECT_TRUE(stepped.path().empty());
  // A new query after a cancelled one starts clean.
  ASSERT_TRUE(solve(stepped, s, t).succeeded());
  EXPECT_EQ(stepped.path().nodes, once.path().nodes);
}

// ---------------------------------------------------------------------------------------------
// Route-table files

std::string temp_file(const std::string& name) { return ::testing::TempDir() + "/waymark_routes_" + name; }

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The reason of the LoadError that loading `path` for `graph` throws ("" if none).
std::string load_error(const std::string& path, const Graph& graph) {
  try {
    (void)RouteTable::load(path, graph);
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0u);
    return e.reason();
  }
  return "";
}

TEST(GraphRoutesFile, RoundTripGivesIdenticalAnswers) {
  const Graph& graph = rome99().loaded.graph;
  const RouteTable& built = rome99_table();
  const std::string file = temp_file("rome99.wmr");
  built.save(file);
  EXPECT_EQ(std::filesystem::file_size(file), 48 + built.memory_bytes());
  const RouteTable loaded = RouteTable::load(file, graph);
  ASSERT_EQ(loaded.memory_bytes(), built.memory_bytes());
  const std::size_t n = graph.node_count();
  std::size_t differences = 0;
  for (std::uint32_t t = 0; t < n; ++t) {
    for (std::uint32_t s = 0; s < n; ++s) {
      differences += built.first_arc(VertexId{s}, VertexId{t}) != loaded.first_arc(VertexId{s}, VertexId{t}) ? 1 : 0;
    }
  }
  EXPECT_EQ(differences, 0u);
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(n - 1));
  Path<VertexId> a, b;
  for (int i = 0; i < 1000; ++i) {
    const VertexId s{vertex(rng)}, t{vertex(rng)};
    EXPECT_EQ(built.route(s, t, a), loaded.route(s, t, b));
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.cost, b.cost);
  }
  std::filesystem::remove(file);
}

TEST(GraphRoutesFile, BadFilesAreRejectedWithLoadError) {
  constexpr std::size_t header_bytes = 40;
  std::mt19937 rng(11);
  test::EdgeList list = test::random_edge_list(rng, Coordinates::none);
  while (list.vertices < 10) list = test::random_edge_list(rng, Coordinates::none);
  const Graph graph = test::build_graph(list);
  const RouteTable table(graph);
  const std::string file = temp_file("random.wmr");
  table.save(file);
  EXPECT_EQ(load_error(file, graph), "");
  const std::vector<char> good = read_bytes(file);
  ASSERT_EQ(good.size(), header_bytes + table.memory_bytes() + test::checksum_bytes);
  const std::string bad = temp_file("bad.wmr");

  EXPECT_NE(load_error(temp_file("does_not_exist.wmr"), graph), "");

  // Another graph: other weights (same counts), other counts.
  test::EdgeList reweighted = list;
  reweighted.edges.front().weight += 1;
  EXPECT_NE(load_error(file, test::build_graph(reweighted)).find("different graph"), std::string::npos);
  test::EdgeList more = list;
  more.edges.push_back({0, 0, 1.0, false});
  EXPECT_NE(load_error(file, test::build_graph(more)).find("arcs"), std::string::npos);
  test::EdgeList bigger = list;
  ++bigger.vertices;
  EXPECT_NE(load_error(file, test::build_graph(bigger)).find("vertices"), std::string::npos);

  // Truncated anywhere: empty, inside the magic, inside the header, inside the entries.
  for (const std::size_t size : {std::size_t{0}, std::size_t{5}, std::size_t{8}, header_bytes - 1, header_bytes,
                                 header_bytes + 3, good.size() - 1}) {
    SCOPED_TRACE(::testing::Message() << "truncated to " << size);
    write_bytes(bad, std::vector<char>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)));
    EXPECT_NE(load_error(bad, graph), "");
  }
  std::vector<char> longer = good;
  longer.push_back(0);
  write_bytes(bad, longer);
  EXPECT_NE(load_error(bad, graph).find("data after the checksum"), std::string::npos);

  write_bytes(bad, test::forge(good, 0, "X", 1));
  EXPECT_NE(load_error(bad, graph).find("not a waymark route table"), std::string::npos);
  write_bytes(bad, std::vector<char>{'n', 'o', 't', ' ', 'a', ' ', 't', 'a', 'b', 'l', 'e'});
  EXPECT_NE(load_error(bad, graph).find("truncated file (in the header)"), std::string::npos);

  const std::uint32_t old_version = 1;
  write_bytes(bad, test::forge(good, 8, &old_version, sizeof old_version));
  EXPECT_NE(load_error(bad, graph).find("version"), std::string::npos);

  std::vector<char> flipped = good;
  flipped[header_bytes + 4 * 7 + 1] ^= 0x10;
  write_bytes(bad, flipped);
  EXPECT_NE(load_error(bad, graph).find("checksum"), std::string::npos);

  // A forged entry that passes the checksum but names an arc its source does not have.
  const std::uint32_t out_of_range = static_cast<std::uint32_t>(graph.arc_count());
  write_bytes(bad, test::forge(good, header_bytes + 4, &out_of_range, 4));  // target 0, source 1
  EXPECT_NE(load_error(bad, graph).find("corrupt entry"), std::string::npos);

  std::filesystem::remove(file);
  std::filesystem::remove(bad);
}

TEST(GraphRoutesFile, ForgedEntriesThatAreNotShortestPathsAreRefused) {
  // 0 ⇄ 1 (weight 1), 1 → 2 (1), 0 → 2 (5): vertex 0's arcs are 0 → 1, 0 → 2; 1's are 1 → 0, 1 → 2.
  const Graph g = graph_of(3, {{0, 1, 1.0, true}, {1, 2, 1.0, false}, {0, 2, 5.0, false}});
  const RouteTable table(g);
  const std::string file = temp_file("forged.wmr");
  table.save(file);
  const std::vector<char> good = read_bytes(file);
  constexpr std::size_t header_bytes = 40;
  const std::size_t row2 = header_bytes + 4 * 3 * 2;  // target 2
  struct Forgery {
    std::size_t at;
    std::uint32_t entry;
  };
  for (const Forgery f : {Forgery{row2 + 4 * 1, 0},                  // 1 → 0 → 1 …: a cycle
                          Forgery{row2 + 4 * 0, 1},                  // 0 → 2 directly: 5 instead of 2
                          Forgery{row2 + 4 * 0, RouteTable::no_arc}}) {  // 0 told it cannot reach 2
    SCOPED_TRACE(::testing::Message() << "entry " << f.entry << " at byte " << f.at);
    write_bytes(file, test::forge(good, f.at, &f.entry, sizeof f.entry));
    EXPECT_NE(load_error(file, g).find("the entries toward target 2 are not shortest paths"), std::string::npos)
        << load_error(file, g);
  }
  write_bytes(file, good);
  EXPECT_EQ(load_error(file, g), "");
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace waymark::graph_routes_test
