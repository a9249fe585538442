// `waymark graph` on road graphs: every algorithm against Boost's Dijkstra, single queries,
// saved preprocessing, --trace, and bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/cli_support.hpp"
#include "support/random_graph.hpp"
#include "support/sanitized.hpp"

namespace waymark::apps_cli_graph_test {
namespace {

using test::CliRun;
using test::count_events;
using test::data;
using test::json_lines;
using test::read_trace;
using test::run;
using test::temp_file;

TEST(Cli, GraphTraceMarksTheBackwardSide) {
  const std::string trace = ::testing::TempDir() + "/waymark_graph_trace.jsonl";
  const CliRun r = run("graph --gr " + data + "/roads/rome99.gr --from 1 --to 3000 -a bidijkstra --json --trace " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const std::vector<nlohmann::json> events = read_trace(trace);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front()["goal"], 3000);
  EXPECT_EQ(events.back()["status"], "success");
  EXPECT_EQ(count_events(events, "expand"), j["expanded"].get<std::size_t>());
  const auto backward = std::count_if(events.begin(), events.end(), [](const nlohmann::json& e) {
    return e.contains("direction") && e["direction"] == "backward";
  });
  EXPECT_GT(backward, 0);
  EXPECT_LT(static_cast<std::size_t>(backward), events.size());
  EXPECT_EQ(run("graph --gr " + data + "/roads/rome99.gr --queries " + temp_file("q.txt", "1 2\n") +
                " --trace " + trace).exit_code, 2);
}

TEST(Cli, GraphQueriesEveryAlgorithmMatchesBoost) {
  // Rome99 is directed (one-way streets); Boost's Dijkstra on a plain reading of the file is
  // the reference.
  const std::string gr = data + "/roads/rome99.gr";
  const waymark::test::BoostReference boost_ref(waymark::test::read_dimacs_arcs_plainly(gr));
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> id(1, 3353);
  std::string queries = "# from to\n";
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < 40; ++i) {
    pairs.emplace_back(id(rng), id(rng));
    queries += std::to_string(pairs.back().first) + " " + std::to_string(pairs.back().second) + "\n";
  }
  const std::string file = temp_file("rome_queries.txt", queries);
  // "table" builds Rome99's route table (3,353 searches: 3.8 s under ASan, where
  // GraphRoutesRoads.Rome99* builds and checks the same table): in release only.
  for (const char* a : {"dijkstra", "bidijkstra", "alt", "ch", "table"}) {
    if (test::sanitized && std::string_view(a) == "table") continue;
    const CliRun r = run("graph --gr " + gr + " --queries " + file + " -a " + a);
    ASSERT_EQ(r.exit_code, 0) << a << ": " << r.out;
    const std::vector<nlohmann::json> lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), pairs.size()) << a;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto& j = lines[i];
      ASSERT_EQ(j["from"], pairs[i].first);
      ASSERT_EQ(j["to"], pairs[i].second);
      const double expected = boost_ref.distances(static_cast<std::uint32_t>(pairs[i].first - 1))
                                  [static_cast<std::size_t>(pairs[i].second - 1)];
      if (std::isinf(expected)) {
        EXPECT_TRUE(j["distance"].is_null()) << a << " " << j.dump();
        EXPECT_EQ(j["path_vertices"], 0) << a;
      } else {
        EXPECT_DOUBLE_EQ(j["distance"].get<double>(), expected) << a << " " << j.dump();
        EXPECT_GE(j["path_vertices"].get<int>(), 1) << a;
      }
    }
  }
}

