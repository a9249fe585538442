// The simulation API while it runs (POST /api/sim/edit, obstacle, order, world, and step's
// statuses, corners and paths), called directly: a door closed across an agent's route makes
// it re-plan round the door and still arrive; a crate in the only short corridor sends the
// path the long way; orders change goals and statuses; a navmesh level's agents move; and
// every bad input is refused with its status.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "web/api.hpp"

namespace web_sim_api_test {
namespace {

using nlohmann::json;
using waymark::web::Api;
using waymark::web::ApiLimits;
using waymark::web::Response;

const std::string data = WAYMARK_DATA_DIR;

json body_of(const Response& r) { return json::parse(r.body); }

/// An empty map `w` × `h` as a request gives it.
json empty_map(int w, int h) {
  json rows = json::array();
  for (int y = 0; y < h; ++y) rows.push_back(std::string(static_cast<std::size_t>(w), '.'));
  return {{"width", w}, {"height", h}, {"rows", rows}};
}

/// The answer to `call` on `body` with status 200 (fails the test otherwise).
template <class Call>
json ok(Call call, const json& body) {
  const Response r = call(body.dump());
  EXPECT_EQ(r.status, 200) << body << " -> " << r.body;
  return body_of(r);
}

/// Whether the polyline from `from` through `points` enters a cell of x in [x0, x1), y in
/// [y0, y1), sampled every 0.01 units.
bool crosses(const json& from, const json& points, int x0, int y0, int x1, int y1) {
  double px = from[0], py = from[1];
  for (const json& p : points) {
    const double qx = p[0], qy = p[1];
    const int n = 1 + static_cast<int>(std::hypot(qx - px, qy - py) / 0.01);
    for (int i = 0; i <= n; ++i) {
      const double x = px + (qx - px) * i / n, y = py + (qy - py) * i / n;
      if (x >= x0 && x < x1 && y >= y0 && y < y1) return true;
    }
    px = qx;
    py = qy;
  }
  return false;
}

/// Steps agent 0 of simulation `id` one tick at a time (at most 20) until it moves on a path
/// again (a change of the world makes it plan again in the next step's budget); the last answer.
template <class Step>
json moving_with_path(Step step, const json& id) {
  json s;
  for (int i = 0; i < 20; ++i) {
    s = ok(step, {{"id", id}, {"paths", {0}}});
    if (s["status"][0] == "moving" && !s["paths"][0]["points"].empty()) break;
  }
  return s;
}

TEST(WebSimApi, ADoorClosedOnTheRouteIsWalkedRoundAndTheAgentArrives) {
  const Api api(data);
  const auto step = [&](const std::string& b) { return api.sim_step(b); };
  const auto edit = [&](const std::string& b) { return api.sim_edit(b); };
  const json started = ok([&](const std::string& b) { return api.sim_start(b); },
                          {{"map", empty_map(32, 24)}, {"agents", {{{"start", {3.5, 12.5}}, {"goal", {28.5, 12.5}}}}}});
  ASSERT_TRUE(started.contains("id"));
  EXPECT_EQ(started["kind"], "grid");
  EXPECT_EQ(started["world"], 0);
  const json id = started["id"];
  json s = ok(step, {{"id", id}, {"paths", {0}}});
  EXPECT_EQ(s["status"][0], "moving");
  ASSERT_EQ(s["paths"].size(), 1u);
  EXPECT_EQ(s["paths"][0]["id"], 0);
  const json before = s["paths"][0]["points"];
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(before.back(), json({28.5, 12.5}));  // the goal ends it
  EXPECT_EQ(s["corners"][0], before.front());     // the corner is where the rest begins
  EXPECT_TRUE(crosses(s["agents"][0], before, 16, 4, 17, 21));  // straight across column 16

  // A door closed across the route: column 16, rows 4 to 20.
  const json closed = ok(edit, {{"id", id}, {"block", {16, 4, 17, 21}}});
  EXPECT_EQ(closed["changed"], true);
  EXPECT_EQ(closed["world"], 1);
  EXPECT_EQ(closed["area"], json({16, 4, 17, 21}));
  s = moving_with_path(step, id);
  EXPECT_EQ(s["world"], 1);
  EXPECT_GT(s["map_version"].get<int>(), 0);
  const json after = s["paths"][0]["points"];
  EXPECT_NE(after, before);
  EXPECT_FALSE(crosses(s["agents"][0], after, 16, 4, 17, 21)) << after;
  EXPECT_EQ(after.back(), json({28.5, 12.5}));
  EXPECT_GE(s["stats"]["edit_replans"].get<int>(), 1);
  // The world as it is now: the door's cells are walls.
  const json world = ok([&](const std::string& b) { return api.sim_world(b); }, {{"id", id}});
  for (int y = 0; y < 24; ++y)
    EXPECT_EQ(world["rows"][static_cast<std::size_t>(y)].get<std::string>()[16], y >= 4 && y <= 20 ? '@' : '.') << y;
  EXPECT_EQ(world["obstacles"], json::array());
  // The same edit again changes nothing.
  EXPECT_EQ(ok(edit, {{"id", id}, {"block", {16, 4, 17, 21}}})["changed"], false);

  for (int i = 0; i < 20 && s["status"][0] != "arrived"; ++i) s = ok(step, {{"id", id}, {"ticks", 200}});
  EXPECT_EQ(s["status"][0], "arrived");
  EXPECT_LT(std::hypot(s["agents"][0][0].get<double>() - 28.5, s["agents"][0][1].get<double>() - 12.5), 0.5);
  EXPECT_TRUE(s["corners"][0].is_null() || s["corners"][0] == json({28.5, 12.5})) << s["corners"];
  EXPECT_EQ(ok(edit, {{"id", id}, {"open", {16, 4, 17, 21}}})["world"], 2);
}

TEST(WebSimApi, ACrateInTheShortCorridorSendsThePathTheLongWay) {
  const Api api(data);
  // Two corridors from the left to the right: row 0 and row 2 (row 3 is wall); the agent goes
  // along row 2, the short way, until a crate fills cell (5, 2).
  const json map = {{"width", 11}, {"height", 4}, {"rows", {"...........", ".@@@@@@@@@.", "...........", "@@@@@@@@@@@"}}};
  const json started = body_of(api.sim_start(json{{"map", map}, {"agents", {{{"start", {0.5, 2.5}}, {"goal", {10.5, 2.5}}}}}}.dump()));
  const json id = started["id"];
  const auto obstacle = [&](const std::string& b) { return api.sim_obstacle(b); };
  const auto step = [&](const std::string& b) { return api.sim_step(b); };
  json s = ok(step, {{"id", id}, {"paths", {0}}});
  for (const json& p : s["paths"][0]["points"]) EXPECT_GT(p[1].get<double>(), 2) << s["paths"];
  const json added = ok(obstacle, {{"id", id}, {"box", {5, 2, 6, 3}}});
  ASSERT_TRUE(added["added"].contains("id")) << added;
  EXPECT_EQ(added["added"]["box"], json({5, 2, 6, 3}));
  EXPECT_EQ(added["world"], 1);
  s = moving_with_path(step, id);
  bool top = false;
  for (const json& p : s["paths"][0]["points"]) top |= p[1].get<double>() < 1;
  EXPECT_TRUE(top) << "the only way round is row 0: " << s["paths"];
  const json world = ok([&](const std::string& b) { return api.sim_world(b); }, {{"id", id}});
  ASSERT_EQ(world["obstacles"].size(), 1u);
  EXPECT_EQ(world["obstacles"][0], added["added"]);
  // Taken away again; then its id is no longer one to remove.
  EXPECT_EQ(ok(obstacle, {{"id", id}, {"remove", added["added"]["id"]}})["removed"], added["added"]["id"]);
  EXPECT_EQ(api.sim_obstacle(json{{"id", id}, {"remove", added["added"]["id"]}}.dump()).status, 400);
  EXPECT_EQ(ok([&](const std::string& b) { return api.sim_world(b); }, {{"id", id}})["obstacles"], json::array());
}

TEST(WebSimApi, OrdersChangeGoalsAndStatuses) {
  const Api api(data);
  const json agents = {{{"start", {3.5, 3.5}}, {"goal", {3.5, 20.5}}}, {{"start", {5.5, 3.5}}, {"goal", {5.5, 20.5}}}};
  const json id = body_of(api.sim_start(json{{"map", empty_map(32, 24)}, {"agents", agents}}.dump()))["id"];
  const auto order = [&](const std::string& b) { return api.sim_order(b); };
  const auto step = [&](const std::string& b) { return api.sim_step(b); };
  // Both sent to the far right: their paths end there, and they head there.
  json s = ok(order, {{"id", id}, {"agents", {0, 1}}, {"goal", {28.5, 3.5}}, {"paths", {0, 1}}});
  EXPECT_EQ(s["refused"], json::array());
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(s["paths"][i]["points"].back(), json({28.5, 3.5})) << s["paths"];
  s = ok(step, {{"id", id}, {"ticks", 40}});
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(s["status"][i], "moving");
    EXPECT_GT(s["agents"][i][0].get<double>(), 6.5) << i;  // rightwards, not down to their first goals
    EXPECT_LT(s["agents"][i][1].get<double>(), 6);
  }
  s = ok(order, {{"id", id}, {"agents", {0}}, {"order", "stop"}});
  EXPECT_EQ(s["status"][0], "stopped");
  EXPECT_EQ(s["status"][1], "moving");
  s = ok(order, {{"id", id}, {"agents", {0, 1}}, {"order", "resume"}});
  EXPECT_EQ(s["refused"], json({1}));  // 1 was not stopped
  EXPECT_EQ(s["status"][0], "moving");
  s = ok(order, {{"id", id}, {"agents", {1}}, {"order", "remove"}});
  EXPECT_EQ(s["status"][1], "removed");
  EXPECT_EQ(s["stats"]["agents"], 1);
  EXPECT_EQ(s["stats"]["removed"], 1);
  EXPECT_EQ(s["agents"].size(), 2u);  // ids stay: the answer still lists it
  EXPECT_EQ(ok(order, {{"id", id}, {"agents", {1}}, {"order", "stop"}})["refused"], json({1}));

