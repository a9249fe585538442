// The viewer's JSON API, called directly: answers checked against the grid planner and the
// Moving AI optima, and every refusal's status and reason.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "waymark/grid/grid_planner.hpp"
#include "waymark/io/graph_loaders.hpp"
#include "waymark/io/movingai.hpp"
#include "web/api.hpp"
#include "web/request.hpp"

namespace web_api_test {
namespace {

using nlohmann::json;
using waymark::web::Api;
using waymark::web::ApiLimits;
using waymark::web::Request;
using waymark::web::time_budget;
using waymark::web::Response;

const std::string data = WAYMARK_DATA_DIR;

json body_of(const Response& r) { return json::parse(r.body); }

/// A 4×3 map with a wall in column 2 but for its bottom cell.
json walled_map() { return {{"width", 4}, {"height", 3}, {"rows", {"..@.", "..@.", "...."}}}; }

TEST(WebApi, MapsListsTheBundledMapsAndTheNames) {
  const Api api(data);
  const json j = body_of(api.maps());
  ASSERT_TRUE(j["maps"].is_array());
  bool arena = false;
  for (const json& m : j["maps"]) arena |= m["name"] == "arena" && m["width"] == 49 && m["height"] == 49;
  EXPECT_TRUE(arena);
  EXPECT_NE(std::find(j["algorithms"].begin(), j["algorithms"].end(), "jps"), j["algorithms"].end());
  EXPECT_EQ(j["limits"]["max_map_cells"], ApiLimits{}.max_map_cells);
}

TEST(WebApi, MapRowsMatchTheLoader) {
  const Api api(data);
  const Response r = api.map("arena");
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = body_of(r);
  const auto map = waymark::io::load_movingai_map(data + "/maps/arena.map");
  ASSERT_EQ(j["rows"].size(), static_cast<std::size_t>(map.height()));
  for (int y = 0; y < map.height(); ++y) {
    const std::string row = j["rows"][static_cast<std::size_t>(y)];
    ASSERT_EQ(row.size(), static_cast<std::size_t>(map.width()));
    for (int x = 0; x < map.width(); ++x) EXPECT_EQ(row[static_cast<std::size_t>(x)] == '.', map.passable(x, y)) << x << "," << y;
  }
  EXPECT_EQ(api.map("no-such-map").status, 404);
  EXPECT_EQ(api.map("../CMakeLists").status, 400);
  EXPECT_EQ(api.map("").status, 400);
}

TEST(WebApi, PathOnAnInlineMapGoesRoundTheWall) {
  const Api api(data);
  const Response r = api.path(json{{"map", walled_map()}, {"from", {0, 0}}, {"to", {3, 0}}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = body_of(r);
  EXPECT_EQ(j["status"], "success");
  // Corners may not be cut: one diagonal to (1,1), down to (1,2), under the wall through (2,2)
  // to (3,2), up to (3,0): 5 + sqrt 2.
  const json path = j["path"];
  EXPECT_EQ(path.front(), json({0, 0}));
  EXPECT_EQ(path.back(), json({3, 0}));
  for (const json& c : path) EXPECT_FALSE(c[0] == 2 && c[1] != 2) << c;
  EXPECT_NEAR(j["cost"].get<double>(), 5 + std::sqrt(2.0), 1e-9);
  EXPECT_FALSE(j.contains("events"));
  EXPECT_GT(j["stats"]["expanded"].get<int>(), 0);
}

TEST(WebApi, BundledMapQueriesAreOptimal) {
  // The first queries of the bundled scenario, every algorithm that promises optimal paths.
  const Api api(data);
  const auto scen = waymark::io::load_movingai_scenario(data + "/maps/arena.map.scen");
  for (const char* algorithm : {"astar", "dijkstra", "jps", "jps-plus"}) {
    for (std::size_t i = 0; i < scen.queries.size(); i += 17) {
      const auto& q = scen.queries[i];
      const json request = {{"map", {{"name", "arena"}}},
                            {"from", {q.start.x, q.start.y}},
                            {"to", {q.goal.x, q.goal.y}},
                            {"algorithm", algorithm}};
      const Response r = api.path(request.dump());
      ASSERT_EQ(r.status, 200) << r.body;
      EXPECT_TRUE(q.matches_optimal(body_of(r)["cost"].get<double>())) << algorithm << " query " << i << ": " << r.body.substr(0, 80);
    }
  }
}

TEST(WebApi, TraceEventsFollowTheSearch) {
  const Api api(data);
  const json j = body_of(api.path(json{{"map", walled_map()}, {"from", {0, 0}}, {"to", {3, 0}}, {"trace", true}}.dump()));
  ASSERT_TRUE(j["events"].is_array());
  EXPECT_EQ(j["events"].front()["event"], "begin");
  EXPECT_EQ(j["events"].back()["event"], "end");
  EXPECT_EQ(j["events"].back()["status"], "success");
  std::size_t expands = 0;
  for (const json& e : j["events"]) expands += e["event"] == "expand";
  EXPECT_EQ(expands, j["stats"]["expanded"].get<std::size_t>());
  EXPECT_FALSE(j["events_truncated"].get<bool>());

  ApiLimits few;
  few.max_events = 5;
  const json k = body_of(Api(data, few).path(
      json{{"map", walled_map()}, {"from", {0, 0}}, {"to", {3, 0}}, {"trace", true}}.dump()));
  EXPECT_EQ(k["events"].size(), 5u);
  EXPECT_TRUE(k["events_truncated"].get<bool>());
}

TEST(WebApi, SmoothingAndTerrain) {
  const Api api(data);
  const json open = {{"width", 8}, {"height", 3}, {"rows", {"........", "........", "........"}}};
  const json j = body_of(api.path(json{{"map", open}, {"from", {0, 0}}, {"to", {7, 2}}, {"smooth", true}}.dump()));
  ASSERT_TRUE(j.contains("smoothed"));
  EXPECT_EQ(j["smoothed"]["path"].size(), 2u);  // one straight segment
  EXPECT_LE(j["smoothed"]["cost"].get<double>(), j["cost"].get<double>());
  // A swamp row: with terrain on the path pays for it or goes round; water blocks without it.
  const json swamp = {{"width", 3}, {"height", 3}, {"rows", {"...", "SSS", "..."}}};
  const json t = body_of(api.path(json{{"map", swamp}, {"from", {1, 0}}, {"to", {1, 2}}, {"terrain", true}}.dump()));
  EXPECT_NEAR(t["cost"].get<double>(), 2 * 0.5 * (1 + 3), 1e-9);
  const json water = {{"width", 3}, {"height", 3}, {"rows", {"...", "WWW", "..."}}};
  const json w = body_of(api.path(json{{"map", water}, {"from", {1, 0}}, {"to", {1, 2}}}.dump()));
  EXPECT_EQ(w["status"], "failure");
  EXPECT_EQ(w["reason"], "unreachable");
  EXPECT_EQ(w["path"].size(), 0u);
}

TEST(WebApi, RefusalsCarryStatusAndReason) {
  const Api api(data);
  const auto refused = [&](const std::string& body, int status, const std::string& words) {
    const Response r = api.path(body);
    EXPECT_EQ(r.status, status) << body << " -> " << r.body;
    const json j = json::parse(r.body);
    EXPECT_NE(j["error"].get<std::string>().find(words), std::string::npos) << r.body;
  };
  const json ok = {{"map", walled_map()}, {"from", {0, 0}}, {"to", {3, 0}}};
  refused("{\"map\":", 400, "request:1: invalid JSON: syntax error");
  refused("[1,2]", 400, "request: expected a JSON object, got a list");
  refused(json{{"from", {0, 0}}, {"to", {3, 0}}}.dump(), 400, "missing field \"map\"");
  json blocked = ok;
  blocked["to"] = {2, 0};
  refused(blocked.dump(), 400, "is blocked");
  json outside = ok;
  outside["from"] = {9, 0};
  refused(outside.dump(), 400, "from (9,0) is outside the map (4x3)");
  json fractional = ok;
  fractional["from"] = {0.5, 0};
  refused(fractional.dump(), 400, "whole number");
  json algorithm = ok;
  algorithm["algorithm"] = "teleport";
  refused(algorithm.dump(), 400, "unknown algorithm");
  json weight = ok;
  weight["weight"] = 0.5;
  refused(weight.dump(), 400, "weight must be a number from 1 to 1000000");
  weight["weight"] = 2;
  refused(weight.dump(), 400, "astar takes no weight (it is for wastar)");
  json theta = ok;
  theta["algorithm"] = "theta";
  theta["heuristic"] = "octile";
  refused(theta.dump(), 400, "theta always uses the euclidean heuristic");
  json typo = ok;
  typo["smoth"] = true;
  refused(typo.dump(), 400, "unknown field 'smoth'");
  json slow = ok;
  slow["time_limit"] = 60;
  refused(slow.dump(), 400, "time_limit is at most");
  json rows = ok;
  rows["map"]["rows"] = {"..@", "..@.", "...."};
  refused(rows.dump(), 400, "request:1: map.rows[0]: must be a string of 4 letters");
  json letters = ok;
  letters["map"]["rows"] = {"..@.", "..@.", "..?."};
  refused(letters.dump(), 400, "map");
  json big = ok;
  big["map"] = {{"width", 5000}, {"height", 5000}, {"rows", json::array()}};
  refused(big.dump(), 413, "over the limit");
  json wide = ok;
  wide["map"] = {{"width", 100000}, {"height", 1}, {"rows", json::array()}};
  refused(wide.dump(), 413, "over the limit");
  json name = ok;
  name["map"] = {{"name", "../../etc/passwd"}};
  refused(name.dump(), 400, "map name");
  json missing = ok;
  missing["map"] = {{"name", "atlantis"}};
  refused(missing.dump(), 404, "no bundled map");
  json jump = ok;
  jump["algorithm"] = "jps";
  jump["diagonal"] = "always";
  refused(jump.dump(), 400, "");
  refused(std::string("{\"map\":{\"name\":\"\xff\xfe\"}}"), 400, "invalid JSON");  // its reason quotes the bytes, still valid JSON

  ApiLimits small;
  small.max_body_bytes = 64;
  const Response r = Api(data, small).path(std::string(100, ' '));
  EXPECT_EQ(r.status, 413);
}

TEST(WebApi, RequestsAreReadByTheOneJsonReader) {
  // Every POST's body goes through the io module's JSON reader: a key given twice is refused
  // (nlohmann's DOM took the last one), nesting is limited, and a bad value's refusal names
  // its line and path.
  const Api api(data);
  for (const char* path : {"/api/path", "/api/puzzle", "/api/route", "/api/navmesh/path", "/api/visibility",
                           "/api/regions", "/api/sim/start", "/api/sim/step", "/api/sim/add", "/api/sim/stop",
                           "/api/sim/edit", "/api/sim/obstacle", "/api/sim/order", "/api/sim/world",
                           "/api/navmesh/obstacle", "/api/navmesh/obstacle/remove", "/api/navmesh/stop"}) {
    const Response r = api.handle(Request{"POST", path, {}, "{\"id\": 1,\n \"id\": 2}"});
    EXPECT_EQ(r.status, 400) << path << " -> " << r.body;
    EXPECT_EQ(body_of(r)["error"], "request:2: id: key 'id' appears twice") << path;
  }
  // A repeated "to" with another cell: refused, not answered for either.
  const Response twice = api.path(R"({"map":{"name":"arena"},"from":[3,1],"to":[35,7],"to":[4,1]})");
  EXPECT_EQ(twice.status, 400) << twice.body;
  EXPECT_EQ(api.path(R"({"map":{"width":4,"height":3,"width":5,"rows":["....","....","...."]},"from":[0,0],"to":[1,1]})").status, 400);

  const auto nested = [](int depth) { return "{\"map\":" + std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']') + "}"; };
  const Response deep = api.path(nested(16));  // the object and 16 arrays: 17 levels
  EXPECT_EQ(deep.status, 400);
  EXPECT_NE(body_of(deep)["error"].get<std::string>().find("nested deeper than 16"), std::string::npos) << deep.body;
  const Response shallow = api.path(nested(15));  // read, then refused for what it holds
  EXPECT_EQ(shallow.status, 400);
  EXPECT_EQ(body_of(shallow)["error"].get<std::string>().find("nested"), std::string::npos) << shallow.body;

  const Response height = api.path("{\"from\": [0, 0], \"to\": [1, 1],\n \"map\": {\"width\": 4,\n  \"height\": -3, \"rows\": []}}");
  EXPECT_EQ(height.status, 400);
  EXPECT_EQ(body_of(height)["error"], "request:3: map.height: must be a whole number from 1 to 2147483647, got -3");
  const Response seed = api.regions("{\"map\": {\"name\": \"arena\"},\n \"seeds\": [[3, 3],\n [3, \"x\"]]}");
  EXPECT_EQ(seed.status, 400);
  EXPECT_EQ(body_of(seed)["error"], "request:3: seeds[1][1]: must be a whole number from 0 to 48, got the string 'x'");
}

TEST(WebApi, RoutesAndMethods) {
  const Api api(data);
  EXPECT_EQ(api.handle(Request{"GET", "/api/maps", {}, ""}).status, 200);
  EXPECT_EQ(api.handle(Request{"POST", "/api/maps", {}, ""}).status, 405);
  EXPECT_EQ(api.handle(Request{"GET", "/api/path", {}, ""}).status, 405);
  EXPECT_EQ(api.handle(Request{"GET", "/api/nothing", {}, ""}).status, 404);
  EXPECT_EQ(api.handle(Request{"GET", "/api/map", {}, ""}).status, 400);
  EXPECT_EQ(api.handle(Request{"GET", "/api/map", {{"name", "arena"}}, ""}).status, 200);
}

TEST(WebApi, SlowQueriesStopAtTheTimeLimit) {
  // IDA* round a wall on an open 200² grid revisits cells exponentially often: the limit
  // stops it.
  ApiLimits quick;
  quick.max_query_seconds = 0.05;
  const Api api(data, quick);
  json rows = json::array();
  for (int y = 0; y < 200; ++y) rows.push_back(std::string(100, '.') + (y < 199 ? "@" : ".") + std::string(99, '.'));
  const json request = {{"map", {{"width", 200}, {"height", 200}, {"rows", rows}}},
                        {"from", {0, 0}}, {"to", {199, 0}}, {"algorithm", "ida"}};
  const Response r = api.path(request.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = body_of(r);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_EQ(j["reason"], "time-limit");
}

TEST(WebApi, PuzzleSolutionsAreOptimalAndReplay) {
  // The 8-puzzle's hardest boards need 31 moves (Reinefeld 1993); "8 6 7 2 5 4 3 0 1" is one
  // for the goal 1..8 with the blank last. Turned half round and relabelled t -> 9 - t it is
  // one for this goal (blank first): 8 0 6 5 4 7 2 3 1.
  const Api api(data);
  for (const char* algorithm : {"astar", "ida"}) {
    for (const char* heuristic : {"manhattan", "linear-conflict"}) {
      const json request = {{"tiles", {8, 0, 6, 5, 4, 7, 2, 3, 1}}, {"algorithm", algorithm}, {"heuristic", heuristic}};
      const Response r = api.puzzle(request.dump());
      ASSERT_EQ(r.status, 200) << r.body;
      const json j = body_of(r);
      EXPECT_EQ(j["moves"], 31) << algorithm << " " << heuristic;
      ASSERT_EQ(j["boards"].size(), 32u);
      EXPECT_EQ(j["boards"].front(), request["tiles"]);
      EXPECT_EQ(j["boards"].back(), json({0, 1, 2, 3, 4, 5, 6, 7, 8}));
      for (std::size_t i = 1; i < j["boards"].size(); ++i) {  // each step swaps the blank with a neighbour
        const json& a = j["boards"][i - 1];
        const json& b = j["boards"][i];
        int differ = 0;
        for (std::size_t c = 0; c < 9; ++c) differ += a[c] != b[c];
        EXPECT_EQ(differ, 2) << i;
      }
    }
  }
  const auto refused = [&](const json& body, const std::string& words) {
    const Response r = api.puzzle(body.dump());
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(body_of(r)["error"].get<std::string>().find(words), std::string::npos) << r.body;
  };
  refused({{"tiles", {1, 0, 2, 3, 4, 5, 6, 7, 8, 9}}}, "4, 9 or 16");
  refused({{"tiles", {1, 1, 2, 3, 4, 5, 6, 7, 8}}}, "appears twice");
  refused({{"tiles", {0, 2, 1, 3, 4, 5, 6, 7, 8}}}, "unsolvable");  // two tiles of the goal swapped
  refused({{"tiles", {0, 1, 2, 3, 4, 5, 6, 7, 9}}}, "tiles[8]: must be a whole number from 0 to 8, got 9");
  refused({{"tiles", {0, 1, 2, 3, 4, 5, 6, 7, 8}}, {"heuristic", "pdb-663"}}, "heuristic");
  refused({{"tiles", {0, 1, 2, 3, 4, 5, 6, 7, 8}}, {"algorithm", "bfs"}}, "algorithm");
  EXPECT_EQ(api.handle(Request{"GET", "/api/puzzle", {}, ""}).status, 405);
}

TEST(WebApi, RoadRoutesMatchBoostDijkstra) {
  const Api api(data);
  const auto loaded = waymark::io::load_node_edge_lists(data + "/roads/OL.cnode.txt", data + "/roads/OL.cedge.txt");
  const auto& g = loaded.graph;
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                           boost::property<boost::edge_weight_t, double>>;
  BoostGraph reference(g.node_count());
  for (std::size_t v = 0; v < g.node_count(); ++v) {
    const auto targets = g.targets(g.node_at(v));
    const auto weights = g.weights(g.node_at(v));
    for (std::size_t i = 0; i < targets.size(); ++i) boost::add_edge(v, targets[i].value, weights[i], reference);
  }
  constexpr std::uint32_t source = 10;
  std::vector<double> distance(g.node_count());
  boost::dijkstra_shortest_paths(reference, source, boost::distance_map(distance.data()));
  for (const std::uint32_t target : {5000u, 1u, 3000u, 6104u}) {
    const Response r = api.route(json{{"from", source}, {"to", target}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    const json j = body_of(r);
    ASSERT_EQ(j["results"].size(), 5u);
    for (const json& result : j["results"]) {
      ASSERT_EQ(result["status"], "success") << result["algorithm"];
      EXPECT_NEAR(result["cost"].get<double>(), distance[target], 1e-6 * distance[target]) << result["algorithm"];
      EXPECT_EQ(result["path"].front(), source);
      EXPECT_EQ(result["path"].back(), target);
      EXPECT_EQ(result["settled"].size(), result["expanded"].get<std::size_t>()) << result["algorithm"];
    }
  }
  const json picture = body_of(api.graph("oldenburg"));
  EXPECT_EQ(picture["vertices"].size(), g.node_count());
  EXPECT_GT(picture["edges"].size(), 0u);

  const auto refused = [&](const json& body, int status, const std::string& words) {
    const Response r = api.route(body.dump());
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_NE(body_of(r)["error"].get<std::string>().find(words), std::string::npos) << r.body;
  };
  refused({{"from", 0}, {"to", g.node_count()}}, 400, "to: must be a whole number from 0 to");
  refused({{"from", -1}, {"to", 1}}, 400, "from: must be a whole number from 0 to");
  refused({{"from", 0}, {"to", 1}, {"algorithms", {"teleport"}}}, 400, "algorithms[0]: is not one of");
  refused({{"from", 0}, {"to", 1}, {"algorithms", json::array()}}, 400, "algorithms: must be a non-empty array");
  refused({{"graph", "rome"}, {"from", 0}, {"to", 1}}, 404, "no bundled graph");
  EXPECT_EQ(api.graph("atlantis").status, 404);
  EXPECT_EQ(api.handle(Request{"GET", "/api/route", {}, ""}).status, 405);
}

// Issue 32: 10,000 × "dijkstra" ran 10,000 searches (10–26 s, a 150 MB answer). A list runs
// each algorithm once, in first-seen order, and a list longer than max_route_algorithms is
// refused before any search.
TEST(WebApi, RouteAlgorithmListsAreDeduplicatedAndCapped) {
  const Api api(data);
  const json twice = body_of(api.route(json{{"from", 10}, {"to", 5000}, {"algorithms", {"ch", "dijkstra", "ch", "dijkstra", "alt"}}}.dump()));
  ASSERT_EQ(twice["results"].size(), 3u) << twice.dump().substr(0, 300);
  EXPECT_EQ(twice["results"][0]["algorithm"], "ch");
  EXPECT_EQ(twice["results"][1]["algorithm"], "dijkstra");
  EXPECT_EQ(twice["results"][2]["algorithm"], "alt");
  const std::size_t cap = ApiLimits{}.max_route_algorithms;
  EXPECT_EQ(api.route(json{{"from", 10}, {"to", 5000}, {"algorithms", json(std::vector<std::string>(cap, "dijkstra"))}}.dump()).status, 200);
  const auto started = std::chrono::steady_clock::now();
  const Response flood = api.route(json{{"from", 10}, {"to", 5000}, {"algorithms", json(std::vector<std::string>(10'000, "dijkstra"))}}.dump());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 2.0);  // no search ran
  EXPECT_EQ(flood.status, 400);
  EXPECT_NE(body_of(flood)["error"].get<std::string>().find("algorithms: lists 10000 algorithms; at most " + std::to_string(cap)),
            std::string::npos)
      << flood.body;
  EXPECT_EQ(body_of(api.maps())["limits"]["max_route_algorithms"], cap);
}

TEST(WebApi, ARequestsSearchesShareOneTimeLimit) {
  // Every search of one request takes what is left of one max_query_seconds: a
  // search::Deadline of time_budget(max_query_seconds), which is bounded to 0 .. 10^6 s.
  using waymark::search::Budget;
  using waymark::search::Deadline;
  const Deadline spent(time_budget(0));
  EXPECT_EQ(spent.left().time, Budget::Clock::duration::zero());
  EXPECT_EQ(spent.seconds_left(), 0.0);
  EXPECT_TRUE(spent.passed());
  const Deadline fresh(time_budget(100));
  EXPECT_GT(fresh.left().time, std::chrono::seconds(99));
  EXPECT_LE(fresh.left().time, std::chrono::seconds(100));
  EXPECT_GT(fresh.seconds_left(), 99.0);
  EXPECT_FALSE(fresh.passed());
  EXPECT_EQ(time_budget(std::nan("")).time, Budget::Clock::duration::zero());
  EXPECT_EQ(time_budget(1e300).time, std::chrono::seconds(1'000'000));
  // A route whose time is gone before it starts: each of the five algorithms (timed, then
  // replayed) stops after its first expansion, each failing with time-limit, none with a path.
  ApiLimits none;
  none.max_query_seconds = 1e-9;
  const json route = body_of(Api(data, none).route(json{{"from", 10}, {"to", 5000}}.dump()));
  ASSERT_EQ(route["results"].size(), 5u) << route.dump().substr(0, 300);
  for (const json& r : route["results"]) {
    EXPECT_EQ(r["status"], "failure") << r["algorithm"];
    EXPECT_EQ(r["reason"], "time-limit") << r["algorithm"];
    EXPECT_TRUE(r["cost"].is_null());
  }
}

TEST(WebApi, NavmeshPathsOnABundledLevel) {
  const Api api(data);
  const json level = body_of(api.navmesh("nav_test"));
  ASSERT_GT(level["polys"].size(), 10u);
  for (const json& poly : level["polys"])
    for (const json& v : poly) ASSERT_LT(v.get<std::size_t>(), level["vertices"].size());
  // RecastDemo's first nav_test query, by 3D points and by plan points.
  for (const json& ends : {json{{"from", {-1.564062, -2.369926, -20.452827}}, {"to", {19.181122, -2.368134, 3.011776}}},
                           json{{"from", {-1.564062, -20.452827}}, {"to", {19.181122, 3.011776}}}}) {
    json request = ends;
    request["mesh"] = "nav_test";
    const Response r = api.navmesh_path(request.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    const json j = body_of(r);
    for (const char* mode : {"shortest", "funnel"}) {
      EXPECT_EQ(j[mode]["status"], "success") << mode;
      EXPECT_GE(j[mode]["corners"].size(), 2u);
      // No path on the mesh is shorter than the straight line in plan (about 31.2).
      EXPECT_GT(j[mode]["length"].get<double>(), std::hypot(19.181122 + 1.564062, 3.011776 + 20.452827) - 1e-6);
    }
    EXPECT_LE(j["shortest"]["length"].get<double>(), j["funnel"]["length"].get<double>() + 1e-9);
  }
  EXPECT_EQ(api.navmesh("atlantis").status, 404);
  EXPECT_EQ(api.navmesh("../etc").status, 400);
  EXPECT_EQ(api.navmesh_path(R"({"mesh":"nav_test","from":[1e9,1e9],"to":[0,0]})").status, 400);
  EXPECT_EQ(api.navmesh_path(R"({"mesh":"nav_test","from":[1,2,3,4],"to":[0,0]})").status, 400);
  EXPECT_EQ(api.navmesh_path(R"({"mesh":"nav_test","from":["a","b"],"to":[0,0]})").status, 400);
}

TEST(WebApi, SimulationSessionsStepAddAndStop) {
  ApiLimits limits;
  limits.max_simulations = 2;
  limits.max_sim_agents = 3;
  const Api api(data, limits);
  const json agents = {{{"start", {3.5, 12.5}}, {"goal", {28.5, 12.5}}}, {{"start", {28.5, 11.5}}, {"goal", {3.5, 11.5}}}};
  json rows = json::array();
  for (int y = 0; y < 24; ++y) rows.push_back(std::string(32, '.'));
  const json start = {{"map", {{"width", 32}, {"height", 24}, {"rows", rows}}}, {"agents", agents}, {"seed", 7}};
  const json a = body_of(api.sim_start(start.dump()));
  const json b = body_of(api.sim_start(start.dump()));
  ASSERT_TRUE(a.contains("id") && b.contains("id")) << a << b;
  EXPECT_NE(a["id"], b["id"]);
  EXPECT_EQ(a["agents"].size(), 2u);
  EXPECT_EQ(api.sim_start(start.dump()).status, 429);  // two at most

  // The same seed and agents: the same positions, tick for tick (the simulation is deterministic).
  json sa, sb;
  for (int i = 0; i < 20; ++i) {
    sa = body_of(api.sim_step(json{{"id", a["id"]}, {"ticks", 10}}.dump()));
    sb = body_of(api.sim_step(json{{"id", b["id"]}, {"ticks", 10}}.dump()));
    ASSERT_EQ(sa["agents"], sb["agents"]) << i;
  }
  EXPECT_EQ(sa["tick"], 200);
  EXPECT_GT(sa["agents"][0][0].get<double>(), 3.5 + 10);  // moving right, far along
  EXPECT_LT(sa["agents"][1][0].get<double>(), 28.5 - 10);  // moving left
  EXPECT_EQ(sa["stats"]["collisions"], 0);

  const json added = body_of(api.sim_add(json{{"id", a["id"]}, {"start", {5.5, 5.5}}, {"goal", {20.5, 20.5}}}.dump()));
  EXPECT_EQ(added["agents"].size(), 3u);
  EXPECT_EQ(api.sim_add(json{{"id", a["id"]}, {"start", {6.5, 5.5}}, {"goal", {20.5, 20.5}}}.dump()).status, 413);
  EXPECT_EQ(api.sim_add(json{{"id", b["id"]}, {"start", {-1, 5.5}}, {"goal", {20.5, 20.5}}}.dump()).status, 400);
  EXPECT_EQ(api.sim_add(json{{"id", b["id"]}, {"start", {5.5, 5.5}}, {"goal", {20.5, 20.5}}, {"radius", -1}}.dump()).status, 400);
  EXPECT_EQ(api.sim_step(json{{"id", a["id"]}, {"ticks", 100000}}.dump()).status, 400);
  EXPECT_EQ(api.sim_step(json{{"id", 999}}.dump()).status, 404);
  EXPECT_EQ(api.sim_step(json{{"id", "a"}}.dump()).status, 400);

  EXPECT_EQ(api.sim_stop(json{{"id", a["id"]}}.dump()).status, 200);
  EXPECT_EQ(api.sim_step(json{{"id", a["id"]}}.dump()).status, 404);
  const json again = body_of(api.sim_start(start.dump()));  // room again
  json walled = start;
  walled["map"]["rows"][12] = std::string(32, '@');
  EXPECT_EQ(api.sim_start(walled.dump()).status, 429);  // full: refused before any work
  EXPECT_EQ(api.sim_stop(json{{"id", again["id"]}}.dump()).status, 200);
  EXPECT_EQ(api.sim_start(walled.dump()).status, 400);  // an agent starts in a wall
  EXPECT_EQ(api.handle(Request{"GET", "/api/sim/step", {}, ""}).status, 405);
  EXPECT_EQ(api.handle(Request{"POST", "/api/sim/fly", {}, "{}"}).status, 404);
  ApiLimits tiny;
  tiny.max_sim_map_cells = 100;
  EXPECT_EQ(Api(data, tiny).sim_start(start.dump()).status, 413);  // 32×24 cells
}

// Issue 41: one client (a remote address, Request::client) held every simulation and every
// edited level for sim_idle_seconds; it keeps max_client_session_share of each kind now.
TEST(WebApi, OneClientKeepsAShareOfEachKindOfSession) {
  ApiLimits limits;
  limits.max_simulations = 4;
  limits.max_navmesh_sessions = 2;
  const Api api(data, limits);
  const std::string sim = json{{"map", {{"width", 4}, {"height", 4}, {"rows", {"....", "....", "....", "...."}}}}}.dump();
  const auto start = [&](const std::string& client) { return api.handle(Request{"POST", "/api/sim/start", {}, sim, client}); };
  EXPECT_EQ(start("10.0.0.1").status, 200);
  EXPECT_EQ(start("10.0.0.1").status, 200);
  const Response third = start("10.0.0.1");  // half of 4
  EXPECT_EQ(third.status, 429);
  EXPECT_NE(body_of(third)["error"].get<std::string>().find("this client keeps 2 of the server's 4 simulations already"),
            std::string::npos)
      << third.body;
  EXPECT_NE(third.body.find("max_client_session_share"), std::string::npos) << third.body;
  EXPECT_EQ(start("10.0.0.2").status, 200);
  EXPECT_EQ(api.sim_start(sim).status, 200);  // no client: no share of its own, the store's room only
  EXPECT_EQ(start("10.0.0.3").status, 429);   // full
  EXPECT_NE(body_of(start("10.0.0.3"))["error"].get<std::string>().find("the server keeps 4 simulations already"), std::string::npos);

  const std::string level = json{{"mesh", "nav_test"}, {"at", {-1.564062, -20.452827}}, {"radius", 0.5}}.dump();
  const auto edit = [&](const std::string& client) { return api.handle(Request{"POST", "/api/navmesh/obstacle", {}, level, client}); };
  const Response first = edit("10.0.0.1");
  ASSERT_EQ(first.status, 200) << first.body;
  const Response second = edit("10.0.0.1");  // half of 2
  EXPECT_EQ(second.status, 429);
  EXPECT_NE(second.body.find("this client keeps 1 of the server's 2 edited levels already"), std::string::npos) << second.body;
  // Its own level it edits on: the share counts levels, not obstacles.
  EXPECT_EQ(api.handle(Request{"POST", "/api/navmesh/obstacle", {},
                               json{{"session", body_of(first)["session"]}, {"at", {-1.564062, -20.452827}}, {"radius", 0.5}}.dump(),
                               "10.0.0.1"})
                .status,
            200);
  EXPECT_EQ(edit("10.0.0.2").status, 200);
}

// Issue 41: HEAD on an API GET was 405; it is answered as GET (the server drops the body).
TEST(WebApi, HeadIsAnsweredAsGet) {
  const Api api(data);
  const Response head = api.handle(Request{"HEAD", "/api/maps", {}, ""});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, api.maps().body);
  EXPECT_EQ(api.handle(Request{"HEAD", "/api/map", {{"name", "arena"}}, ""}).status, 200);
  const Response post_route = api.handle(Request{"HEAD", "/api/path", {}, ""});
  EXPECT_EQ(post_route.status, 405);
  EXPECT_NE(post_route.body.find("takes POST, not HEAD"), std::string::npos) << post_route.body;
}

// Issue 41: refusals wrote their limits with std::to_string ("8.000000") or as JSON ("20.0").
TEST(WebApi, RefusalsWriteTheirLimitsAsNumbersRead) {
  const Api api(data);
  const json started = body_of(api.sim_start(json{{"map", {{"width", 16}, {"height", 16}, {"rows", json(std::vector<std::string>(16, std::string(16, '.')))}}}}.dump()));
  ASSERT_TRUE(started.contains("id")) << started;
  const Response box = api.sim_obstacle(json{{"id", started["id"]}, {"box", {1, 1, 12, 12}}}.dump());
  EXPECT_EQ(box.status, 400);
  EXPECT_NE(box.body.find("sides of at most 8\""), std::string::npos) << box.body;
  const Response agent = api.sim_add(json{{"id", started["id"]}, {"start", {1.5, 1.5}}, {"goal", {5.5, 5.5}}, {"radius", 9}}.dump());
  EXPECT_EQ(agent.status, 400);
  EXPECT_NE(agent.body.find("radius must be in (0, 4] world units and max_speed in (0, 100] units/s"), std::string::npos) << agent.body;
  const Response big = api.navmesh_obstacle(json{{"mesh", "nav_test"}, {"at", {-1.564062, -20.452827}}, {"radius", 1e6}}.dump());
  EXPECT_EQ(big.status, 400);
  EXPECT_NE(big.body.find("radius: must be in (0, 20] world units"), std::string::npos) << big.body;
  const Response side = api.navmesh_obstacle(
      json{{"mesh", "nav_test"}, {"at", {-1.564062, -20.452827}}, {"shape", "box"}, {"size", {1, 1, 99}}}.dump());
  EXPECT_EQ(side.status, 400);
  EXPECT_NE(side.body.find("must be a number in (0, 20]"), std::string::npos) << side.body;
  for (const Response* r : {&box, &agent, &big, &side}) EXPECT_EQ(r->body.find(".000000"), std::string::npos) << r->body;
}

TEST(WebApi, SimulationAgentsArePlannedWhenAdded) {
  // Long paths on den520d, more agents than the request queue runs searches at once: every
  // one is planned before the answer (one queue frame would leave most of them waiting).
  const Api api(data);
  const json rows = body_of(api.map("den520d"))["rows"];
  std::vector<std::array<double, 2>> free;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const std::string row = rows[y];
    for (std::size_t x = 0; x < row.size(); ++x) {
      if (row[x] == '.') free.push_back({static_cast<double>(x) + 0.5, static_cast<double>(y) + 0.5});
    }
  }
  ASSERT_GT(free.size(), 1000u);
  json agents = json::array();
  const std::size_t n = 12;
  for (std::size_t i = 0; i < n; ++i) {
    agents.push_back({{"start", free[i * 37]}, {"goal", free[free.size() - 1 - i * 37]}});
  }
  const json started = body_of(api.sim_start(json{{"map", {{"name", "den520d"}}}, {"agents", agents}}.dump()));
  ASSERT_TRUE(started.contains("id")) << started;
  EXPECT_EQ(started["stats"]["waiting"], 0) << started["stats"];
  const json added = body_of(api.sim_add(json{{"id", started["id"]}, {"start", free[5]}, {"goal", free[free.size() - 6]}}.dump()));
  EXPECT_EQ(added["stats"]["waiting"], 0) << added["stats"];
  const json stepped = body_of(api.sim_step(json{{"id", started["id"]}, {"ticks", 1}}.dump()));
  for (std::size_t i = 0; i <= n; ++i) {  // every agent has a path, so every one starts moving
    EXPECT_NE(stepped["agents"][i], added["agents"][i]) << i;
  }
  EXPECT_EQ(api.sim_stop(json{{"id", started["id"]}}.dump()).status, 200);
}

TEST(WebApi, RegionsAndVisibility) {
  const Api api(data);
  const json r = body_of(api.regions(R"({"map":{"name":"arena"},"seeds":[[3,3],[40,40]],"metric":"geodesic"})"));
  ASSERT_EQ(r["regions"], 2) << r;
  const auto map = waymark::io::load_movingai_map(data + "/maps/arena.map");
  std::size_t labelled = 0;
  for (std::size_t i = 0; i < r["labels"].size(); ++i) {
    const int x = static_cast<int>(i % 49);
    const int y = static_cast<int>(i / 49);
    if (!map.passable(x, y)) {
      EXPECT_EQ(r["labels"][i], -1);
    }
    labelled += r["labels"][i] != -1;
  }
  EXPECT_EQ(r["labels"][3 * 49 + 3], 0);
  EXPECT_EQ(r["labels"][40 * 49 + 40], 1);
  EXPECT_EQ(r["sizes"][0].get<std::size_t>() + r["sizes"][1].get<std::size_t>(), labelled);
  EXPECT_EQ(api.regions(R"({"map":{"name":"arena"},"seeds":[[0,0]]})").status, 400);  // a wall
  EXPECT_EQ(api.regions(R"({"map":{"name":"arena"},"seeds":[[3,3],[3,3]]})").status, 400);  // a repeat
  EXPECT_EQ(api.regions(R"({"map":{"name":"arena"},"seeds":[]})").status, 400);
  EXPECT_EQ(api.regions(R"({"map":{"name":"arena"},"seeds":[[3,3]],"metric":"manhattan"})").status, 400);

  // README's visibility query: (2,2) to (38,28) among rooms.json, radius 0.5.
  const json v = body_of(api.visibility(R"({"name":"rooms","radius":0.5,"from":[2,2],"to":[38,28]})"));
  ASSERT_TRUE(v.contains("path")) << v;
  EXPECT_EQ(v["path"]["status"], "success");
  EXPECT_GE(v["path"]["length"].get<double>(), std::hypot(36.0, 26.0));
  EXPECT_GT(v["edges"].size(), 0u);
  EXPECT_GE(v["parts"].size(), v["obstacles"].size());
  const json none = body_of(api.visibility(R"({"name":"rooms","radius":0})"));
  EXPECT_FALSE(none.contains("path"));
  EXPECT_EQ(none["parts"].size(), none["obstacles"].size());  // radius 0: nothing inflated
  EXPECT_EQ(api.visibility(R"({"name":"rooms","radius":-1})").status, 400);
  EXPECT_EQ(api.visibility(R"({"name":"atlantis"})").status, 404);
  EXPECT_EQ(api.visibility(R"({"name":"rooms","from":[2,2]})").status, 400);
}

}  // namespace
}  // namespace web_api_test
