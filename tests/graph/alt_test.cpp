// ALT (landmarks + A*) against Boost Graph's dijkstra_shortest_paths: seeded random graphs with
// every edge case, the two bundled road networks, extreme weights, and the landmark file format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "support/forge.hpp"
#include "support/random_graph.hpp"
#include "support/random_grid.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/graph/landmarks.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/search/best_first.hpp"

namespace waymark::graph_alt_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

using test::BoostReference;
using test::CheapestArcs;
using test::EdgeList;
using Alt = AStar<Graph, LandmarkHeuristic>;

static_assert(Heuristic<LandmarkHeuristic, VertexId>);
static_assert(std::is_trivially_copyable_v<LandmarkHeuristic> && sizeof(LandmarkHeuristic) == sizeof(void*),
              "the heuristic is a pointer: cheap to copy into every search");

/// One ALT (or Dijkstra) answer against the reference distance; returns the expansions.
template <class Search>
std::uint64_t expect_optimal(Search& search, const CheapestArcs& arcs, VertexId start, VertexId goal, Cost expected) {
  const Status st = solve(search, start, goal);
  SCOPED_TRACE(::testing::Message() << "start " << start.value << " goal " << goal.value);
  if (expected == infinite_cost) {
    EXPECT_TRUE(st.failed());
    EXPECT_TRUE(search.path().empty());
  } else {
    EXPECT_TRUE(st.succeeded());
    EXPECT_NEAR(search.path().cost, expected, test::cost_tolerance(expected));
    EXPECT_TRUE(arcs.is_valid_path(search.path(), start, goal));
  }
  return search.stats().expanded;
}

/// h(start, v) ≤ d(start, v) for every vertex v (∞ only where v is unreachable); returns how
/// many pairs got h = ∞.
std::size_t expect_admissible_from(const Landmarks& landmarks, VertexId start, const std::vector<Cost>& dist) {
  std::size_t infinite = 0;
  for (std::uint32_t v = 0; v < dist.size(); ++v) {
    const Cost h = landmarks.lower_bound(start, VertexId{v});
    EXPECT_GE(h, 0);
    EXPECT_LE(h, dist[v]) << "inadmissible: start " << start.value << " goal " << v;
    infinite += h == infinite_cost ? 1 : 0;
  }
  return infinite;
}

/// The same graph with every arc turned around.
EdgeList reversed(EdgeList list) {
  for (test::RawEdge& e : list.edges) std::swap(e.from, e.to);
  return list;
}

/// The same graph with every edge two-way (the distances landmark selection uses).
EdgeList undirected(EdgeList list) {
  for (test::RawEdge& e : list.edges) e.undirected = true;
  return list;
}

/// Weakly connected component of every vertex (union-find on the edge list) and whether it
/// has at least two vertices.
struct Components {
  std::vector<std::uint32_t> root;
  std::vector<std::size_t> size;

  explicit Components(const EdgeList& list) : root(list.vertices), size(list.vertices, 1) {
    std::iota(root.begin(), root.end(), 0u);
    for (const test::RawEdge& e : list.edges) {
      const std::uint32_t a = find(e.from), b = find(e.to);
      if (a != b) {
        root[b] = a;
        size[a] += size[b];
      }
    }
    for (std::uint32_t v = 0; v < root.size(); ++v) root[v] = find(v);
  }
  std::uint32_t find(std::uint32_t v) {
    while (root[v] != v) v = root[v] = root[root[v]];
    return v;
  }
  [[nodiscard]] bool has_edges(std::uint32_t v) const { return size[root[v]] >= 2; }
};