  const auto refused = [&](const json& body) { return api.sim_order(body.dump()).status; };
  EXPECT_EQ(refused({{"id", id}, {"agents", {7}}, {"order", "stop"}}), 400);  // no agent 7
  EXPECT_EQ(refused({{"id", id}, {"agents", {-1}}, {"order", "stop"}}), 400);
  EXPECT_EQ(refused({{"id", id}, {"agents", 0}, {"order", "stop"}}), 400);
  EXPECT_EQ(refused({{"id", id}, {"order", "stop"}}), 400);  // no agents
  EXPECT_EQ(refused({{"id", id}, {"agents", {0}}, {"order", "dance"}}), 400);
  EXPECT_EQ(refused({{"id", id}, {"agents", {0}}}), 400);  // a goal order without its goal
  EXPECT_EQ(refused({{"id", id}, {"agents", {0}}, {"goal", {40, 3}}}), 400);  // off the map
  EXPECT_EQ(refused({{"id", 999}, {"agents", {0}}, {"order", "stop"}}), 404);
  json many = json::array();
  for (int i = 0; i < 1001; ++i) many.push_back(0);
  EXPECT_EQ(refused({{"id", id}, {"agents", many}, {"order", "stop"}}), 400);  // over max_sim_agents
  json paths = json::array();
  for (int i = 0; i < 65; ++i) paths.push_back(0);
  EXPECT_EQ(api.sim_step(json{{"id", id}, {"paths", paths}}.dump()).status, 400);  // over 64 paths
  EXPECT_EQ(api.sim_step(json{{"id", id}, {"paths", {2}}}.dump()).status, 400);
}

/// Seconds since `t`.
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Issue 32: 1,000 agents stacked on one cell took 12-29 s for a step of 200 ticks. A step stops
// after the tick that reaches max_sim_seconds and says how many it did; the next goes on from
// there. (A tick of this crowd: about 0.1-0.2 s in the release build, the first the slowest.)
TEST(WebSimApi, AStepStopsAtItsTimeBudgetAndAnswersTheTicksDone) {
  ApiLimits limits;
  limits.max_sim_seconds = 0.2;
  const Api api(data, limits);
  json agents = json::array();
  for (int i = 0; i < 1000; ++i) agents.push_back({{"start", {10.5, 10.5}}, {"goal", {50.5, 50.5}}});
  const json started = ok([&](const std::string& b) { return api.sim_start(b); }, {{"map", empty_map(64, 64)}, {"agents", agents}});
  const json id = started["id"];
  const auto step = [&](const std::string& b) { return api.sim_step(b); };
  auto t = std::chrono::steady_clock::now();
  const json first = ok(step, {{"id", id}});
  const double one_tick = since(t);
  EXPECT_EQ(first["ticks_done"], 1);
  EXPECT_EQ(first["tick"], 1);
  EXPECT_FALSE(first.contains("stopped"));
  t = std::chrono::steady_clock::now();
  const json cut = ok(step, {{"id", id}, {"ticks", 200}});
  const double took = since(t);
  const int done = cut["ticks_done"];
  EXPECT_GE(done, 1);
  EXPECT_LT(done, 200);
  EXPECT_EQ(cut["stopped"], "time-limit");
  EXPECT_EQ(cut["tick"], 1 + done);  // the state after the ticks done, and nothing else
  EXPECT_EQ(cut["agents"].size(), 1000u);
  EXPECT_EQ(cut["status"].size(), 1000u);
  // Stopped after the tick that crossed the budget (later ticks are no slower than the first;
  // half a second more for a busy machine).
  EXPECT_LT(took, limits.max_sim_seconds + 2 * one_tick + 0.5) << done << " ticks, one tick " << one_tick << " s";
  RecordProperty("first_tick_ms", static_cast<int>(one_tick * 1000));
  RecordProperty("cut_step_ms", static_cast<int>(took * 1000));
  RecordProperty("ticks_done", done);
  EXPECT_EQ(ok(step, {{"id", id}})["tick"], 2 + done);
  EXPECT_EQ(api.sim_stop(json{{"id", id}}.dump()).status, 200);

  // A step within the budget does every tick asked for.
  const json lone = ok([&](const std::string& b) { return api.sim_start(b); },
                       {{"map", empty_map(16, 16)}, {"agents", {{{"start", {1.5, 1.5}}, {"goal", {14.5, 14.5}}}}}});
  const json all = ok(step, {{"id", lone["id"]}, {"ticks", 50}});
  EXPECT_EQ(all["ticks_done"], 50);
  EXPECT_EQ(all["tick"], 50);
  EXPECT_FALSE(all.contains("stopped"));
  // More agents than a simulation holds are refused before the map is read.
  agents.push_back(agents[0]);
  const Response many = api.sim_start(json{{"map", {{"name", "no-such-map"}}}, {"agents", agents}}.dump());
  EXPECT_EQ(many.status, 413) << many.body;
}

TEST(WebSimApi, EditsAndObstaclesRefuseBadInput) {
  ApiLimits limits;
  limits.max_sim_obstacles = 2;
  const Api api(data, limits);
  const json id = body_of(api.sim_start(json{{"map", empty_map(32, 24)}}.dump()))["id"];
  const auto edit = [&](const json& body) { return api.sim_edit(body.dump()).status; };
  EXPECT_EQ(edit({{"id", id}, {"block", {0, 0, 33, 1}}}), 400);  // past the right edge
  EXPECT_EQ(edit({{"id", id}, {"block", {-1, 0, 1, 1}}}), 400);
  EXPECT_EQ(edit({{"id", id}, {"block", {5, 5, 5, 6}}}), 400);  // empty
  EXPECT_EQ(edit({{"id", id}, {"block", {0.5, 0, 1, 1}}}), 400);
  EXPECT_EQ(edit({{"id", id}, {"block", {0, 0, 1}}}), 400);
  EXPECT_EQ(edit({{"id", id}, {"block", {"a", 0, 1, 1}}}), 400);
  EXPECT_EQ(edit({{"id", id}, {"block", {0, 0, 1, 1}}, {"open", {0, 0, 1, 1}}}), 400);
  EXPECT_EQ(edit({{"id", id}}), 400);
  EXPECT_EQ(edit({{"id", 999}, {"block", {0, 0, 1, 1}}}), 404);
  EXPECT_EQ(edit({{"id", id}, {"block", {0, 0, 32, 24}}}), 200);  // the whole map at once is bounded

  const auto obstacle = [&](const json& body) { return api.sim_obstacle(body.dump()).status; };
  // Limits in messages are spelt shortest ("8", never std::to_string's "8.000000").
  const Response long_box = api.sim_obstacle(json{{"id", id}, {"box", {1, 1, 10, 2}}}.dump());
  EXPECT_NE(long_box.body.find("sides of at most 8\""), std::string::npos) << long_box.body;
  const Response wide = api.sim_add(json{{"id", id}, {"start", {3.5, 3.5}}, {"goal", {5.5, 3.5}}, {"radius", 9}}.dump());
  EXPECT_EQ(wide.status, 400);
  EXPECT_NE(wide.body.find("in (0, 4] world units and max_speed in (0, 100] units/s"), std::string::npos) << wide.body;
  EXPECT_EQ(obstacle({{"id", id}, {"box", {1, 1, 10, 2}}}), 400);    // 9 long: over 8
  EXPECT_EQ(obstacle({{"id", id}, {"box", {2, 2, 1, 3}}}), 400);     // x0 > x1
  EXPECT_EQ(obstacle({{"id", id}, {"box", {31, 1, 33, 2}}}), 400);   // out of the map
  EXPECT_EQ(obstacle({{"id", id}, {"circle", {5, 5, 0}}}), 400);
  EXPECT_EQ(obstacle({{"id", id}, {"circle", {5, 5, 4.5}}}), 400);   // 9 across
  EXPECT_EQ(obstacle({{"id", id}, {"circle", {5, 5}}}), 400);
  EXPECT_EQ(obstacle({{"id", id}, {"circle", {5, 5, 1}}, {"box", {1, 1, 2, 2}}}), 400);
  EXPECT_EQ(obstacle({{"id", id}}), 400);
  EXPECT_EQ(obstacle({{"id", id}, {"remove", 0}}), 400);  // nothing dropped yet
  EXPECT_EQ(obstacle({{"id", id}, {"remove", "a"}}), 400);
  EXPECT_EQ(obstacle({{"id", id}, {"circle", {5, 5, 1}}}), 200);
  EXPECT_EQ(obstacle({{"id", id}, {"box", {1, 1, 2, 2}}}), 200);
  EXPECT_EQ(obstacle({{"id", id}, {"box", {3, 1, 4, 2}}}), 413);  // two at most
  EXPECT_EQ(api.sim_world(json{{"id", 999}}.dump()).status, 404);
}

TEST(WebSimApi, ANavmeshLevelRunsAndRefusesCellEdits) {
  const Api api(data);
  // RecastDemo's first nav_test query (data/meshes/nav_mesh_test.txt), in plan (x, z).
  const json agent = {{"start", {-1.564062, -20.452827}}, {"goal", {19.181122, 3.011776}}};
  const Response r = api.sim_start(json{{"level", "nav_test"}, {"agents", {agent}}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json started = body_of(r);
  EXPECT_EQ(started["kind"], "navmesh");
  EXPECT_EQ(started["level"], "nav_test");
  EXPECT_EQ(started["stats"]["waiting"], 0);
  EXPECT_FALSE(started.contains("map_version"));
  const json id = started["id"];
  const json s = body_of(api.sim_step(json{{"id", id}, {"ticks", 40}, {"paths", {0}}}.dump()));
  EXPECT_EQ(s["status"][0], "moving");
  const double moved = std::hypot(s["agents"][0][0].get<double>() - started["agents"][0][0].get<double>(),
                                  s["agents"][0][1].get<double>() - started["agents"][0][1].get<double>());
  EXPECT_GT(moved, 2);
  ASSERT_FALSE(s["paths"][0]["points"].empty());
  EXPECT_NEAR(s["paths"][0]["points"].back()[0].get<double>(), 19.181, 0.5);
  EXPECT_NEAR(s["paths"][0]["points"].back()[1].get<double>(), 3.012, 0.5);

  const Response edit = api.sim_edit(json{{"id", id}, {"block", {0, 0, 1, 1}}}.dump());
  EXPECT_EQ(edit.status, 400);
  EXPECT_NE(body_of(edit)["error"].get<std::string>().find("navmesh"), std::string::npos) << edit.body;
  // A crate on the level, taken away again; the level's own walls are not a page's to remove.
  const json crate = body_of(api.sim_obstacle(json{{"id", id}, {"circle", {5, 0, 0.5}}}.dump()));
  ASSERT_TRUE(crate.contains("added")) << crate;
  EXPECT_EQ(api.sim_obstacle(json{{"id", id}, {"remove", 0}}.dump()).status, 400);
  EXPECT_EQ(api.sim_obstacle(json{{"id", id}, {"remove", crate["added"]["id"]}}.dump()).status, 200);
  EXPECT_EQ(api.sim_obstacle(json{{"id", id}, {"circle", {500, 0, 0.5}}}.dump()).status, 400);  // off the level
  const json world = body_of(api.sim_world(json{{"id", id}}.dump()));
  EXPECT_EQ(world["kind"], "navmesh");
  EXPECT_FALSE(world.contains("rows"));
  // A goal off the mesh; a level and a map at once; an unknown level.
  EXPECT_EQ(api.sim_order(json{{"id", id}, {"agents", {0}}, {"goal", {500, 500}}}.dump()).status, 400);
  EXPECT_EQ(api.sim_start(json{{"level", "nav_test"}, {"map", empty_map(4, 4)}}.dump()).status, 400);
  EXPECT_EQ(api.sim_start(json{{"level", "atlantis"}}.dump()).status, 404);
  EXPECT_EQ(api.sim_start(json{{"level", "../etc"}}.dump()).status, 400);
  EXPECT_EQ(api.sim_stop(json{{"id", id}}.dump()).status, 200);
}

}  // namespace
}  // namespace web_sim_api_test
