// Contraction hierarchies: distances against Boost Graph's Dijkstra on the bundled road networks
// and on seeded random graphs with every edge case, unpacked paths checked arc by arc against
// the original graph, the hierarchy's invariants, and the binary file's error cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/forge.hpp"
#include "support/random_graph.hpp"
#include "support/random_grid.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/graph/ch_query.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/search/best_first.hpp"
#include "waymark/search/shortest_path_tree.hpp"

namespace waymark::graph_ch_test {
using namespace search;
using namespace graph;
using namespace io;
namespace {

using test::BoostReference;
using test::CheapestArcs;
using test::EdgeList;

/// One query's answer for start → goal against the reference distance.
void expect_ch_optimal(ChQuery& query, const CheapestArcs& arcs, VertexId start, VertexId goal, Cost expected) {
  const Status st = query.query(start, goal);
  SCOPED_TRACE(::testing::Message() << "start " << start.value << " goal " << goal.value);
  if (expected == infinite_cost) {
    EXPECT_TRUE(st.failed());
    EXPECT_EQ(query.distance(), infinite_cost);
    EXPECT_TRUE(query.path().empty());
    return;
  }
  ASSERT_TRUE(st.succeeded());
  EXPECT_NEAR(query.distance(), expected, test::cost_tolerance(expected));
  EXPECT_EQ(query.path().cost, query.distance());
  EXPECT_TRUE(arcs.is_valid_path(query.path(), start, goal));
}

/// Every arc leads to a higher rank, every shortcut's halves sit at a lower middle vertex and
/// add up to its weight (what load() validates, checked here on a freshly built hierarchy).
::testing::AssertionResult is_well_formed(const ContractionHierarchy& ch) {
  const auto n = static_cast<std::uint32_t>(ch.node_count());
  for (std::uint32_t r = 0; r < n; ++r) {
    if (ch.rank(ch.vertex_at(r)) != r) return ::testing::AssertionFailure() << "rank/vertex mismatch at " << r;
    for (const bool up : {true, false}) {
      const std::span<const ChArc> arcs = up ? ch.upward(r) : ch.downward(r);
      const std::uint32_t begin = up ? ch.upward_begin(r) : ch.downward_begin(r);
      for (std::uint32_t i = 0; i < arcs.size(); ++i) {
        const ChArc& a = arcs[i];
        if (a.head <= r || a.head >= n) return ::testing::AssertionFailure() << "arc from rank " << r << " not upward";
        if (a.middle == ChArc::no_middle) continue;
        if (a.middle >= r) return ::testing::AssertionFailure() << "middle above the shortcut at rank " << r;
        const ChShortcutHalves h = up ? ch.upward_halves(begin + i) : ch.downward_halves(begin + i);
        const ChArc& first = ch.downward_arc(h.down);
        const ChArc& second = ch.upward_arc(h.up);
        if (first.weight + second.weight != a.weight)
          return ::testing::AssertionFailure() << "shortcut weight is not the sum of its halves at rank " << r;
        if (first.head != (up ? r : a.head) || second.head != (up ? a.head : r))
          return ::testing::AssertionFailure() << "shortcut halves do not join its ends at rank " << r;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

constexpr unsigned pair_seed = 777;

constexpr int road_sources = 100;
constexpr int road_targets_per_source = 12;  // 1200 pairs per graph
constexpr std::size_t road_pairs = std::size_t{road_sources} * road_targets_per_source;

const std::string rome_path = test::data_dir + "/roads/rome99.gr";
const std::string ol_nodes = test::data_dir + "/roads/OL.cnode.txt";
const std::string ol_edges = test::data_dir + "/roads/OL.cedge.txt";

/// A road network, its plain edge list, and its hierarchy, built once for all tests.
struct Road {
  EdgeList list;
  Graph graph;
  ContractionHierarchy ch;
};

const Road& rome() {
  static const Road road = [] {
    Road r{test::read_dimacs_arcs_plainly(rome_path), load_dimacs_graph(rome_path).graph, {}};
    r.ch = ContractionHierarchy::build(r.graph);
    return r;
  }();
  return road;
}

const Road& oldenburg() {
  static const Road road = [] {
    Road r{test::read_node_edge_lists_plainly(ol_nodes, ol_edges), load_node_edge_lists(ol_nodes, ol_edges).graph, {}};
    r.ch = ContractionHierarchy::build(r.graph);
    return r;
  }();
  return road;
}

/// CH against Boost on 1200 pairs, with and without stall-on-demand; CH must settle far fewer
/// vertices than plain Dijkstra expands.
void check_road(const Road& road, bool connected) {
  ASSERT_EQ(road.graph.node_count(), road.list.vertices);
  EXPECT_TRUE(is_well_formed(road.ch));
  const CheapestArcs arcs(road.list);
  ChQuery stalling(road.ch);
  ChQuery plain(road.ch, ChQueryOptions{.stall_on_demand = false});
  Dijkstra<Graph> dijkstra(road.graph);
  std::uint64_t ch_settled = 0, plain_settled = 0, dijkstra_expanded = 0;
  const auto check = [&](VertexId start, VertexId goal, Cost expected) {
    expect_ch_optimal(stalling, arcs, start, goal, expected);
    ch_settled += stalling.ch_stats().settled();
    expect_ch_optimal(plain, arcs, start, goal, expected);
    plain_settled += plain.ch_stats().settled();
    EXPECT_EQ(plain.ch_stats().stalled, 0u);
    solve(dijkstra, start, goal);
    dijkstra_expanded += dijkstra.stats().expanded;
  };
  const std::size_t reachable = test::for_random_pairs(road.list, road_sources, road_targets_per_source, pair_seed, check);
  if (connected) {
    EXPECT_EQ(reachable, road_pairs);
  } else {
    EXPECT_GT(reachable, road_pairs * 9 / 10);
  }
  EXPECT_LE(ch_settled, plain_settled);
  EXPECT_LT(ch_settled * 8, dijkstra_expanded);
}

TEST(GraphChRoads, Rome99MatchesBoost) {
  ASSERT_EQ(rome().list.vertices, 3353u);
  check_road(rome(), false);
  const ChBuildStats& s = rome().ch.stats();
  EXPECT_EQ(s.input_arcs, 8870u);
  EXPECT_GT(s.shortcuts, 0u);
  // Original arcs survive unless a shortcut replaced them.
  EXPECT_LE(rome().ch.arc_count() - s.shortcuts, s.input_arcs - s.self_loops_dropped - s.parallel_dropped);
  EXPECT_GT(rome().ch.memory_bytes(), rome().ch.arc_count() * sizeof(ChArc));
}

TEST(GraphChRoads, OldenburgMatchesBoost) {
  ASSERT_EQ(oldenburg().list.vertices, 6105u);
  check_road(oldenburg(), true);
}

TEST(GraphChRandom, MatchesBoostOnRandomGraphs) {
  constexpr int graphs = 240;
  constexpr int sources_per_graph = 5;
  constexpr std::size_t max_targets = 20;
  constexpr Coordinates kinds[] = {Coordinates::none, Coordinates::xy, Coordinates::xyz};
  std::size_t pairs = 0, unreachable = 0, self_loops = 0, parallel = 0, shortcuts = 0;
  for (int seed = 0; seed < graphs; ++seed) {
    std::mt19937 rng(static_cast<unsigned>(seed) + 1000);
    const EdgeList list = test::random_edge_list(rng, kinds[seed % 3]);
    const Graph graph = test::build_graph(list);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << list.vertices << " vertices, "
                                      << list.edges.size() << " edges");
    // Every fourth graph with the tightest witness limits: more shortcuts, same answers.
    ChParams params;
    if (seed % 4 == 3) params = ChParams{.witness_settle_limit = 1, .priority_settle_limit = 1, .witness_hop_limit = 1};
    const ContractionHierarchy ch = ContractionHierarchy::build(graph, params);
    ASSERT_EQ(ch.node_count(), list.vertices);
    EXPECT_TRUE(is_well_formed(ch));
    // Read back, a built hierarchy passes the load's proof that no shortcut is missing.
    std::stringstream file;
    ch.save(file);
    EXPECT_NO_THROW((void)ContractionHierarchy::load(file, "random.ch", graph));
    self_loops += ch.stats().self_loops_dropped;
    parallel += ch.stats().parallel_dropped;
    shortcuts += ch.stats().shortcuts;
    const BoostReference boost_ref(list);
    const CheapestArcs arcs(list);
    ChQuery query(ch, ChQueryOptions{.stall_on_demand = seed % 2 == 0});
    const test::PairCounts counts = test::sample_pairs(
        list, boost_ref, rng, sources_per_graph, max_targets, [](VertexId, const std::vector<Cost>&) {},
        [&](VertexId start, VertexId goal, Cost expected) { expect_ch_optimal(query, arcs, start, goal, expected); });
    pairs += counts.pairs;
    unreachable += counts.unreachable;
  }
  // The graphs must really hold the edge cases, and the hierarchies shortcuts.
  EXPECT_GT(unreachable, pairs / 20);
  EXPECT_GT(pairs - unreachable, pairs * 2 / 5);
  EXPECT_GT(self_loops, 100u);
  EXPECT_GT(parallel, 100u);
  EXPECT_GT(shortcuts, 1000u);
}

// Weights from zero and subnormals to 1e300: the load's proof, which compares sums made in
// different orders, must accept every built hierarchy, and the answers stay shortest.
TEST(GraphChRandom, ExtremeWeightsLoadAndStayShortest) {
  constexpr double weights[] = {0, 1e-320, 1e-44, 1e-300, 1e-30, 1, 0.1, 3e38, 2e38, 1e300, 1e30};
  constexpr std::uint32_t n = 40;
  for (unsigned seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::uint32_t> vertex(0, n - 1);
    std::uniform_int_distribution<std::size_t> weight(0, std::size(weights) - 1);
    GraphBuilder b(n);
    for (int i = 0; i < 160; ++i) b.add_edge(VertexId{vertex(rng)}, VertexId{vertex(rng)}, weights[weight(rng)]);
    const Graph graph = b.build();
    const ContractionHierarchy built = ContractionHierarchy::build(graph);
    std::stringstream file;
    built.save(file);
    const ContractionHierarchy ch = ContractionHierarchy::load(file, "extreme.ch", graph);
    ChQuery query(ch);
    search::ShortestPathTree<Graph> tree(graph);
    for (std::uint32_t s = 0; s < n; s += 7) {
      ASSERT_TRUE(tree.compute(VertexId{s}).succeeded());
      for (std::uint32_t t = 0; t < n; ++t) {
        const Cost expected = tree.distance(VertexId{t});
        if (!query.query(VertexId{s}, VertexId{t}).succeeded()) {
          EXPECT_EQ(expected, infinite_cost) << s << " -> " << t;
          continue;
        }
        EXPECT_NEAR(query.distance(), expected, test::relative_cost_eps * expected) << s << " -> " << t;
      }
    }
  }
}

TEST(GraphChRandom, TightLimitsOnlyAddShortcuts) {
  std::mt19937 rng(42);
  std::size_t loose_arcs = 0, tight_arcs = 0;
  for (int i = 0; i < 20; ++i) {
    const Graph graph = test::build_graph(test::random_edge_list(rng, Coordinates::none));
    loose_arcs += ContractionHierarchy::build(graph).arc_count();
    tight_arcs += ContractionHierarchy::build(graph, ChParams{.witness_settle_limit = 1, .priority_settle_limit = 1})
                      .arc_count();
  }
  EXPECT_GT(tight_arcs, loose_arcs);
}

Graph small_graph() {
  // 0 → 1 → 2 → 3 one way (weights 1, 0, 2), 0 → 3 directly (5), a self-loop at 1, two
  // parallel arcs 2 → 3 (2 and 7), and 4 isolated.
  GraphBuilder b(5);
  b.add_edge(VertexId{0}, VertexId{1}, 1);
  b.add_edge(VertexId{1}, VertexId{2}, 0);
  b.add_edge(VertexId{2}, VertexId{3}, 7);
  b.add_edge(VertexId{2}, VertexId{3}, 2);
  b.add_edge(VertexId{0}, VertexId{3}, 5);
  b.add_edge(VertexId{1}, VertexId{1}, 0.5);
  return b.build();
}

TEST(GraphChQuery, SmallGraphEdgeCases) {
  const Graph g = small_graph();
  const ContractionHierarchy ch = ContractionHierarchy::build(g);
  EXPECT_EQ(ch.stats().self_loops_dropped, 1u);
  EXPECT_EQ(ch.stats().parallel_dropped, 1u);
  EXPECT_EQ(ch.original_arc_count(), 6u);
  ChQuery q(ch);
  q.reserve();

  ASSERT_TRUE(q.query(VertexId{0}, VertexId{3}).succeeded());
  EXPECT_EQ(q.distance(), 3);
  EXPECT_EQ(q.path().nodes, (std::vector<VertexId>{VertexId{0}, VertexId{1}, VertexId{2}, VertexId{3}}));

  ASSERT_TRUE(q.query(VertexId{1}, VertexId{2}).succeeded());  // zero-weight arc
  EXPECT_EQ(q.distance(), 0);
  EXPECT_EQ(q.path().nodes, (std::vector<VertexId>{VertexId{1}, VertexId{2}}));

  ASSERT_TRUE(q.query(VertexId{4}, VertexId{4}).succeeded());  // start == goal, isolated
  EXPECT_EQ(q.distance(), 0);
  EXPECT_EQ(q.path().nodes, std::vector<VertexId>{VertexId{4}});

  EXPECT_TRUE(q.query(VertexId{3}, VertexId{0}).failed());  // against the one-way arcs
  EXPECT_TRUE(q.path().empty());
  EXPECT_EQ(q.distance(), infinite_cost);
  EXPECT_TRUE(q.query(VertexId{0}, VertexId{4}).failed());
  EXPECT_TRUE(q.query(VertexId{0}, VertexId{5}).failed());  // outside the graph
  EXPECT_TRUE(q.query(VertexId{}, VertexId{0}).failed());
  EXPECT_EQ(q.ch_stats().settled(), 0u);

  ChQuery distance_only(ch, ChQueryOptions{.unpack_path = false});
  ASSERT_TRUE(distance_only.query(VertexId{0}, VertexId{3}).succeeded());
  EXPECT_EQ(distance_only.distance(), 3);
  EXPECT_TRUE(distance_only.path().empty());
  EXPECT_GT(distance_only.ch_stats().settled(), 0u);
}

TEST(GraphChQuery, EmptyGraph) {
  const Graph empty;
  const ContractionHierarchy ch = ContractionHierarchy::build(empty);
  EXPECT_EQ(ch.node_count(), 0u);
  EXPECT_EQ(ch.arc_count(), 0u);
  ChQuery q(ch);
  EXPECT_TRUE(q.query(VertexId{0}, VertexId{0}).failed());
}

TEST(GraphChBuild, RejectsBadParams) {
  const Graph g = small_graph();
  EXPECT_THROW((void)ContractionHierarchy::build(g, ChParams{.witness_settle_limit = 0}), BuildError);
  EXPECT_THROW((void)ContractionHierarchy::build(g, ChParams{.priority_settle_limit = 0}), BuildError);
  EXPECT_THROW((void)ContractionHierarchy::build(g, ChParams{.depth_weight = infinite_cost}), BuildError);
}

// --- files -------------------------------------------------------------------------------------

std::string temp_file(const std::string& name) { return ::testing::TempDir() + "waymark_ch_" + name; }

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// load() must throw a LoadError for `path` at line 0 whose reason contains `reason`.
void expect_load_error(const std::string& path, const Graph& graph, const std::string& reason) {
  try {
    (void)ContractionHierarchy::load(path, graph);
    ADD_FAILURE() << "no LoadError for " << path << " (expected: " << reason << ")";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0u);
    EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
  }
}

TEST(GraphChFile, RoundTripGivesIdenticalAnswers) {
  const Road& road = rome();
  const std::string path = temp_file("rome.ch");
  road.ch.save(path);
  const ContractionHierarchy loaded = ContractionHierarchy::load(path, road.graph);
  ASSERT_EQ(loaded.node_count(), road.ch.node_count());
  ASSERT_EQ(loaded.arc_count(), road.ch.arc_count());
  EXPECT_EQ(loaded.graph_fingerprint(), road.ch.graph_fingerprint());
  EXPECT_EQ(loaded.graph_fingerprint(), arc_fingerprint(road.graph));
  EXPECT_EQ(loaded.stats().shortcuts, road.ch.stats().shortcuts);
  EXPECT_EQ(loaded.stats().time_s, road.ch.stats().time_s);
  EXPECT_TRUE(is_well_formed(loaded));
  for (std::uint32_t r = 0; r < loaded.node_count(); ++r) ASSERT_EQ(loaded.vertex_at(r), road.ch.vertex_at(r));

  ChQuery a(road.ch), b(loaded);
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::uint32_t> vertex(0, static_cast<std::uint32_t>(road.graph.node_count() - 1));
  for (int i = 0; i < 300; ++i) {
    const VertexId s{vertex(rng)}, t{vertex(rng)};
    ASSERT_EQ(a.query(s, t), b.query(s, t));
    EXPECT_EQ(a.distance(), b.distance());
    EXPECT_EQ(a.path().nodes, b.path().nodes);
    EXPECT_EQ(a.ch_stats().settled(), b.ch_stats().settled());
  }
  // A saved file is byte-for-byte what saving the loaded hierarchy gives.
  std::ostringstream again;
  loaded.save(again);
  EXPECT_EQ(again.str(), file_bytes(path));
  std::remove(path.c_str());
}

TEST(GraphChFile, RefusesAnotherGraph) {
  const std::string path = temp_file("small.ch");
  const Graph small = small_graph();
  ContractionHierarchy::build(small).save(path);
  EXPECT_NO_THROW((void)ContractionHierarchy::load(path, small));
  expect_load_error(path, rome().graph, "built for a graph with 5 vertices and 6 arcs");

  // Same counts, one weight changed.
  GraphBuilder b(5);
  b.add_edge(VertexId{0}, VertexId{1}, 1);
  b.add_edge(VertexId{1}, VertexId{2}, 0);
  b.add_edge(VertexId{2}, VertexId{3}, 7);
  b.add_edge(VertexId{2}, VertexId{3}, 2.5);
  b.add_edge(VertexId{0}, VertexId{3}, 5);
  b.add_edge(VertexId{1}, VertexId{1}, 0.5);
  expect_load_error(path, b.build(), "fingerprint");

  std::remove(path.c_str());
}

TEST(GraphChFile, RejectsDamagedFiles) {
  const Road& road = oldenburg();
  std::ostringstream saved;
  road.ch.save(saved);
  const std::string good = saved.str();
  const std::string path = temp_file("damaged.ch");

  expect_load_error(temp_file("does_not_exist.ch"), road.graph, "cannot open");

  write_bytes(path, "");
  expect_load_error(path, road.graph, "truncated");
  for (const std::size_t cut : {std::size_t{7}, std::size_t{50}, std::size_t{112}, good.size() / 3,
                                good.size() / 2, good.size() - 9, good.size() - 1}) {
    SCOPED_TRACE(::testing::Message() << "cut at " << cut);
    write_bytes(path, good.substr(0, cut));
    expect_load_error(path, road.graph, "truncated");
  }

  std::string bad = good;
  bad[0] = 'X';
  write_bytes(path, bad);
  expect_load_error(path, road.graph, "wrong magic");
  write_bytes(path, "a text file, not a hierarchy\n" + std::string(200, '.'));
  expect_load_error(path, road.graph, "wrong magic");

  bad = good;
  bad[8] = static_cast<char>(bad[8] + 1);  // version
  write_bytes(path, bad);
  expect_load_error(path, road.graph, "unsupported version");

  for (const std::size_t at : {std::size_t{200}, good.size() / 2, good.size() - 20}) {
    SCOPED_TRACE(::testing::Message() << "byte " << at << " flipped");
    bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    write_bytes(path, bad);
    expect_load_error(path, road.graph, "corrupt");
  }

  write_bytes(path, good + "x");
  expect_load_error(path, road.graph, "data after the checksum");

  // The stream overload reports the name it is given.
  std::istringstream in(good.substr(0, 20));
  try {
    (void)ContractionHierarchy::load(in, "memory", road.graph);
    ADD_FAILURE() << "no LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "memory");
  }
  std::remove(path.c_str());
}

TEST(GraphChFile, RejectsStructurallyBrokenFilesWithAValidChecksum) {
  const Road& road = oldenburg();
  std::ostringstream saved;
  road.ch.save(saved);
  const std::string good = saved.str();
  std::string resealed = good;
  test::reseal(resealed);
  ASSERT_EQ(resealed, good) << "the test's checksum differs from the format's";
  const std::size_t n = road.ch.node_count();
  constexpr std::size_t header = 112;
  const std::size_t order_at = header, up_offsets_at = order_at + 4 * n, up_arcs_at = up_offsets_at + 4 * (n + 1);
  const std::string path = temp_file("forged.ch");
  const auto expect_rejected = [&](std::size_t at, const auto& value, const std::string& reason) {
    write_bytes(path, test::forge(good, at, &value, sizeof value));
    expect_load_error(path, road.graph, reason);
  };
  // The first upward arc: weight (8 bytes), head, middle.
  expect_rejected(order_at + 4, road.ch.vertex_at(0).value, "not a permutation");
  expect_rejected(up_offsets_at + 4 * (n / 2), std::uint32_t{0xFFFFFFF0u}, "offsets decrease");
  expect_rejected(up_offsets_at + 4 * n, std::uint32_t{1}, "offsets do not match");
  expect_rejected(up_arcs_at + 8, std::uint32_t{0}, "higher rank");
  expect_rejected(up_arcs_at, -1.0, "negative or not finite");
  expect_rejected(up_arcs_at, infinite_cost, "negative or not finite");
  // The first upward shortcut: a wrong weight, then a middle above it.
  std::size_t shortcut = 0;
  while (road.ch.upward_arc(static_cast<std::uint32_t>(shortcut)).middle == ChArc::no_middle) ++shortcut;
  const std::size_t at = up_arcs_at + 16 * shortcut;
  expect_rejected(at, road.ch.upward_arc(static_cast<std::uint32_t>(shortcut)).weight + 1, "sum of its halves");
  // The first plain upward arc made longer or shorter than the graph's arc.
  std::size_t plain = 0;
  while (road.ch.upward_arc(static_cast<std::uint32_t>(plain)).middle != ChArc::no_middle) ++plain;
  const Cost plain_weight = road.ch.upward_arc(static_cast<std::uint32_t>(plain)).weight;
  expect_rejected(up_arcs_at + 16 * plain, plain_weight + 1, "not the graph's cheapest arc");
  expect_rejected(up_arcs_at + 16 * plain, plain_weight / 2, "not the graph's cheapest arc");
  expect_rejected(at + 12, static_cast<std::uint32_t>(n - 1), "middle vertex is not below");
  std::remove(path.c_str());
}


/// A hierarchy file for `graph` with the given arrays, written with the format's own checksum:
/// a forgery that passes every structural check. The header is a real file's, its arc counts
/// replaced.
struct HandMade {
  std::vector<VertexId> order;
  std::vector<std::uint32_t> up_offsets;
  std::vector<ChArc> up;
  std::vector<ChShortcutHalves> up_halves;
  std::vector<std::uint32_t> down_offsets;
  std::vector<ChArc> down;
  std::vector<ChShortcutHalves> down_halves;
};
std::string hand_made_file(const Graph& graph, const HandMade& h) {
  std::ostringstream real;
  ContractionHierarchy::build(graph).save(real);
  std::string header = real.str().substr(0, 112);
  const std::uint64_t ups = h.up.size(), downs = h.down.size();
  std::memcpy(header.data() + 40, &ups, 8);  // FileHeader::up_arcs, then down_arcs
  std::memcpy(header.data() + 48, &downs, 8);
  std::ostringstream out;
  ChecksummedWriter w(out);
  w.bytes(header.data(), header.size());
  w.array(h.order);
  w.array(h.up_offsets);
  w.array(h.up);
  w.array(h.up_halves);
  w.array(h.down_offsets);
  w.array(h.down);
  w.array(h.down_halves);
  w.finish();
  return out.str();
}

// Forgeries that keep every arc a real path but leave out one a query needs: the load proves
// that no shortcut is missing (docs/robustness.md).
TEST(GraphChFile, RejectsAHierarchyThatLacksAShortcutOrAnArc) {
  GraphBuilder b(3);  // the path 0 - 1 - 2
  b.add_undirected_edge(VertexId{0}, VertexId{1}, 1);
  b.add_undirected_edge(VertexId{1}, VertexId{2}, 2);
  const Graph g = b.build();
  const std::string path = temp_file("lacking.ch");
  constexpr auto plain = ChArc::no_middle;

  // Vertex 1 ranked lowest with its four arcs: ranks 1 (vertex 0) and 2 (vertex 2) must be
  // joined by shortcuts over it, whose halves are its arcs 0 and 1 each way.
  const HandMade complete{{VertexId{1}, VertexId{0}, VertexId{2}},
                          {0, 2, 3, 3},
                          {{1, 1, plain}, {2, 2, plain}, {3, 2, 0}},
                          {{}, {}, {0, 1}},
                          {0, 2, 3, 3},
                          {{1, 1, plain}, {2, 2, plain}, {3, 2, 0}},
                          {{}, {}, {1, 0}}};
  write_bytes(path, hand_made_file(g, complete));
  const ContractionHierarchy loaded = ContractionHierarchy::load(path, g);
  ChQuery query(loaded);
  ASSERT_TRUE(query.query(VertexId{0}, VertexId{2}).succeeded());
  EXPECT_EQ(query.distance(), 3);
  EXPECT_EQ(query.path().nodes, (std::vector<VertexId>{VertexId{0}, VertexId{1}, VertexId{2}}));

  // Without the shortcuts, 0 and 2 would not reach each other.
  HandMade forged = complete;
  forged.up_offsets = forged.down_offsets = {0, 2, 2, 2};
  for (auto* arcs : {&forged.up, &forged.down}) arcs->pop_back();
  forged.up_halves.pop_back();
  forged.down_halves.pop_back();
  write_bytes(path, hand_made_file(g, forged));
  expect_load_error(path, g, "a shortcut is missing: nothing replaces 0 -> 1 -> 2 (vertex indices)");

  // Without the arc 2 -> 1 (and the shortcut 2 -> 0 made of it), 2 would reach nothing.
  forged = complete;
  forged.down_offsets = {0, 1, 1, 1};
  forged.down.resize(1);
  forged.down_halves.resize(1);
  write_bytes(path, hand_made_file(g, forged));
  expect_load_error(path, g, "the graph's arc 2 -> 1 (vertex indices) has no path in the hierarchy");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace waymark::graph_ch_test
