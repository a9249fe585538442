// The viewer's API from several threads at once, as the server's worker pool calls it: the
// road graph and navmeshes built on first use by whichever request comes first, shared
// simulations stepped and grown, grid queries; every thread gets the single-thread answers.
// Edited copies of a level (POST /api/navmesh/obstacle) stay apart.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <thread>
#include <vector>

#include "web/api.hpp"

namespace web_api_concurrency_test {
namespace {

using nlohmann::json;

TEST(Concurrency, WebApiAnswersEveryThreadAlike) {
  const waymark::web::Api api(WAYMARK_DATA_DIR);
  const std::string route = R"({"from":10,"to":5000,"algorithms":["ch","alt"]})";
  const std::string nav = R"({"mesh":"nav_test","from":[-1.564062,-20.452827],"to":[19.181122,3.011776]})";
  const std::string path = R"({"map":{"name":"arena"},"from":[3,3],"to":[40,40]})";
  json rows = json::array();
  for (int y = 0; y < 16; ++y) rows.push_back(std::string(16, '.'));
  const json sim = json::parse(api.sim_start(json{{"map", {{"width", 16}, {"height", 16}, {"rows", rows}}}}.dump()).body);
  ASSERT_TRUE(sim.contains("id")) << sim;

  constexpr int threads = 4;
  constexpr int rounds = 6;
  std::vector<std::vector<std::string>> answers(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        auto& out = answers[static_cast<std::size_t>(t)];
        out.push_back(api.route(route).body);
        const json n = json::parse(api.navmesh_path(nav).body);
        out.push_back(n["shortest"]["length"].dump());
        out.push_back(json::parse(api.path(path).body)["cost"].dump());
        EXPECT_EQ(api.sim_add(json{{"id", sim["id"]}, {"start", {0.5 + t, 0.5 + r}}, {"goal", {15.5 - t, 15.5 - r}}}.dump()).status, 200);
        EXPECT_EQ(api.sim_step(json{{"id", sim["id"]}, {"ticks", 2}}.dump()).status, 200);
        // Starting and stopping simulations of their own meanwhile (the idle sweep reads every
        // session's last use while others step).
        const json own = json::parse(api.sim_start(json{{"map", {{"width", 16}, {"height", 16}, {"rows", rows}}}}.dump()).body);
        if (own.contains("id")) {
          EXPECT_EQ(api.sim_stop(json{{"id", own["id"]}}.dump()).status, 200);
        }
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (int t = 1; t < threads; ++t) {
    // The route bodies carry timings: compare the costs and paths only.
    ASSERT_EQ(answers[static_cast<std::size_t>(t)].size(), answers[0].size());
    for (std::size_t i = 0; i < answers[0].size(); ++i) {
      if (i % 3 == 0) {
        const json a = json::parse(answers[0][i]);
        const json b = json::parse(answers[static_cast<std::size_t>(t)][i]);
        ASSERT_TRUE(a.contains("results") && a["results"].size() == 2) << a;
        for (std::size_t k = 0; k < a["results"].size(); ++k) {
          EXPECT_EQ(a["results"][k]["cost"], b["results"][k]["cost"]);
          EXPECT_EQ(a["results"][k]["path"], b["results"][k]["path"]);
        }
      } else {
        EXPECT_EQ(answers[0][i], answers[static_cast<std::size_t>(t)][i]) << i;
      }
    }
  }
  const json state = json::parse(api.sim_step(json{{"id", sim["id"]}}.dump()).body);
  EXPECT_EQ(state["agents"].size(), static_cast<std::size_t>(threads * rounds));
  EXPECT_EQ(state["tick"], threads * rounds * 2 + 1);
}

/// Pages editing their own copies of one level at once, while others plan on the level as
/// built: nobody sees another's obstacles, and each copy with its obstacle removed plans the
/// first path again.
TEST(Concurrency, EditedLevelsAreKeptApart) {
  const waymark::web::Api api(WAYMARK_DATA_DIR);
  const json query = {{"mesh", "nav_test"}, {"from", {-1.564062, -2.369926, -20.452827}}, {"to", {19.181122, -2.368134, 3.011776}}};
  const json first = json::parse(api.navmesh_path(query.dump()).body);
  ASSERT_EQ(first["shortest"]["status"], "success") << first;
  const json& c = first["shortest"]["corners"];
  json middle = json::array();
  for (std::size_t k = 0; k < 3; ++k) middle.push_back((c[0][k].get<double>() + c[1][k].get<double>()) / 2);

  constexpr int threads = 3;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      if (t == 0) {  // plans on the level as built throughout
        for (int r = 0; r < 6; ++r)
          EXPECT_EQ(json::parse(api.navmesh_path(query.dump()).body)["shortest"]["corners"], first["shortest"]["corners"]);
        return;
      }
      const json added = json::parse(api.navmesh_obstacle(json{{"mesh", "nav_test"}, {"at", middle}, {"radius", 1.5}}.dump()).body);
      ASSERT_TRUE(added.contains("session")) << added;
      ASSERT_EQ(added["level"]["obstacles"].size(), 1u);  // its own only
      json own = query;
      own["session"] = added["session"];
      const json around = json::parse(api.navmesh_path(own.dump()).body);
      EXPECT_NE(around["shortest"]["corners"], first["shortest"]["corners"]);
      EXPECT_EQ(api.navmesh_obstacle_remove(json{{"session", added["session"]}, {"id", added["id"]}}.dump()).status, 200);
      EXPECT_EQ(json::parse(api.navmesh_path(own.dump()).body)["shortest"]["corners"], first["shortest"]["corners"]);
      EXPECT_EQ(api.navmesh_stop(json{{"session", added["session"]}}.dump()).status, 200);
    });
  }
  for (std::thread& th : pool) th.join();
}

}  // namespace
}  // namespace web_api_concurrency_test