/// Stored distances equal Boost's from and to each landmark, up to float rounding.
void expect_tables_match(const Landmarks& landmarks, const EdgeList& list) {
  const BoostReference forward(list), backward(reversed(list));
  for (std::size_t i = 0; i < landmarks.count(); ++i) {
    const std::uint32_t l = landmarks.vertices()[i].value;
    const std::vector<Cost> from = forward.distances(l), to = backward.distances(l);
    for (std::uint32_t v = 0; v < list.vertices; ++v) {
      const Cost f = landmarks.forward_distance(i, VertexId{v}), b = landmarks.backward_distance(i, VertexId{v});
      const Cost tolerance = 0x1p-23;
      if (from[v] == infinite_cost) {
        EXPECT_EQ(f, infinite_cost);
      } else {
        EXPECT_NEAR(f, from[v], tolerance * from[v]) << "d(" << l << ", " << v << ")";
      }
      if (to[v] == infinite_cost) {
        EXPECT_EQ(b, infinite_cost);
      } else {
        EXPECT_NEAR(b, to[v], tolerance * to[v]) << "d(" << v << ", " << l << ")";
      }
    }
  }
}

/// The selection rules: distinct landmarks on vertices with edges, one in every component
/// when there are enough, and stopping early only when nothing is left to gain.
void expect_sound_selection(const Landmarks& landmarks, const EdgeList& list, std::size_t asked) {
  Components components(list);
  std::vector<bool> chosen(list.vertices, false), component_has_one(list.vertices, false);
  for (const VertexId l : landmarks.vertices()) {
    ASSERT_LT(l.value, list.vertices);
    EXPECT_FALSE(chosen[l.value]) << "landmark " << l.value << " chosen twice";
    EXPECT_TRUE(components.has_edges(l.value)) << "landmark " << l.value << " is isolated";
    chosen[l.value] = true;
    component_has_one[components.root[l.value]] = true;
  }
  EXPECT_LE(landmarks.count(), asked);
  std::size_t with_edges = 0;
  for (std::uint32_t v = 0; v < list.vertices; ++v) with_edges += components.root[v] == v && components.has_edges(v) ? 1 : 0;
  if (asked >= with_edges) {
    for (std::uint32_t v = 0; v < list.vertices; ++v)
      EXPECT_TRUE(!components.has_edges(v) || component_has_one[components.root[v]]) << "vertex " << v << " has no landmark";
  }
  if (landmarks.count() < asked) {  // stopped early: every vertex with edges is at distance 0 from the set
    const BoostReference symmetric(undirected(list));
    std::vector<Cost> cover(list.vertices, infinite_cost);
    for (const VertexId l : landmarks.vertices()) {
      const std::vector<Cost> d = symmetric.distances(l.value);
      for (std::uint32_t v = 0; v < list.vertices; ++v) cover[v] = std::min(cover[v], d[v]);
    }
    for (std::uint32_t v = 0; v < list.vertices; ++v) {
      if (components.has_edges(v)) {
        EXPECT_EQ(cover[v], 0) << "vertex " << v << " was still worth a landmark";
      }
    }
  }
}

