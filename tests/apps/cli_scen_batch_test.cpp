// `waymark scen` and `waymark batch`: many queries from a file, their reports, and the files
// they refuse.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/cli_support.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::apps_cli_scen_batch_test {
namespace {

using test::CliRun;
using test::data;
using test::every_line_as_json;
using test::run;
using test::temp_file;

TEST(Cli, ScenJsonReportsAllOptimal) {
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["queries"], 130);
  EXPECT_EQ(j["solved"], 130);
  EXPECT_EQ(j["optimal"], 130);
  EXPECT_TRUE(j["mismatches"].empty());
  EXPECT_GT(j["expanded_total"].get<long>(), 0);
  EXPECT_GT(j["mean_us"].get<double>(), 0.0);
  EXPECT_TRUE(j["time_total_s"].is_number());
}

TEST(Cli, ScenSampleEveryRunsQueriesWhoseIndexIsAMultiple) {
  // 130 queries, indices 0, 10, …, 120 run.
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --sample-every 10 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["queries"], 13);
  EXPECT_EQ(j["optimal"], 13);
  EXPECT_EQ(j["sample_every"], 10);
  ASSERT_TRUE(j.contains("path_steps_total")) << r.out;
  EXPECT_GT(j["path_steps_total"].get<long>(), 0);
  EXPECT_EQ(run("scen " + data + "/maps/arena.map.scen --sample-every 0").exit_code, 2);
}

TEST(Cli, ScenWithSuboptimalAlgorithmExitsOneAndListsMismatches) {
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --json -a greedy");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LT(j["optimal"].get<int>(), 130);
  EXPECT_FALSE(j["mismatches"].empty());
  EXPECT_LE(j["mismatches"].size(), 20u);
  EXPECT_TRUE(j["mismatches"][0].contains("line"));
}

TEST(Cli, ScenTextAndMapsDir) {
  const std::string dir = ::testing::TempDir() + "/waymark_cli_scen";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(data + "/maps/arena.map.scen", dir + "/arena.map.scen",
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(run("scen " + dir + "/arena.map.scen").exit_code, 2);  // map not beside it
  const CliRun r = run("scen " + dir + "/arena.map.scen --maps " + data + "/maps");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("total: 130 queries, all optimal: yes"), std::string::npos) << r.out;
}

TEST(Cli, ScenMalformedLineExitsTwo) {
  const std::string scen = temp_file("bad.map.scen", "version 1\n0\tarena.map\t49\t49\t1\t1\t2\t2\tNaN\n");
  const CliRun r = run("scen " + scen + " --maps " + data + "/maps");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("bad.map.scen:2:"), std::string::npos) << r.out;
}

/// The keys of a JSON object, sorted.
std::vector<std::string> keys_of(const nlohmann::json& j) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  return keys;
}

