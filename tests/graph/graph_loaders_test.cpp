// DIMACS .gr/.co and node/edge-list loaders: good files, the bundled road graphs, and a table
// of bad inputs, each of which must name the file, the line and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "support/temp_files.hpp"
#include "support/random_grid.hpp"
#include "waymark/io/graph_loaders.hpp"

namespace waymark::graph_loaders_test {
using namespace graph;
using namespace io;
namespace {

using test::TempFiles;

std::vector<std::pair<std::uint32_t, Cost>> arcs_of(const Graph& g, VertexId v) {
  std::vector<std::pair<std::uint32_t, Cost>> out;
  g.for_each_successor(v, [&](VertexId t, Cost w) { out.emplace_back(t.value, w); });
  return out;
}

using Arcs = std::vector<std::pair<std::uint32_t, Cost>>;

TEST(GraphLoader, DimacsWithCommentsCrlfParallelArcsSelfLoopsAndCoordinates) {
  const TempFiles files;
  const std::string gr = files.write("g.gr",
                                     "c a small graph\r\n"
                                     "p sp 4 5\r\n"
                                     "\r\n"
                                     "a 1 2 7\r\n"
                                     "a 1 2 3.5\r\n"
                                     "c between arcs\r\n"
                                     "a 2 2 1\r\n"
                                     "a 4 1 0\r\n"
                                     "a 2 4 2\r\n");
  const std::string co = files.write("g.co", "c coords\np aux sp co 4\nv 3 30 -3\nv 1 10 -1\nv 4 40 -4\nv 2 20 -2\n");
  const LoadedGraph plain = load_dimacs_graph(gr);
  EXPECT_EQ(plain.graph.node_count(), 4u);
  EXPECT_EQ(plain.graph.arc_count(), 5u);
  EXPECT_FALSE(plain.graph.has_positions());
  EXPECT_EQ(arcs_of(plain.graph, VertexId{0}), (Arcs{{1, 7}, {1, 3.5}}));
  EXPECT_EQ(arcs_of(plain.graph, VertexId{1}), (Arcs{{1, 1}, {3, 2}}));
  EXPECT_EQ(arcs_of(plain.graph, VertexId{2}), Arcs{});
  EXPECT_EQ(arcs_of(plain.graph, VertexId{3}), (Arcs{{0, 0}}));

  const LoadedGraph with_co = load_dimacs_graph(gr, co);
  EXPECT_EQ(with_co.graph.coordinates(), Coordinates::xy);
  EXPECT_EQ(with_co.graph.position(VertexId{2}), (Vec3{30, -3, 0}));
  EXPECT_EQ(with_co.graph.position(VertexId{0}), (Vec3{10, -1, 0}));
  EXPECT_EQ(with_co.graph.arc_count(), 5u);
}

TEST(GraphLoader, FileIdsTranslateBothWays) {
  std::istringstream gr("p sp 3 0\n");
  const LoadedGraph g = parse_dimacs_graph(gr, "ids.gr");
  EXPECT_EQ(g.ids.first(), 1);
  EXPECT_EQ(g.ids.count(), 3u);
  EXPECT_EQ(g.ids.to_vertex(1), VertexId{0});
  EXPECT_EQ(g.ids.to_vertex(3), VertexId{2});
  EXPECT_EQ(g.ids.to_vertex(0), std::nullopt);
  EXPECT_EQ(g.ids.to_vertex(4), std::nullopt);
  EXPECT_EQ(g.ids.to_vertex(-1), std::nullopt);
  for (std::uint32_t v = 0; v < 3; ++v) EXPECT_EQ(g.ids.to_vertex(g.ids.to_file(VertexId{v})), VertexId{v});

  std::istringstream nodes("1 0 0\n0 5 5\n");
  std::istringstream edges("0 0 1 7.07\n");
  const LoadedGraph lists = parse_node_edge_lists(nodes, "n", edges, "e");
  EXPECT_EQ(lists.ids.first(), 0);
  EXPECT_EQ(lists.ids.to_file(VertexId{1}), 1);
  EXPECT_EQ(lists.ids.to_vertex(2), std::nullopt);
  EXPECT_EQ(lists.graph.position(VertexId{1}), (Vec3{0, 0, 0}));  // ids as written, any order
  EXPECT_EQ(arcs_of(lists.graph, VertexId{0}), (Arcs{{1, 7.07}}));
  EXPECT_EQ(arcs_of(lists.graph, VertexId{1}), (Arcs{{0, 7.07}}));  // undirected: both arcs

  std::istringstream nodes2("1 0 0\n0 5 5\n");
  std::istringstream edges2("0 0 1 7.07\n");
  const LoadedGraph one_way = parse_node_edge_lists(nodes2, "n", edges2, "e", EdgeDirection::directed);
  EXPECT_EQ(arcs_of(one_way.graph, VertexId{0}), (Arcs{{1, 7.07}}));
  EXPECT_TRUE(arcs_of(one_way.graph, VertexId{1}).empty());
}

TEST(GraphLoader, BundledRome99) {
  const LoadedGraph g = load_dimacs_graph(test::data_dir + "/roads/rome99.gr");
  EXPECT_EQ(g.graph.node_count(), 3353u);
  EXPECT_EQ(g.graph.arc_count(), 8870u);
  EXPECT_FALSE(g.graph.has_positions());
  // The first arc line: "a 2958 2959 535".
  const VertexId from = *g.ids.to_vertex(2958);
  EXPECT_EQ(from, VertexId{2957});
  bool found = false;
  g.graph.for_each_successor(from, [&](VertexId t, Cost w) { found |= g.ids.to_file(t) == 2959 && w == 535; });
  EXPECT_TRUE(found);
}

TEST(GraphLoader, BundledOldenburg) {
  const LoadedGraph g =
      load_node_edge_lists(test::data_dir + "/roads/OL.cnode.txt", test::data_dir + "/roads/OL.cedge.txt");
  EXPECT_EQ(g.graph.node_count(), 6105u);
  EXPECT_EQ(g.graph.arc_count(), 2 * 7035u);
  // First lines: "0 769.948669 2982.984131" and "0 1609 1622 57.403187".
  EXPECT_EQ(g.graph.position(VertexId{0}), (Vec3{769.948669, 2982.984131, 0}));
  bool found = false;
  g.graph.for_each_successor(VertexId{1622}, [&](VertexId t, Cost w) { found |= t == VertexId{1609} && w == 57.403187; });
  EXPECT_TRUE(found);
}

TEST(GraphLoader, VertexPairsInTheFilesNumbering) {
  const FileVertexIds dimacs(1, 4);
  std::istringstream good("# from to\n1 4\n\n  3\t2 \r\n");
  const std::vector<VertexPair> pairs = parse_vertex_pairs(good, "q", dimacs);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].from, VertexId{0});
  EXPECT_EQ(pairs[0].to, VertexId{3});
  EXPECT_EQ(pairs[1].from, VertexId{2});
  EXPECT_EQ(pairs[1].line, 4u);
  const auto fails_on = [&](const std::string& text, std::size_t line, const std::string& reason) {
    std::istringstream in(text);
    try {
      (void)parse_vertex_pairs(in, "q", dimacs);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const LoadError& e) {
      EXPECT_EQ(e.line(), line) << text;
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  };
  fails_on("1 2\n1 2 3\n", 2, "expected 'U V'");
  fails_on("1 5\n", 1, "out of range 1..4");
  fails_on("0 1\n", 1, "out of range");
  fails_on("1 x\n", 1, "bad vertex id 'x'");
}

TEST(GraphLoader, LimitsAreOptionsCheckedBeforeAllocating) {
  const GraphLoadOptions small{.max_vertices = 100, .max_arcs = 10};
  const auto reason = [&](const std::string& gr, const std::string& nodes = {}) -> std::string {
    std::istringstream a(gr), b(nodes), e("");
    try {
      if (nodes.empty()) (void)parse_dimacs_graph(a, "g.gr", small);
      else (void)parse_node_edge_lists(b, "n", e, "e", EdgeDirection::undirected, small);
    } catch (const LoadError& error) {
      return error.reason();
    }
    return "loaded";
  };
  EXPECT_EQ(reason("p sp 100 0\n"), "loaded");
  EXPECT_NE(reason("p sp 101 0\n").find("from 0 to 100, got '101' (the limit GraphLoadOptions::max_vertices"),
            std::string::npos);
  EXPECT_NE(reason("p sp 3 11\n").find("(the limit GraphLoadOptions::max_arcs"), std::string::npos);
  std::string nodes;
  for (int i = 0; i <= 100; ++i) nodes += std::to_string(i) + " 0 0\n";
  EXPECT_NE(reason("", nodes).find("more than 100 nodes (the limit GraphLoadOptions::max_vertices"), std::string::npos);
  // A coordinate file that declares the graph's million vertices but holds one: refused
  // before a position is allocated for each.
  std::istringstream gr("p sp 1000000 0\n"), co("p aux sp co 1000000\nv 1 0 0\n");
  try {
    (void)parse_dimacs_graph(gr, "g.gr", co, "g.co");
    ADD_FAILURE() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.reason(), "999999 of 1000000 vertices have no coordinates");
  }
}