TEST(GraphAltRandom, MatchesBoostOnSeededRandomGraphs) {
  constexpr int graphs = 300;
  constexpr int sources_per_graph = 5;
  constexpr std::size_t max_targets = 20;
  constexpr std::size_t counts[] = {1, 2, 3, LandmarkParams::default_count};  // fewer and more than components
  constexpr Coordinates kinds[] = {Coordinates::none, Coordinates::xy, Coordinates::xyz};
  constexpr unsigned seed_base = 7000;  // other graphs than the Dijkstra/A* differential test
  std::size_t pairs = 0, unreachable = 0, infinite_h = 0, stopped_early = 0;
  for (int seed = 0; seed < graphs; ++seed) {
    std::mt19937 rng(seed_base + static_cast<unsigned>(seed));
    const EdgeList list = test::random_edge_list(rng, kinds[seed % 3]);
    const Graph graph = test::build_graph(list);
    const std::size_t asked = counts[static_cast<std::size_t>(seed / 3) % std::size(counts)];
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << list.vertices << " vertices, " << list.edges.size()
                                      << " edges, " << asked << " landmarks asked");
    const Landmarks landmarks(graph, {.count = asked});
    stopped_early += landmarks.count() < asked ? 1 : 0;
    expect_sound_selection(landmarks, list, asked);
    expect_tables_match(landmarks, list);
    EXPECT_TRUE(landmarks.matches(graph));
    EXPECT_EQ(landmarks.memory_bytes(), list.vertices * landmarks.count() * 8 + landmarks.count() * 4);

    const BoostReference boost_ref(list);
    const CheapestArcs arcs(list);
    Alt alt(graph, LandmarkHeuristic(landmarks));
    const test::PairCounts sampled = test::sample_pairs(
        list, boost_ref, rng, sources_per_graph, max_targets,
        [&](VertexId start, const std::vector<Cost>& dist) { infinite_h += expect_admissible_from(landmarks, start, dist); },
        [&](VertexId start, VertexId goal, Cost expected) { expect_optimal(alt, arcs, start, goal, expected); });
    pairs += sampled.pairs;
    unreachable += sampled.unreachable;
  }
  // The edge cases must really occur: unreachable goals, bounds that prove it, early stops.
  ::testing::Test::RecordProperty("pairs", std::to_string(pairs));
  ::testing::Test::RecordProperty("unreachable", std::to_string(unreachable));
  ::testing::Test::RecordProperty("infinite_h", std::to_string(infinite_h));
  ::testing::Test::RecordProperty("stopped_early", std::to_string(stopped_early));
  EXPECT_GT(unreachable, pairs / 20);
  EXPECT_GT(pairs - unreachable, pairs * 2 / 5);
  EXPECT_GT(infinite_h, 1000u);
  EXPECT_GT(stopped_early, 5u);
}

// ---------------------------------------------------------------------------------------------
// Road networks.

struct RoadRun {
  std::uint64_t alt_expanded = 0;
  std::uint64_t dijkstra_expanded = 0;
  std::size_t reachable = 0;
};

/// 100 random starts × 10 random goals: ALT and Dijkstra against Boost, the paths, and h on every
/// (start, vertex) pair.
RoadRun check_road_graph(const EdgeList& list, const Graph& graph, const Landmarks& landmarks) {
  constexpr int sources = 100;
  constexpr int targets_per_source = 10;
  constexpr unsigned seed = 20240612;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(list.vertices - 1));
  const BoostReference boost_ref(list);
  const CheapestArcs arcs(list);
  Alt alt(graph, LandmarkHeuristic(landmarks));
  Dijkstra<Graph> dijkstra(graph);
  RoadRun run;
  for (int s = 0; s < sources; ++s) {
    const VertexId start{vertex(rng)};
    const std::vector<Cost> dist = boost_ref.distances(start.value);
    expect_admissible_from(landmarks, start, dist);
    for (int t = 0; t < targets_per_source; ++t) {
      const VertexId goal{vertex(rng)};
      run.reachable += dist[goal.value] == infinite_cost ? 0 : 1;
      run.alt_expanded += expect_optimal(alt, arcs, start, goal, dist[goal.value]);
      run.dijkstra_expanded += expect_optimal(dijkstra, arcs, start, goal, dist[goal.value]);
    }
  }
  ::testing::Test::RecordProperty("alt_expanded", std::to_string(run.alt_expanded));
  ::testing::Test::RecordProperty("dijkstra_expanded", std::to_string(run.dijkstra_expanded));
  ::testing::Test::RecordProperty("preprocessing_ms", std::to_string(landmarks.preprocessing_seconds() * 1e3));
  ::testing::Test::RecordProperty("memory_bytes", std::to_string(landmarks.memory_bytes()));
  return run;
}