TEST(Cli, BatchJsonLinesInInputOrderThenASummary) {
  const std::string scen_path = data + "/maps/arena.map.scen";
  const io::Scenario scen = io::load_movingai_scenario(scen_path);
  const CliRun r = run("batch --map " + data + "/maps/arena.map --queries " + scen_path + " --threads 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.substr(0, 9), "{\"from\":[");  // the documented key order
  // stderr is in r.out too: every line is JSON, so no progress bar was drawn off a terminal.
  const std::vector<nlohmann::json> lines = every_line_as_json(r.out);
  ASSERT_EQ(lines.size(), scen.queries.size() + 1);
  for (std::size_t i = 0; i < scen.queries.size(); ++i) {
    const io::ScenarioQuery& q = scen.queries[i];
    const nlohmann::json& j = lines[i];
    SCOPED_TRACE("line " + std::to_string(q.line));
    EXPECT_EQ(keys_of(j), (std::vector<std::string>{"cost", "from", "status", "to"}));
    EXPECT_EQ(j["from"], nlohmann::json::array({q.start.x, q.start.y}));
    EXPECT_EQ(j["to"], nlohmann::json::array({q.goal.x, q.goal.y}));
    EXPECT_EQ(j["status"], "success");
    EXPECT_TRUE(q.matches_optimal(j["cost"].get<double>())) << j["cost"] << " vs " << q.optimal;
  }
  const nlohmann::json& summary = lines.back();
  EXPECT_EQ(keys_of(summary), (std::vector<std::string>{"queries", "threads", "time_s"}));
  EXPECT_EQ(summary["queries"], scen.queries.size());
  EXPECT_EQ(summary["threads"], 2);
  EXPECT_GE(summary["time_s"].get<double>(), 0.0);
}

TEST(Cli, BatchPlainQueriesThatFailAndTheTextForm) {
  const std::string map = temp_file("batch_wall.map", "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n");
  const std::string queries = temp_file("batch_wall.txt", "# start goal\n0 0 1 2\n\n0 0 4 0\r\n2 1 0 0\n");
  CliRun r = run("batch --map " + map + " --queries " + queries + " --threads 4 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;  // some query found no path
  const std::vector<nlohmann::json> lines = every_line_as_json(r.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["status"], "success");
  EXPECT_NEAR(lines[0]["cost"].get<double>(), 1 + std::sqrt(2.0), 1e-12);
  EXPECT_EQ(lines[1]["from"], nlohmann::json::array({0, 0}));
  EXPECT_EQ(lines[1]["to"], nlohmann::json::array({4, 0}));
  EXPECT_EQ(lines[1]["status"], "failure");
  EXPECT_EQ(lines[1]["reason"], "unreachable");
  EXPECT_TRUE(lines[1]["cost"].is_null());
  EXPECT_EQ(lines[2]["reason"], "start-blocked");
  EXPECT_TRUE(lines[2]["cost"].is_null());
  EXPECT_EQ(lines[3]["queries"], 3);
  EXPECT_EQ(lines[3]["threads"], 1);  // three queries are one chunk: one thread
  r = run("batch --map " + map + " --queries " + queries + " --threads 1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string expected =
      "(0,0) -> (1,2): cost 2.41421\n(0,0) -> (4,0): no path: unreachable\n(2,1) -> (0,0): no path: start-blocked\n"
      "3 queries, 1 solved, on 1 thread in ";
  EXPECT_EQ(r.out.substr(0, expected.size()), expected);
}

TEST(Cli, BatchOnTwoThreadsPrintsWhatOneThreadPrints) {
  const std::string args =
      "batch --map " + data + "/maps/den520d.map --queries " + data + "/maps/den520d.map.scen -a jps --json --threads ";
  const CliRun one = run(args + "1");
  const CliRun two = run(args + "2");
  ASSERT_EQ(one.exit_code, 0) << one.out;
  ASSERT_EQ(two.exit_code, 0) << two.out;
  // Everything but the summary (its time and thread count) is the same, byte for byte.
  const std::size_t cut_one = one.out.rfind("{\"queries\""), cut_two = two.out.rfind("{\"queries\"");
  ASSERT_NE(cut_one, std::string::npos);
  EXPECT_EQ(one.out.substr(0, cut_one), two.out.substr(0, cut_two));
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 871);  // 870 queries and the summary
}

TEST(Cli, BatchBadFilesAndOptionsExitTwoWithFileLineAndReason) {
  const std::string arena = data + "/maps/arena.map";
  const auto expect_bad = [](const std::string& args, const std::string& message) {
    const CliRun r = run("batch " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "waymark: " + message + "\n") << args;
  };
  const std::string outside = temp_file("batch_outside.txt", "19 26 19 29\n1 1 49 0\n");
  expect_bad("--map " + arena + " --queries " + outside, outside + ":2: goal (49,0) is outside the 49x49 map");
  const std::string fields = temp_file("batch_fields.txt", "# c\n1 2 3 x\n");
  expect_bad("--map " + arena + " --queries " + fields, fields + ":2: expected an integer in column 4, got 'x'");
  const std::string three = temp_file("batch_three.txt", "1 2 3\n");
  expect_bad("--map " + arena + " --queries " + three, three + ":1: expected 4 integers 'sx sy gx gy', got 3 fields");
  const std::string empty = temp_file("batch_empty.txt", "# nothing\n");
  expect_bad("--map " + arena + " --queries " + empty, empty + ": no queries in the file (expected lines 'sx sy gx gy')");
  const std::string scen = temp_file("batch_other.scen", "version 1\n0\tden.map\t256\t257\t1\t1\t2\t2\t1.4\n");
  expect_bad("--map " + arena + " --queries " + scen, scen + ":2: the scenario says its map is 256x257, the map given is 49x49");
  expect_bad("--map " + arena + " --queries /nonexistent/q.txt", "/nonexistent/q.txt: cannot open file");
  const std::string two = temp_file("batch_two.txt", "19 26 19 29\n\n19 29 19 26\n");
  expect_bad("--map " + arena + " --queries " + two + " --max-queries 1",
             two + ":3: more than 1 queries (BatchQueryOptions::max_queries)");
  expect_bad("--map " + arena + " --queries " + outside + " --threads 0", "--threads must be an integer from 1 to 64, got 0");
  expect_bad("--map " + arena + " --queries " + outside + " --threads 65", "--threads must be an integer from 1 to 64, got 65");
  const CliRun unknown = run("batch --map " + arena + " --queries " + two + " -a nosuch");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out.substr(0, 49), "waymark: unknown algorithm 'nosuch' (astar|wastar");
  EXPECT_EQ(run("batch --map " + arena + " --queries " + outside + " -a jps --diagonal always").exit_code, 2);
}

}  // namespace
}  // namespace waymark::apps_cli_scen_batch_test
