// The navmesh view's edits through the API, called directly: the bundled level's tile grid,
// an obstacle dropped on a path (the path grows or stops reaching), removed again (the first
// path), sessions kept apart, and every refusal's status.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "web/api.hpp"

namespace web_navmesh_edit_test {
namespace {

using nlohmann::json;
using waymark::web::Api;
using waymark::web::ApiLimits;
using waymark::web::Response;

const std::string data = WAYMARK_DATA_DIR;

json body_of(const Response& r) { return json::parse(r.body); }

/// RecastDemo's first nav_test query.
json first_query() { return {{"mesh", "nav_test"}, {"from", {-1.564062, -2.369926, -20.452827}}, {"to", {19.181122, -2.368134, 3.011776}}}; }

json path_of(const Api& api, json request) {
  const Response r = api.navmesh_path(request.dump());
  EXPECT_EQ(r.status, 200) << r.body;
  return body_of(r);
}

TEST(WebNavmeshEdit, TheLevelComesWithItsTileGrid) {
  const Api api(data);
  const json level = body_of(api.navmesh("nav_test"));
  const json& tiles = level["tiles"];
  const int columns = tiles["columns"];
  const int rows = tiles["rows"];
  EXPECT_GT(columns * rows, 4);  // nav_test is about 200 voxels across: several 32-voxel tiles
  ASSERT_EQ(level["poly_tiles"].size(), level["polys"].size());
  const double size = tiles["size"];
  const double x0 = tiles["origin"][0];
  const double z0 = tiles["origin"][1];
  std::set<int> used;
  for (std::size_t p = 0; p < level["polys"].size(); ++p) {
    const int t = level["poly_tiles"][p];
    ASSERT_GE(t, 0);
    ASSERT_LT(t, columns * rows);
    used.insert(t);
    // Every corner of a polygon lies in its tile's square (its border included).
    const double lo_x = x0 + (t % columns) * size;
    const double lo_z = z0 + (t / columns) * size;
    for (const json& v : level["polys"][p]) {
      const json& xyz = level["vertices"][v.get<std::size_t>()];
      EXPECT_GE(xyz[0].get<double>(), lo_x - 1e-6);
      EXPECT_LE(xyz[0].get<double>(), lo_x + size + 1e-6);
      EXPECT_GE(xyz[2].get<double>(), lo_z - 1e-6);
      EXPECT_LE(xyz[2].get<double>(), lo_z + size + 1e-6);
    }
  }
  EXPECT_GT(used.size(), 1u);
  EXPECT_TRUE(level["links"].is_array());
  EXPECT_TRUE(level["obstacles"].empty());
}

TEST(WebNavmeshEdit, AnObstacleOnThePathIsGoneRoundAndRemovedGivesTheFirstPath) {
  const Api api(data);
  const json before = path_of(api, first_query());
  ASSERT_EQ(before["shortest"]["status"], "success");
  const json& c = before["shortest"]["corners"];
  ASSERT_GE(c.size(), 2u);
  json middle = json::array();
  for (std::size_t k = 0; k < 3; ++k) middle.push_back((c[0][k].get<double>() + c[1][k].get<double>()) / 2);

  const Response added = api.navmesh_obstacle(json{{"mesh", "nav_test"}, {"shape", "cylinder"}, {"at", middle}, {"radius", 1.5}}.dump());
  ASSERT_EQ(added.status, 200) << added.body;
  const json a = body_of(added);
  const auto session = a["session"];
  EXPECT_GT(a["rebuilt"].get<int>(), 0);
  ASSERT_EQ(a["level"]["obstacles"].size(), 1u);
  EXPECT_EQ(a["level"]["obstacles"][0]["id"], a["id"]);
  EXPECT_EQ(a["level"]["obstacles"][0]["shape"], "cylinder");

  json on_session = first_query();
  on_session["session"] = session;
  const json around = path_of(api, on_session);
  for (const char* mode : {"shortest", "funnel"}) {
    const json& m = around[mode];
    const bool longer = m["status"] == "success" && !m["partial"].get<bool>() &&
                        m["length"].get<double>() > before[mode]["length"].get<double>() + 1e-6;
    const bool unreachable = m["status"] != "success" || m["partial"].get<bool>();
    EXPECT_TRUE(longer || unreachable) << mode << ": " << m;
  }
  // Other users see the level as built.
  EXPECT_EQ(path_of(api, first_query())["shortest"]["corners"], before["shortest"]["corners"]);

  // A box too, then both removed: the first path again.
  const Response box = api.navmesh_obstacle(json{{"session", session}, {"shape", "box"}, {"at", {c[0][0], c[0][2]}}, {"size", {1, 2, 1}}}.dump());
  ASSERT_EQ(box.status, 200) << box.body;
  EXPECT_EQ(body_of(box)["level"]["obstacles"].size(), 2u);
  EXPECT_EQ(body_of(box)["level"]["obstacles"][1]["shape"], "box");
  for (const json& id : {a["id"], body_of(box)["id"]}) {
    const Response r = api.navmesh_obstacle_remove(json{{"session", session}, {"id", id}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
  }
  const json after = path_of(api, on_session);
  for (const char* mode : {"shortest", "funnel"}) {
    EXPECT_EQ(after[mode]["corners"], before[mode]["corners"]) << mode;
    EXPECT_DOUBLE_EQ(after[mode]["length"].get<double>(), before[mode]["length"].get<double>()) << mode;
  }
  EXPECT_EQ(api.navmesh_stop(json{{"session", session}}.dump()).status, 200);
  EXPECT_EQ(api.navmesh_path(on_session.dump()).status, 404);
}

TEST(WebNavmeshEdit, RefusalsSayWhy) {
  ApiLimits limits;
  limits.max_navmesh_sessions = 1;
  limits.max_navmesh_obstacles = 1;
  const Api api(data, limits);
  const json at = {-1.564062, -20.452827};
  const auto status = [&](const json& body) {
    const Response r = api.navmesh_obstacle(body.dump());
    return r.status;
  };
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"shape", "cone"}, {"at", at}}), 400);
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"radius", 1e6}, {"at", at}}), 400);
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"radius", -1}, {"at", at}}), 400);
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"shape", "box"}, {"at", at}, {"size", {1, 2}}}), 400);
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"at", {1e9, 1e9}}}), 400);
  EXPECT_EQ(status({{"mesh", "atlantis"}, {"at", at}}), 404);
  EXPECT_EQ(status({{"session", 77}, {"at", at}}), 404);
  const Response first = api.navmesh_obstacle(json{{"mesh", "nav_test"}, {"at", at}, {"radius", 0.5}}.dump());
  ASSERT_EQ(first.status, 200) << first.body;
  const auto session = body_of(first)["session"];
  EXPECT_EQ(status({{"session", session}, {"at", at}}), 413);                          // one obstacle at most
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"at", at}}), 429);                          // one session at most
  EXPECT_EQ(status({{"session", session}, {"mesh", "dungeon"}, {"at", at}}), 400);     // not its level
  EXPECT_EQ(status({{"session", "one"}, {"at", at}}), 400);
  EXPECT_EQ(api.navmesh_obstacle_remove(json{{"session", session}, {"id", 99}}.dump()).status, 404);
  EXPECT_EQ(api.navmesh_obstacle_remove(json{{"id", 1}}.dump()).status, 400);
  EXPECT_EQ(api.navmesh_stop(json{{"session", session}}.dump()).status, 200);
  EXPECT_EQ(api.navmesh_stop(json{{"session", session}}.dump()).status, 404);
  EXPECT_EQ(status({{"mesh", "nav_test"}, {"at", at}}), 200);  // room again
}

}  // namespace
}  // namespace web_navmesh_edit_test