TEST(GraphLoader, UnreadableFiles) {
  const TempFiles files;
  const std::string gr = files.write("ok.gr", "p sp 1 0\n");
  const std::string nodes = files.write("ok.nodes", "0 0 0\n");
  const std::string missing = files.write("x", "") + ".missing";
  for (const auto& load : std::vector<std::function<void()>>{
           [&] { (void)load_dimacs_graph(missing); },
           [&] { (void)load_dimacs_graph(gr, missing); },
           [&] { (void)load_node_edge_lists(missing, nodes); },
           [&] { (void)load_node_edge_lists(nodes, missing); },
       }) {
    try {
      load();
      ADD_FAILURE() << "no error";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), missing);
      EXPECT_EQ(e.line(), 0u);
      EXPECT_EQ(e.reason(), "cannot open file");
    }
  }
}

enum class Part { gr, co, nodes, edges };

struct BadFile {
  const char* name;
  Part part;  ///< the file that holds `text`; the other file of the pair is valid
  const char* text;
  std::size_t line;
  const char* reason_part;
};

void PrintTo(const BadFile& b, std::ostream* out) { *out << b.name; }

constexpr const char* good_gr = "p sp 3 1\na 1 2 1\n";
constexpr const char* good_nodes = "0 0 0\n1 1 0\n2 2 0\n";
constexpr const char* good_edges = "0 0 1 1.5\n";

class BadGraphFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadGraphFile, GivesFileLineAndReason) {
  const BadFile& b = GetParam();
  const TempFiles files;
  std::string bad_path;
  std::function<void()> load;
  switch (b.part) {
    case Part::gr:
      bad_path = files.write("bad.gr", b.text);
      load = [&] { (void)load_dimacs_graph(bad_path); };
      break;
    case Part::co:
      bad_path = files.write("bad.co", b.text);
      load = [&, gr = files.write("good.gr", good_gr)] { (void)load_dimacs_graph(gr, bad_path); };
      break;
    case Part::nodes:
      bad_path = files.write("bad.cnode.txt", b.text);
      load = [&, edges = files.write("good.cedge.txt", good_edges)] { (void)load_node_edge_lists(bad_path, edges); };
      break;
    case Part::edges:
      bad_path = files.write("bad.cedge.txt", b.text);
      load = [&, nodes = files.write("good.cnode.txt", good_nodes)] { (void)load_node_edge_lists(nodes, bad_path); };
      break;
  }
  try {
    load();
    FAIL() << "no error for " << b.name;
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), bad_path);
    EXPECT_EQ(e.line(), b.line) << e.what();
    EXPECT_NE(e.reason().find(b.reason_part), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    GraphLoader, BadGraphFile,
    ::testing::Values(
        // DIMACS .gr
        BadFile{"gr_empty", Part::gr, "", 0, "missing 'p sp N M'"},
        BadFile{"gr_comments_only", Part::gr, "c nothing\nc here\n", 0, "missing 'p sp N M'"},
        BadFile{"gr_arc_before_p", Part::gr, "c x\na 1 2 3\np sp 3 1\n", 2, "arc before"},
        BadFile{"gr_short_p", Part::gr, "p sp 3\n", 1, "expected 'p sp N M'"},
        BadFile{"gr_wrong_problem", Part::gr, "p max 3 1\n", 1, "expected 'p sp N M'"},
        BadFile{"gr_bad_vertex_count", Part::gr, "p sp -3 1\n", 1, "vertex count"},
        BadFile{"gr_bad_arc_count", Part::gr, "p sp 3 x\n", 1, "arc count"},
        // 19 bytes asking for 16 GB: refused on the header, before any allocation.
        BadFile{"gr_vertex_count_over_limit", Part::gr, "p sp 4000000000 0\n", 1,
                "vertex count must be an integer from 0 to 67108864, got '4000000000' (the limit "
                "GraphLoadOptions::max_vertices; raise it for larger graphs)"},
        BadFile{"gr_arc_count_over_limit", Part::gr, "p sp 3 4000000000\n", 1, "arc count must be an integer from 0 to"},
        BadFile{"gr_second_p", Part::gr, "p sp 3 1\na 1 2 1\np sp 3 1\n", 3, "second 'p' line (the first is line 1)"},
        BadFile{"gr_short_arc", Part::gr, "p sp 3 1\na 1 2\n", 2, "expected 'a U V W'"},
        BadFile{"gr_long_arc", Part::gr, "p sp 3 1\na 1 2 3 4\n", 2, "expected 'a U V W'"},
        BadFile{"gr_bad_id", Part::gr, "p sp 3 1\na 1 x 3\n", 2, "bad vertex id 'x'"},
        BadFile{"gr_id_zero", Part::gr, "p sp 3 1\na 0 2 3\n", 2, "vertex id 0 out of range 1..3"},
        BadFile{"gr_id_too_large", Part::gr, "c\nc\np sp 3 2\na 1 2 3\na 2 4 3\n", 5, "vertex id 4 out of range 1..3"},
        BadFile{"gr_negative_weight", Part::gr, "p sp 3 1\na 1 2 -5\n", 2, "finite and >= 0, got -5"},
        BadFile{"gr_nan_weight", Part::gr, "p sp 3 1\na 1 2 nan\n", 2, "finite and >= 0, got nan"},
        BadFile{"gr_infinite_weight", Part::gr, "p sp 3 1\na 1 2 inf\n", 2, "finite and >= 0, got inf"},
        BadFile{"gr_text_weight", Part::gr, "p sp 3 1\na 1 2 far\n", 2, "bad arc weight 'far'"},
        BadFile{"gr_too_many_arcs", Part::gr, "p sp 3 1\na 1 2 1\na 2 3 1\n", 3,
                "more arcs than the 1 announced on line 1"},
        BadFile{"gr_too_few_arcs", Part::gr, "c header\np sp 3 3\na 1 2 1\na 2 3 1\n", 2,
                "'p' line announces 3 arcs, the file has 2"},
        BadFile{"gr_unknown_line", Part::gr, "p sp 3 1\ne 1 2 1\n", 2, "unknown line type 'e'"},
        BadFile{"gr_crlf_line_count", Part::gr, "c x\r\np sp 3 1\r\n\r\na 1 2 -1\r\n", 4, "finite and >= 0"},
        // DIMACS .co (with a valid 3-vertex .gr)
        BadFile{"co_empty", Part::co, "", 0, "missing 'p aux sp co N'"},
        BadFile{"co_vertex_before_p", Part::co, "v 1 0 0\n", 1, "coordinates before"},
        BadFile{"co_bad_p", Part::co, "p aux sp 3\n", 1, "expected 'p aux sp co N'"},
        BadFile{"co_count_mismatch", Part::co, "p aux sp co 4\n", 1, "coordinates for '4' vertices, the graph has 3"},
        BadFile{"co_short_line", Part::co, "p aux sp co 3\nv 1 0\n", 2, "expected 'v ID X Y'"},
        BadFile{"co_id_out_of_range", Part::co, "p aux sp co 3\nv 4 0 0\n", 2, "vertex id 4 out of range 1..3"},
        BadFile{"co_bad_coordinate", Part::co, "p aux sp co 3\nv 1 0 north\n", 2, "bad coordinate 'north'"},
        BadFile{"co_nan_coordinate", Part::co, "p aux sp co 3\nv 1 nan 0\n", 2, "coordinate must be finite"},
        BadFile{"co_duplicate", Part::co, "p aux sp co 3\nv 1 0 0\nv 2 0 0\nv 1 5 5\nv 3 0 0\n", 4,
                "duplicate coordinates for vertex id 1 (first on line 2)"},
        BadFile{"co_missing", Part::co, "c x\np aux sp co 3\nv 1 0 0\nv 3 0 0\n", 2,
                "1 of 3 vertices have no coordinates"},
        BadFile{"co_unknown_line", Part::co, "p aux sp co 3\na 1 2 3\n", 2, "unknown line type 'a'"},
        // node list (with a valid edge list)
        BadFile{"nodes_short_line", Part::nodes, "0 0 0\n1 1\n2 2 0\n", 2, "expected 'ID X Y'"},
        BadFile{"nodes_bad_id", Part::nodes, "0 0 0\nb 1 1\n", 2, "bad vertex id 'b'"},
        BadFile{"nodes_bad_coordinate", Part::nodes, "0 0 0\n1 1 y\n", 2, "bad coordinate 'y'"},
        BadFile{"nodes_infinite_coordinate", Part::nodes, "0 0 0\n1 inf 0\n", 2, "coordinate must be finite"},
        BadFile{"nodes_id_out_of_range", Part::nodes, "0 0 0\n1 1 1\n\n3 3 3\n", 4,
                "vertex id 3 out of range 0..2 (the file lists 3 nodes)"},
        BadFile{"nodes_negative_id", Part::nodes, "0 0 0\n-1 1 1\n", 2, "vertex id -1 out of range 0..1"},
        BadFile{"nodes_duplicate_id", Part::nodes, "1 0 0\n0 1 1\n1 2 2\n", 3, "duplicate vertex id 1 (first on line 1)"},
        // edge list (with 3 valid nodes)
        BadFile{"edges_short_line", Part::edges, "0 0 1 1\n1 1 2\n", 2, "expected 'EDGE_ID U V LENGTH'"},
        BadFile{"edges_bad_edge_id", Part::edges, "e 0 1 1\n", 1, "bad edge id 'e'"},
        BadFile{"edges_id_out_of_range", Part::edges, "0 0 1 1\n1 1 3 1\n", 2, "vertex id 3 out of range 0..2"},
        BadFile{"edges_negative_length", Part::edges, "0 0 1 -0.5\n", 1, "finite and >= 0, got -0.5"},
        BadFile{"edges_nan_length", Part::edges, "0 0 1 -nan\n", 1, "finite and >= 0"},
        BadFile{"edges_text_length", Part::edges, "0 0 1 long\n", 1, "bad edge length 'long'"}),
    [](const ::testing::TestParamInfo<BadFile>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace waymark::graph_loaders_test
