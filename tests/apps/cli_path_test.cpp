// `waymark path` on grid maps end to end: its output (text, JSON, --trace), every algorithm
// including the jump searches and Theta*, smoothing, partial paths, exit codes and bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "apps/cli_support.hpp"

namespace waymark::apps_cli_path_test {
namespace {

using test::CliRun;
using test::count_events;
using test::data;
using test::expect_png;
using test::read_trace;
using test::run;
using test::sealed_map;
using test::temp_file;

TEST(Cli, PathJsonHasTheDocumentedShape) {
  // arena.map.scen line 2: (19,26) -> (19,29), optimal 3.
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 19,26 --to 19,29 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "success");
  EXPECT_DOUBLE_EQ(j["cost"].get<double>(), 3.0);
  ASSERT_EQ(j["path"].size(), 4u);
  EXPECT_EQ(j["path"][0], nlohmann::json::array({19, 26}));
  EXPECT_EQ(j["path"][3], nlohmann::json::array({19, 29}));
  EXPECT_GT(j["stats"]["expanded"].get<int>(), 0);
  EXPECT_TRUE(j["stats"]["time_us"].is_number());
  EXPECT_EQ(j["algorithm"], "astar");
  EXPECT_EQ(j["partial"], false);
  EXPECT_TRUE(j["smoothed"].is_null());
  EXPECT_EQ(j["stats"]["steps"], 3);
  EXPECT_TRUE(j["warnings"].empty());
}

TEST(Cli, PathTraceWritesEveryEventAsJsonLines) {
  for (const std::string algorithm : {"astar", "jps", "bfs", "ida"}) {
    SCOPED_TRACE(algorithm);
    const std::string trace = ::testing::TempDir() + "/waymark_trace_" + algorithm + ".jsonl";
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --json -a " + algorithm +
                         " --trace " + trace);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    const std::vector<nlohmann::json> events = read_trace(trace);
    ASSERT_GE(events.size(), 4u);
    EXPECT_EQ(events.front()["event"], "begin");
    EXPECT_EQ(events.front()["goal"], nlohmann::json::array({35, 7}));
    EXPECT_EQ(events.back()["event"], "end");
    EXPECT_EQ(events.back()["status"], "success");
    EXPECT_EQ(count_events(events, "expand"), j["stats"]["expanded"].get<std::size_t>());
    EXPECT_EQ(count_events(events, "goal"), 1u);
    const auto goal = std::find_if(events.begin(), events.end(), [](const nlohmann::json& e) { return e["event"] == "goal"; });
    EXPECT_EQ((*goal)["node"], nlohmann::json::array({35, 7}));
    EXPECT_DOUBLE_EQ((*goal)["g"].get<double>(), j["cost"].get<double>());
    for (const auto& e : events) {
      if (e["event"] != "open") continue;
      EXPECT_TRUE(e.contains("g") && e.contains("h") && e.contains("improved"));
      EXPECT_EQ(e.contains("parent"), e["node"] != nlohmann::json::array({3, 1}));  // only the start has none
    }
  }
  EXPECT_EQ(run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --trace /nonexistent/dir/t.jsonl").exit_code, 2);
}

TEST(Cli, PathTextAndEveryAlgorithm) {
  for (const char* a : {"astar", "wastar", "dijkstra", "greedy", "bfs", "dfs", "ida"}) {
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a " + a);
    EXPECT_EQ(r.exit_code, 0) << a << ": " << r.out;
    EXPECT_NE(r.out.find("status:   success"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("path:"), std::string::npos);
  }
}

TEST(Cli, NoPathExitsOne) {
  const std::string map = temp_file("split.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  const CliRun r = run("path --map " + map + " --from 0,0 --to 2,2 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_TRUE(j["cost"].is_null());
  EXPECT_TRUE(j["path"].empty());
}

TEST(Cli, BadInputExitsTwoWithAReason) {
  const std::string arena = data + "/maps/arena.map";
  const std::string bad = temp_file("bad.map", "type octile\nheight 2\nwidth 2\nmap\n.x\n..\n");
  struct Case {
    std::string args;
    std::string expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"path --map /nonexistent.map --from 0,0 --to 1,1", "cannot open file"},
           {"path --map " + bad + " --from 0,0 --to 1,1", "bad.map:5: bad cell character 'x'"},
           {"path --map " + arena + " --from 99,0 --to 1,1", "outside"},
           {"path --map " + arena + " --from 0,0 --to 19,29", "from (0,0) is blocked"},
           {"path --map " + arena + " --from 19,26 --to 0,0", "to (0,0) is blocked"},
           {"path --map " + arena + " --from '1;2' --to 19,29", "must be X,Y"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a quantum", "unknown algorithm"},
           {"path --map " + arena + " --from 19,26 --to 19,29 --diagonal sometimes", "unknown diagonal rule"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a wastar -w 0.5", "weight must be a number from 1 to 1000000, got '0.5'"},
           {"path --map " + arena + " --from 19,26 --to 19,29 -a astar -w 2", "astar takes no weight (it is for wastar)"},
           {"path --map " + arena + " --from 19,26", "--to is required"},
           {"scen /nonexistent.map.scen", "cannot open file"},
           {"nonsense", ""},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(Cli, PathPartialPrintsThePathToTheCellNearestTheGoalAndWhyItStopped) {
  const std::string sealed = sealed_map();
  const std::string query = "path --map " + sealed + " --from 1,1 --to 60,60 --json ";
  CliRun r = run(query);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["reason"], "unreachable");
  EXPECT_EQ(j["partial"], false);
  EXPECT_TRUE(j["cost"].is_null());
  EXPECT_TRUE(j["path"].empty());
  // The goal is walled in: the nearest cells reached (h = 2) are (58,60) and (60,58), both
  // 57 diagonal steps and 2 straight ones from (1,1).
  r = run(query + "--partial");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_EQ(j["reason"], "unreachable");
  EXPECT_EQ(j["partial"], true);
  ASSERT_FALSE(j["path"].empty());
  EXPECT_EQ(j["path"].front(), nlohmann::json::parse("[1,1]"));
  const auto end = j["path"].back();
  EXPECT_TRUE(end == nlohmann::json::parse("[58,60]") || end == nlohmann::json::parse("[60,58]")) << end;
  EXPECT_NEAR(j["cost"].get<double>(), 57 * std::sqrt(2.0) + 2, 1e-9);
  EXPECT_EQ(j["stats"]["steps"].get<std::size_t>() + 1, j["path"].size());
  // Budgets: the reason names the limit; the partial path still starts at the start.
  for (const auto& [limit, reason] : {std::pair<std::string, std::string>{"--max-nodes 50", "out-of-nodes"},
                                      {"--time-limit 0.000001", "time-limit"}}) {
    r = run(query + "--partial " + limit);
    EXPECT_EQ(r.exit_code, 1) << limit << r.out;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["reason"], reason) << limit;
    EXPECT_EQ(j["partial"], true) << limit;
    ASSERT_FALSE(j["path"].empty()) << limit;
    EXPECT_EQ(j["path"].front(), nlohmann::json::parse("[1,1]")) << limit;
  }
  r = run("path --map " + sealed + " --from 1,1 --to 60,60 --partial");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("status:   failure: no path\npartial:  cost 82.6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("path:     (1,1) (2,2)"), std::string::npos) << r.out;
  // A blocked or outside start is still bad input, refused before searching.
  EXPECT_EQ(run("path --map " + sealed + " --from 59,59 --to 60,60 --partial").exit_code, 2);
  EXPECT_EQ(run("path --map " + sealed + " --from 1,1 --to 99,1 --partial").exit_code, 2);
}

TEST(Cli, JumpSearchesOnPathAndScen) {
  for (const char* a : {"jps", "jps-plus", "jps+"}) {
    const CliRun r = run("path --map " + data + "/maps/arena.map --from 19,26 --to 19,29 --json -a " + a);
    ASSERT_EQ(r.exit_code, 0) << a << ": " << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_DOUBLE_EQ(j["cost"].get<double>(), 3.0);
    EXPECT_EQ(j["path"].size(), 4u) << "jump paths come back cell by cell";
  }
  const CliRun scen = run("scen " + data + "/maps/arena.map.scen --json -a jps-plus");
  ASSERT_EQ(scen.exit_code, 0) << scen.out;
  const auto j = nlohmann::json::parse(scen.out);
  EXPECT_EQ(j["optimal"], 130);
  EXPECT_GT(j["preprocess_bytes_max"].get<long>(), 0);
  EXPECT_TRUE(j["preprocess_total_s"].is_number());
}

TEST(Cli, JpsTableSaveAndReuse) {
  const std::string table = ::testing::TempDir() + "/waymark_cli_arena.jps";
  const CliRun built = run("jps-table --map " + data + "/maps/arena.map --out " + table + " --json");
  ASSERT_EQ(built.exit_code, 0) << built.out;
  const auto j = nlohmann::json::parse(built.out);
  EXPECT_GT(j["memory_bytes"].get<long>(), 0);
  EXPECT_TRUE(j["build_ms"].is_number());
  const CliRun used = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a jps-plus --jump-table " + table);
  EXPECT_EQ(used.exit_code, 0) << used.out;
  const CliRun wrong_map =
      run("path --map " + data + "/maps/den520d.map --from 3,1 --to 35,7 -a jps-plus --jump-table " + table);
  EXPECT_EQ(wrong_map.exit_code, 2) << wrong_map.out;
}

TEST(Cli, JumpSearchRefusesWhatItCannotDo) {
  const std::string arena = data + "/maps/arena.map";
  const CliRun rule = run("path --map " + arena + " --from 3,1 --to 35,7 -a jps --diagonal always");
  EXPECT_EQ(rule.exit_code, 2);
  EXPECT_NE(rule.out.find("no-corner-cutting"), std::string::npos) << rule.out;
  const std::string swamp = temp_file("swamp.map", "type octile\nheight 1\nwidth 4\nmap\n.SS.\n");
  const CliRun terrain = run("path --map " + swamp + " --from 0,0 --to 3,0 -a jps-plus --terrain");
  EXPECT_EQ(terrain.exit_code, 2);
  EXPECT_NE(terrain.out.find("uniform"), std::string::npos) << terrain.out;
}

TEST(Cli, PathSmoothPrintsWaypointsTheirCostAndTheRawCost) {
  std::string rows;
  for (int y = 0; y < 5; ++y) rows += "..........\n";
  const std::string open = temp_file("open10x5.map", "type octile\nheight 5\nwidth 10\nmap\n" + rows);
  CliRun r = run("path --map " + open + " --from 0,0 --to 9,4 --json --smooth");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"], nlohmann::json::parse("[[0,0],[9,4]]"));  // in sight: one segment
  EXPECT_NEAR(j["smoothed"]["cost"].get<double>(), std::sqrt(97.0), 1e-12);
  EXPECT_NEAR(j["smoothed"]["length"].get<double>(), std::sqrt(97.0), 1e-12);
  EXPECT_NEAR(j["cost"].get<double>(), 5 + 4 * std::sqrt(2.0), 1e-12);  // the search's
  // Theta* finds the straight line itself; smoothing keeps it.
  r = run("path --map " + open + " --from 0,0 --to 9,4 --json -a theta --smooth");
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"].size(), 2u);
  EXPECT_EQ(j["path"].size(), 2u);
  EXPECT_NEAR(j["cost"].get<double>(), std::sqrt(97.0), 1e-12);
  // Around obstacles: the waypoints keep the ends and the cost never exceeds the raw one.
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --json --smooth --diagonal never");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["smoothed"]["path"].front(), nlohmann::json::array({3, 1}));
  EXPECT_EQ(j["smoothed"]["path"].back(), nlohmann::json::array({35, 7}));
  EXPECT_LT(j["smoothed"]["cost"].get<double>(), j["cost"].get<double>());
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth");
  EXPECT_NE(r.out.find("raw cost: "), std::string::npos) << r.out;
  EXPECT_EQ(run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a theta").exit_code, 0);
  // The picture shows the smoothed waypoints.
  const std::string png = ::testing::TempDir() + "/waymark_cli_smooth.png";
  std::filesystem::remove(png);
  r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
}

TEST(Cli, ThetaRefusesAHeuristicAndAWeightItWouldIgnore) {
  const std::string theta = "path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 -a theta";
  CliRun r = run(theta + " --heuristic octile");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("theta always uses the euclidean heuristic"), std::string::npos) << r.out;
  r = run(theta + " --weight 2");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("theta takes no weight (it is for wastar)"), std::string::npos) << r.out;
  r = run(theta + " --weight 1.5");  // the default given is still a weight theta would ignore
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(run(theta + " --heuristic euclidean").exit_code, 0);
}

TEST(Cli, PngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_path.png";
  std::filesystem::remove(png);
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
}

}  // namespace
}  // namespace waymark::apps_cli_path_test
