// io::PathQuery, the one parser and writer of a grid path query: its defaults and refusals,
// and `waymark path --json` against POST /api/path for the same request: the same fields, the
// same answer, the same refusal message.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "waymark/io/movingai.hpp"
#include "waymark/io/path_query.hpp"
#include "web/api.hpp"

namespace web_path_query_test {
namespace {

using nlohmann::json;
using waymark::io::parse_path_query;
using waymark::io::PathQuery;
using waymark::web::Api;

const std::string data = WAYMARK_DATA_DIR;
const std::string arena = data + "/maps/arena.map";

TEST(PathQuery, DefaultsAreDecidedOnce) {
  const auto parsed = parse_path_query(R"({"from":[3,1],"to":"35,7"})");
  ASSERT_TRUE(parsed.ok()) << parsed.error;
  const PathQuery& q = parsed.query;
  EXPECT_EQ(q.from.x, 3);
  EXPECT_EQ(q.to.y, 7);
  EXPECT_EQ(q.algorithm, waymark::grid::Algorithm::astar);
  EXPECT_EQ(q.diagonal, waymark::grid::DiagonalRule::no_corner_cutting);
  EXPECT_FALSE(q.heuristic.has_value());
  EXPECT_EQ(q.weight, 1.5);
  EXPECT_EQ(q.max_nodes, 50'000'000u);
  EXPECT_EQ(q.time_limit_s, 0);
  EXPECT_FALSE(q.terrain || q.smooth || q.partial || q.trace);
  EXPECT_TRUE(q.budget().is_unlimited());
  const auto options = q.planner_options();
  EXPECT_EQ(options.query.weight, 1.5);
  EXPECT_EQ(options.query.max_nodes, 50'000'000u);

  const auto weighted = parse_path_query(R"({"from":[0,0],"to":[1,1],"algorithm":"wastar","weight":3,"null_is":null})");
  EXPECT_FALSE(weighted.ok());  // unknown fields are refused, not ignored
  const auto ok = parse_path_query(R"({"from":[0,0],"to":[1,1],"algorithm":"wastar","weight":3,"heuristic":null})");
  ASSERT_TRUE(ok.ok()) << ok.error;
  EXPECT_EQ(ok.query.weight, 3);
  EXPECT_FALSE(ok.query.heuristic.has_value());  // null is absent
  EXPECT_TRUE(parse_path_query(R"({"algorithm":"bfs"})", waymark::io::PathQueryParts::options).ok());
}

TEST(PathQuery, RefusalsNameTheField) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"to":[1,1]})", "missing field \"from\""},
      {R"({"from":[0.5,1],"to":[1,1]})", "from must be X,Y or [X, Y]: two whole numbers (column, row), got '[0.5,1]'"},
      {R"({"from":"1;2","to":[1,1]})", "from must be X,Y or [X, Y]: two whole numbers (column, row), got '1;2'"},
      {R"({"from":[0,0],"to":[1,1],"algorithm":"teleport"})",
       "unknown algorithm 'teleport' (astar|wastar|dijkstra|greedy|bfs|dfs|ida|jps|jps-plus|theta)"},
      {R"({"from":[0,0],"to":[1,1],"algorithm":"theta","weight":2})", "theta takes no weight (it is for wastar)"},
      {R"({"from":[0,0],"to":[1,1],"weight":2})", "astar takes no weight (it is for wastar)"},
      {R"({"from":[0,0],"to":[1,1],"algorithm":"wastar","weight":0.5})", "weight must be a number from 1 to 1000000, got '0.5'"},
      {R"({"from":[0,0],"to":[1,1],"algorithm":"theta","heuristic":"octile"})",
       "theta always uses the euclidean heuristic; drop heuristic octile"},
      {R"({"from":[0,0],"to":[1,1],"heuristic":"psychic"})",
       "unknown heuristic 'psychic' (manhattan|octile|euclidean|chebyshev|zero)"},
      {R"({"from":[0,0],"to":[1,1],"diagonal":"sometimes"})",
       "unknown diagonal rule 'sometimes' (never|always|at-most-one-obstacle|no-corner-cutting)"},
      {R"({"from":[0,0],"to":[1,1],"max_nodes":0})", "max_nodes must be a whole number from 1 to 2^53, got '0'"},
      {R"({"from":[0,0],"to":[1,1],"time_limit":-1})",
       "time_limit must be a number of seconds from 0 (none) to 604800 (a week), got '-1'"},
      {R"({"from":[0,0],"to":[1,1],"smooth":"yes"})", "smooth must be true or false, got 'yes'"},
      {R"([1,2])", "the request must be a JSON object"},
  };
  for (const auto& [request, message] : cases) {
    const auto parsed = parse_path_query(request);
    EXPECT_EQ(parsed.error, message) << request;
  }
  EXPECT_NE(parse_path_query("{\"from\":").error.find("request:1: invalid JSON"), std::string::npos);
  // The io module's one JSON reader: a key given twice is refused, not the last one taken.
  EXPECT_EQ(parse_path_query("{\"from\":[0,0],\"to\":[1,1],\n\"to\":[2,2]}").error, "request:2: to: key 'to' appears twice");
  EXPECT_NE(parse_path_query(R"({"from":[0,0],"to":[1,1],"wieght":2})").error.find("unknown field 'wieght' (known: "),
            std::string::npos);
}

TEST(PathQuery, OverestimatingHeuristicsWarn) {
  const auto parsed = parse_path_query(R"({"from":[0,0],"to":[1,1],"heuristic":"manhattan"})");
  ASSERT_TRUE(parsed.ok()) << parsed.error;
  const auto warnings = waymark::io::path_query_warnings(parsed.query);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "manhattan overestimates under diagonal rule 'no-corner-cutting'; paths may not be optimal");
  EXPECT_TRUE(waymark::io::path_query_warnings(parse_path_query(R"({"from":[0,0],"to":[1,1]})").query).empty());
}