TEST(GraphAltRoads, Rome99MatchesBoostAndSavesWork) {
  const std::string path = test::data_dir + "/roads/rome99.gr";
  const EdgeList list = test::read_dimacs_arcs_plainly(path);
  const Graph graph = load_dimacs_graph(path).graph;
  ASSERT_EQ(graph.node_count(), list.vertices);
  ASSERT_EQ(graph.arc_count(), list.arc_count());
  const Landmarks landmarks(graph);
  ASSERT_EQ(landmarks.count(), LandmarkParams::default_count);
  EXPECT_EQ(landmarks.memory_bytes(), 3353u * 16 * 8 + 16 * 4);
  expect_tables_match(landmarks, list);
  const RoadRun run = check_road_graph(list, graph, landmarks);
  EXPECT_GT(run.reachable, 900u);
  // Measured: ALT expands 7.5% of what Dijkstra does (126,276 against 1,693,713).
  EXPECT_LT(run.alt_expanded * 8, run.dijkstra_expanded);
}

TEST(GraphAltRoads, OldenburgMatchesBoostAndSavesWork) {
  const std::string nodes = test::data_dir + "/roads/OL.cnode.txt";
  const std::string edges = test::data_dir + "/roads/OL.cedge.txt";
  const EdgeList list = test::read_node_edge_lists_plainly(nodes, edges);
  const Graph graph = load_node_edge_lists(nodes, edges).graph;
  ASSERT_EQ(graph.node_count(), list.vertices);
  ASSERT_EQ(graph.arc_count(), list.arc_count());
  const Landmarks landmarks(graph);
  ASSERT_EQ(landmarks.count(), LandmarkParams::default_count);
  expect_tables_match(landmarks, list);
  const RoadRun run = check_road_graph(list, graph, landmarks);
  EXPECT_EQ(run.reachable, 1000u);  // the network is connected
  // Measured: ALT expands 7.3% of what Dijkstra does (226,405 against 3,103,742).
  EXPECT_LT(run.alt_expanded * 8, run.dijkstra_expanded);
}

// ---------------------------------------------------------------------------------------------
// Small and extreme graphs.

TEST(GraphAltEdgeCases, TinyGraphsAndParameterLimits) {
  const Graph empty = GraphBuilder(0).build();
  EXPECT_EQ(Landmarks(empty).count(), 0u);
  EXPECT_EQ(Landmarks(empty).memory_bytes(), 0u);

  GraphBuilder loop(1);
  loop.add_edge(VertexId{0}, VertexId{0}, 3);
  const Graph loop_graph = loop.build();
  const Landmarks lone(loop_graph);
  EXPECT_EQ(lone.count(), 0u);  // a single vertex bounds nothing
  EXPECT_EQ(lone.lower_bound(VertexId{0}, VertexId{0}), 0);

  GraphBuilder zero(3);  // a component where every distance is 0: one landmark is all it takes
  zero.add_undirected_edge(VertexId{0}, VertexId{1}, 0);
  zero.add_undirected_edge(VertexId{1}, VertexId{2}, 0);
  const Graph g = zero.build();
  EXPECT_EQ(Landmarks(g).count(), 1u);

  EXPECT_THROW((void)Landmarks(g, {.count = 0}), BuildError);
  EXPECT_THROW((void)Landmarks(g, {.count = LandmarkParams::max_count + 1}), BuildError);
  EXPECT_NO_THROW((void)Landmarks(g, {.count = LandmarkParams::max_count}));
}