TEST(Cli, GraphSingleQueryJsonTextAndAStarOnNodeLists) {
  const std::string nodes = data + "/roads/OL.cnode.txt", edges = data + "/roads/OL.cedge.txt";
  const CliRun j = run("graph --nodes " + nodes + " --edges " + edges + " --undirected --from 0 --to 6000 -a astar --json");
  ASSERT_EQ(j.exit_code, 0) << j.out;
  const auto out = nlohmann::json::parse(j.out);
  const waymark::test::BoostReference boost_ref(waymark::test::read_node_edge_lists_plainly(nodes, edges));
  EXPECT_NEAR(out["distance"].get<double>(), boost_ref.distances(0)[6000], 1e-9 * out["distance"].get<double>());
  EXPECT_EQ(out["path"].front(), 0);
  EXPECT_EQ(out["path"].back(), 6000);
  EXPECT_EQ(out["path_vertices"].get<std::size_t>(), out["path"].size());
  const CliRun text = run("graph --nodes " + nodes + " --edges " + edges + " --undirected --from 0 --to 6000");
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("distance "), std::string::npos) << text.out;
  // Without --undirected the lists are one-way u -> v: some pair becomes unreachable (exit 1).
  const CliRun one_way = run("graph --nodes " + nodes + " --edges " + edges + " --from 6000 --to 0");
  EXPECT_EQ(one_way.exit_code, 1) << one_way.out;
  EXPECT_NE(one_way.out.find("no path"), std::string::npos) << one_way.out;
}

TEST(Cli, GraphPreprocessingSaveLoadAndRefusal) {
  const std::string gr = data + "/roads/rome99.gr";
  const std::string saved = ::testing::TempDir() + "/waymark_cli_rome.ch";
  const CliRun save = run("graph --gr " + gr + " --from 1 --to 3000 -a ch --save " + saved + " --json");
  ASSERT_EQ(save.exit_code, 0) << save.out;
  const CliRun load = run("graph --gr " + gr + " --from 1 --to 3000 -a ch --load " + saved + " --json");
  ASSERT_EQ(load.exit_code, 0) << load.out;
  EXPECT_EQ(nlohmann::json::parse(save.out)["distance"], nlohmann::json::parse(load.out)["distance"]);
  // The same file offered for another graph, or as landmarks, is refused.
  const CliRun other = run("graph --nodes " + data + "/roads/OL.cnode.txt --edges " + data +
                           "/roads/OL.cedge.txt --from 0 --to 1 -a ch --load " + saved);
  EXPECT_EQ(other.exit_code, 2) << other.out;
  EXPECT_NE(other.out.find(saved), std::string::npos) << other.out;
  const CliRun as_alt = run("graph --gr " + gr + " --from 1 --to 2 -a alt --load " + saved);
  EXPECT_EQ(as_alt.exit_code, 2) << as_alt.out;
}

TEST(Cli, GraphBadInputExitsTwoWithAReason) {
  const std::string gr = data + "/roads/rome99.gr";
  const struct {
    std::string args;
    std::string reason;
  } cases[] = {
      {"graph --gr " + gr + " --from 0 --to 5", "--from 0: no such vertex (ids 1..3353)"},
      {"graph --gr " + gr + " --from 1 --to 5 -a astar", "astar needs vertex coordinates"},
      {"graph --gr " + gr + " --from 1 --to 5 -a nope", "unknown algorithm 'nope'"},
      {"graph --gr " + gr + " --from 1", "--from and --to go together"},
      {"graph --gr " + gr, "give either --from U --to V or --queries FILE"},
      {"graph --from 1 --to 2", "give either --gr FILE"},
      {"graph --gr " + gr + " --queries " + temp_file("bad_q.txt", "1 2\n3\n"), "bad_q.txt:2: expected 'U V'"},
      {"graph --gr " + temp_file("bad.gr", "p sp 2 1\na 1 2 -4\n") + " --from 1 --to 2", "bad.gr:2:"},
      {"graph --gr " + gr + " --from 1 --to 2 --save x.bin", "--load/--save apply to alt, ch and table"},
  };
  for (const auto& c : cases) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.reason), std::string::npos) << c.args << "\n" << r.out;
  }
}

// ---- waymark puzzle ----------------------------------------------------------------------

}  // namespace
}  // namespace waymark::apps_cli_graph_test