TEST(PathQuery, EndpointsAreCheckedOnTheMap) {
  const auto map = waymark::io::load_movingai_map(arena);
  const auto problem = [&](const std::string& request) {
    return waymark::io::path_query_problem(map, parse_path_query(request).query).value_or("");
  };
  EXPECT_EQ(problem(R"({"from":[3,1],"to":[35,7]})"), "");
  EXPECT_EQ(problem(R"({"from":[0,0],"to":[35,7]})"), "from (0,0) is blocked");
  EXPECT_EQ(problem(R"({"from":[3,1],"to":[99,7]})"), "to (99,7) is outside the map (49x49)");
}

#ifdef WAYMARK_CLI  // built with the CLI

struct CliRun {
  int exit_code;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

CliRun run_cli(const std::string& args) {
  const std::string err_file = ::testing::TempDir() + "/waymark_path_query_err.txt";
  const std::string cmd = std::string(WAYMARK_CLI) + " " + args + " 2>" + err_file;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, "", "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) out += buf.data();
  const int status = pclose(pipe);
  std::string err;
  if (FILE* f = std::fopen(err_file.c_str(), "r")) {
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), f) != nullptr) err += buf.data();
    std::fclose(f);
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err};
}

/// The field names of an object and of its objects, "a", "a.b", sorted.
std::vector<std::string> field_names(const json& j, const std::string& prefix = "") {
  std::vector<std::string> names;
  for (const auto& [key, value] : j.items()) {
    names.push_back(prefix + key);
    if (value.is_object())
      for (std::string& inner : field_names(value, prefix + key + ".")) names.push_back(std::move(inner));
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(PathQuery, CliAndWebApiAnswerWithTheSameFields) {
  const Api api(data);
  for (const auto& [options, fields] : std::vector<std::pair<std::string, json>>{
           {"", json::object()},
           {"-a wastar", {{"algorithm", "wastar"}}},  // the same default weight
           {"-a wastar -w 2 --smooth", {{"algorithm", "wastar"}, {"weight", 2}, {"smooth", true}}},
           {"-a theta --diagonal always", {{"algorithm", "theta"}, {"diagonal", "always"}}},
           {"--max-nodes 20 --partial", {{"max_nodes", 20}, {"partial", true}}},
       }) {
    SCOPED_TRACE(options);
    const CliRun cli = run_cli("path --map " + arena + " --from 3,1 --to 35,7 --json " + options);
    json request = fields;
    request.update({{"map", {{"name", "arena"}}}, {"from", {3, 1}}, {"to", {35, 7}}});
    const auto web = api.path(request.dump());
    ASSERT_EQ(web.status, 200) << web.body;
    const json c = json::parse(cli.out);
    const json w = json::parse(web.body);
    EXPECT_EQ(field_names(c), field_names(w));
    for (const char* key : {"algorithm", "status", "partial", "cost", "path", "smoothed", "warnings"})
      EXPECT_EQ(c[key], w[key]) << key;
    for (const char* key : {"expanded", "generated", "steps", "length"}) EXPECT_EQ(c["stats"][key], w["stats"][key]) << key;
    EXPECT_EQ(cli.exit_code, c["status"] == "success" ? 0 : 1);
  }
}

TEST(PathQuery, CliAndWebApiRefuseWithTheSameMessage) {
  const Api api(data);
  for (const auto& [options, fields] : std::vector<std::pair<std::string, json>>{
           {"--from 3,1 --to 35,7 -a theta -w 2", {{"from", {3, 1}}, {"to", {35, 7}}, {"algorithm", "theta"}, {"weight", 2}}},
           {"--from 3,1 --to 35,7 -w 2", {{"from", {3, 1}}, {"to", {35, 7}}, {"weight", 2}}},
           {"--from 3,1 --to 35,7 -a theta --heuristic octile",
            {{"from", {3, 1}}, {"to", {35, 7}}, {"algorithm", "theta"}, {"heuristic", "octile"}}},
           {"--from 3,1 --to 35,7 -a wastar -w 0.5", {{"from", {3, 1}}, {"to", {35, 7}}, {"algorithm", "wastar"}, {"weight", 0.5}}},
           {"--from 3,1 --to 35,7 -a teleport", {{"from", {3, 1}}, {"to", {35, 7}}, {"algorithm", "teleport"}}},
           {"--from 0,0 --to 35,7", {{"from", {0, 0}}, {"to", {35, 7}}}},
           {"--from 3,1 --to 99,7", {{"from", {3, 1}}, {"to", {99, 7}}}},
           {"--from 3,1 --to 35,7 --max-nodes 0", {{"from", {3, 1}}, {"to", {35, 7}}, {"max_nodes", 0}}},
           {"--from 3,1 --to 35,7 -a jps --diagonal always",
            {{"from", {3, 1}}, {"to", {35, 7}}, {"algorithm", "jps"}, {"diagonal", "always"}}},
       }) {
    SCOPED_TRACE(options);
    const CliRun cli = run_cli("path --map " + arena + " " + options);
    json request = fields;
    request["map"] = {{"name", "arena"}};
    const auto web = api.path(request.dump());
    EXPECT_EQ(cli.exit_code, 2);
    EXPECT_EQ(web.status, 400);
    const std::string message = json::parse(web.body)["error"];
    EXPECT_EQ(cli.err, "waymark: " + message + "\n");
  }
}

#endif  // WAYMARK_CLI

}  // namespace
}  // namespace web_path_query_test