TEST(GraphAltEdgeCases, OneWayChainProvesUnreachability) {
  // 0 → 1 → 2, and 3 isolated.
  GraphBuilder b(4);
  b.add_edge(VertexId{0}, VertexId{1}, 2);
  b.add_edge(VertexId{1}, VertexId{2}, 5);
  const Graph graph = b.build();
  const Landmarks landmarks(graph);
  // Farthest from vertex 0 is 2; then the vertex farthest from {2} is 0; then 1 (distance 2).
  ASSERT_EQ(landmarks.count(), 3u);
  EXPECT_EQ(landmarks.vertices()[0], VertexId{2});
  EXPECT_EQ(landmarks.vertices()[1], VertexId{0});
  EXPECT_EQ(landmarks.vertices()[2], VertexId{1});
  EXPECT_EQ(landmarks.lower_bound(VertexId{2}, VertexId{0}), infinite_cost);  // d(2, L=0) = ∞, d(0, L=0) = 0
  EXPECT_EQ(landmarks.lower_bound(VertexId{1}, VertexId{0}), infinite_cost);
  // The isolated vertex: L = 0 reaches 0 but not 3, so 0 cannot reach 3 either (and back).
  EXPECT_EQ(landmarks.lower_bound(VertexId{0}, VertexId{3}), infinite_cost);
  EXPECT_EQ(landmarks.lower_bound(VertexId{3}, VertexId{0}), infinite_cost);
  // d(0, L=2) − d(2, L=2) = 7, less the rounding margin.
  EXPECT_LE(landmarks.lower_bound(VertexId{0}, VertexId{2}), 7);
  EXPECT_GT(landmarks.lower_bound(VertexId{0}, VertexId{2}), 7 * (1 - 2 * Landmarks::rounding_margin));
  EXPECT_LE(landmarks.lower_bound(VertexId{0}, VertexId{1}), 2);
  Alt alt(graph, LandmarkHeuristic(landmarks));
  EXPECT_TRUE(solve(alt, VertexId{2}, VertexId{0}).failed());
  EXPECT_TRUE(solve(alt, VertexId{0}, VertexId{3}).failed());
  ASSERT_TRUE(solve(alt, VertexId{0}, VertexId{2}).succeeded());
  EXPECT_EQ(alt.path().cost, 7);
}

TEST(GraphAltEdgeCases, ExtremeWeightsStayAdmissible) {
  // Distances beyond the float range, subnormal and tiny weights, zeros, one-way arcs.
  constexpr double weights[] = {0, 1e-320, 1e-44, 1e-300, 1e-30, 1, 3e38, 2e38, 1e300, 1e30};
  for (unsigned seed = 0; seed < 40; ++seed) {
    std::mt19937 rng(seed);
    EdgeList list;
    list.vertices = 12;
    std::uniform_int_distribution<std::uint32_t> vertex(0, 11);
    std::uniform_int_distribution<std::size_t> weight(0, std::size(weights) - 1);
    for (int e = 0; e < 24; ++e) list.edges.push_back({vertex(rng), vertex(rng), weights[weight(rng)], e % 3 == 0});
    const Graph graph = test::build_graph(list);
    const Landmarks landmarks(graph, {.count = 4});
    const BoostReference boost_ref(list);
    const CheapestArcs arcs(list);
    Alt alt(graph, LandmarkHeuristic(landmarks));
    for (std::uint32_t s = 0; s < list.vertices; ++s) {
      const std::vector<Cost> dist = boost_ref.distances(s);
      expect_admissible_from(landmarks, VertexId{s}, dist);
      for (std::uint32_t t = 0; t < list.vertices; ++t) {
        const Status st = solve(alt, VertexId{s}, VertexId{t});
        if (dist[t] == infinite_cost) {
          EXPECT_TRUE(st.failed());
        } else {
          ASSERT_TRUE(st.succeeded()) << "seed " << seed << " " << s << " -> " << t;
          EXPECT_NEAR(alt.path().cost, dist[t], test::relative_cost_eps * dist[t]) << "seed " << seed << " " << s << " -> " << t;
          EXPECT_TRUE(arcs.is_valid_path(alt.path(), VertexId{s}, VertexId{t}));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Files.

std::string bytes_of(const Landmarks& landmarks) {
  std::ostringstream out(std::ios::binary);
  landmarks.save(out);
  EXPECT_TRUE(out.good());
  return out.str();
}

/// The LoadError reason `bytes` get when loaded for `graph`; empty when they load.
std::string load_error(const std::string& bytes, const Graph& graph) {
  std::istringstream in(bytes, std::ios::binary);
  try {
    (void)Landmarks::load(in, "landmarks.bin", graph);
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "landmarks.bin");
    EXPECT_EQ(e.line(), 0u);
    return e.reason();
  }
  return {};
}

class GraphAltFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rome_ = new Graph(load_dimacs_graph(test::data_dir + "/roads/rome99.gr").graph);
    landmarks_ = new Landmarks(*rome_);
  }
  static void TearDownTestSuite() {
    delete landmarks_;
    delete rome_;
  }
  static Graph* rome_;
  static Landmarks* landmarks_;
};
Graph* GraphAltFiles::rome_ = nullptr;
Landmarks* GraphAltFiles::landmarks_ = nullptr;

void expect_same_table(const Landmarks& a, const Landmarks& b) {
  ASSERT_EQ(a.count(), b.count());
  ASSERT_EQ(a.node_count(), b.node_count());
  EXPECT_TRUE(std::equal(a.vertices().begin(), a.vertices().end(), b.vertices().begin()));
  EXPECT_EQ(a.graph_fingerprint(), b.graph_fingerprint());
  for (std::size_t i = 0; i < a.count(); ++i) {
    for (std::uint32_t v = 0; v < a.node_count(); ++v) {
      ASSERT_EQ(a.forward_distance(i, VertexId{v}), b.forward_distance(i, VertexId{v}));
      ASSERT_EQ(a.backward_distance(i, VertexId{v}), b.backward_distance(i, VertexId{v}));
    }
  }
  EXPECT_EQ(a.memory_bytes(), b.memory_bytes());
}

TEST_F(GraphAltFiles, RoundTripThroughAFile) {
  const std::string path = ::testing::TempDir() + "waymark_alt_rome99.bin";
  landmarks_->save(path);
  const Landmarks loaded = Landmarks::load(path, *rome_);
  std::remove(path.c_str());
  expect_same_table(*landmarks_, loaded);
  EXPECT_EQ(loaded.preprocessing_seconds(), 0);
  EXPECT_GT(landmarks_->preprocessing_seconds(), 0);
  EXPECT_TRUE(loaded.matches(*rome_));
  // Same bytes again: the format is deterministic.
  EXPECT_EQ(bytes_of(loaded), bytes_of(*landmarks_));
  // The header, ids, table and checksum, nothing else.
  EXPECT_EQ(bytes_of(loaded).size(), 40 + 16 * 4 + 3353u * 32 * 4 + 8);
}

TEST_F(GraphAltFiles, RoundTripOfEmptyAndRandomTables) {
  const Graph empty = GraphBuilder(0).build();
  const Landmarks none(empty);
  expect_same_table(none, [&] {
    std::istringstream in(bytes_of(none), std::ios::binary);
    return Landmarks::load(in, "empty", empty);
  }());
  std::mt19937 rng(99);
  const Graph graph = test::build_graph(test::random_edge_list(rng, Coordinates::none));
  const Landmarks some(graph, {.count = 5});
  std::istringstream in(bytes_of(some), std::ios::binary);
  expect_same_table(some, Landmarks::load(in, "random", graph));
}

TEST_F(GraphAltFiles, RefusesAnotherGraph) {
  const std::string bytes = bytes_of(*landmarks_);
  const LoadedGraph oldenburg =
      load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt");
  EXPECT_NE(load_error(bytes, oldenburg.graph).find("3353 vertices"), std::string::npos);

  // Same vertex and arc counts, one weight changed: only the fingerprint can tell.
  EdgeList list = test::read_dimacs_arcs_plainly(test::data_dir + "/roads/rome99.gr");
  list.edges[4321].weight += 1;
  const Graph changed = test::build_graph(list);
  ASSERT_EQ(changed.node_count(), rome_->node_count());
  ASSERT_EQ(changed.arc_count(), rome_->arc_count());
  EXPECT_FALSE(landmarks_->matches(changed));
  EXPECT_NE(load_error(bytes, changed).find("different graph"), std::string::npos);

  // The same arcs in the same order but no positions and a fresh build: accepted.
  const Graph same = test::build_graph(test::read_dimacs_arcs_plainly(test::data_dir + "/roads/rome99.gr"));
  EXPECT_EQ(load_error(bytes, same), "");
}

TEST_F(GraphAltFiles, RefusesBrokenFiles) {
  const std::string good = bytes_of(*landmarks_);
  ASSERT_EQ(load_error(good, *rome_), "");
  // Truncated anywhere: inside the magic, the header, the ids, the table, the checksum.
  for (const std::size_t length : {std::size_t{0}, std::size_t{5}, std::size_t{8}, std::size_t{20}, std::size_t{40},
                                   std::size_t{50}, std::size_t{104}, good.size() / 2, good.size() - 8,
                                   good.size() - 1}) {
    const std::string reason = load_error(good.substr(0, length), *rome_);
    EXPECT_NE(reason.find("truncated"), std::string::npos) << length << " bytes: " << reason;
  }
  std::string bad = good;
  bad[0] = 'X';
  EXPECT_EQ(load_error(bad, *rome_), "not a waymark landmark file");
  EXPECT_EQ(load_error("WMJPS+01 and then some more bytes than a header needs", *rome_), "not a waymark landmark file");

  bad = good;
  bad[8] = 2;  // version
  EXPECT_NE(load_error(bad, *rome_).find("version 2"), std::string::npos);

  bad = good;
  bad[12] = static_cast<char>(0xff);  // landmark count 255 + ...
  bad[13] = 1;                        // ... 256 = 511
  EXPECT_NE(load_error(bad, *rome_).find("511 landmarks"), std::string::npos);

  for (const std::size_t at : {std::size_t{50}, good.size() / 2, good.size() - 20, good.size() - 3}) {
    bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);  // one flipped bit in the ids, table or checksum
    EXPECT_NE(load_error(bad, *rome_).find("checksum"), std::string::npos) << "byte " << at;
  }

  EXPECT_NE(load_error(good + '\0', *rome_).find("data after the checksum"), std::string::npos);

  try {
    (void)Landmarks::load(::testing::TempDir() + "no/such/landmarks.bin", *rome_);
    ADD_FAILURE() << "loaded a missing file";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(e.reason(), "cannot open file");
  }
  EXPECT_THROW(landmarks_->save(::testing::TempDir() + "no/such/dir/landmarks.bin"), SaveError);
}

TEST_F(GraphAltFiles, ForgedDistancesAreRefused) {
  const std::string good = bytes_of(*landmarks_);
  const std::size_t k = landmarks_->count();
  constexpr std::size_t header_bytes = 40;
  const std::size_t table_at = header_bytes + 4 * k;
  // d(L, v) and d(v, L) of a vertex that is not a landmark, raised: with the checksum made to
  // match, only searching the distances again can tell.
  VertexId v{0};
  while (std::find(landmarks_->vertices().begin(), landmarks_->vertices().end(), v) != landmarks_->vertices().end())
    ++v.value;
  for (const std::size_t column : {std::size_t{0}, k}) {
    const std::size_t at = table_at + (std::size_t{v.value} * 2 * k + column) * sizeof(float);
    const float raised = static_cast<float>(column == 0 ? landmarks_->forward_distance(0, v)
                                                        : landmarks_->backward_distance(0, v)) * 2 + 1000;
    const std::string reason = load_error(test::forge(good, at, &raised, sizeof raised), *rome_);
    EXPECT_NE(reason.find("are not its shortest distances"), std::string::npos) << reason;
  }
  std::string resealed = good;
  test::reseal(resealed);
  EXPECT_EQ(load_error(resealed, *rome_), "");
}

}  // namespace
}  // namespace waymark::graph_alt_test
