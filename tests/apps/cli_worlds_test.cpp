// The commands on worlds other than a plain grid search: `waymark navmesh` (OBJ meshes),
// `waymark visibility` (polygon obstacles) and `waymark regions` (a map cut around seeds).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>

#include "apps/cli_support.hpp"
#include "support/link_levels.hpp"

namespace waymark::apps_cli_worlds_test {
namespace {

using test::CliRun;
using test::data;
using test::expect_png;
using test::json_lines;
using test::run;
using test::temp_file;

TEST(Cli, NavmeshQueriesJsonHasTheDocumentedShape) {
  const CliRun r = run("navmesh --obj " + data + "/meshes/nav_test.obj --queries " + data + "/meshes/nav_mesh_test.txt --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 22u);  // 21 queries, then the summary
  for (std::size_t i = 0; i < 21; ++i) {
    EXPECT_EQ(lines[i]["status"], "success");
    EXPECT_GT(lines[i]["length"].get<double>(), 0);
    EXPECT_GE(lines[i]["corners"].get<int>(), 2);
    EXPECT_GE(lines[i]["polys"].get<int>(), 1);
  }
  EXPECT_EQ(lines[21]["queries"], 21);
  EXPECT_GT(lines[21]["mean_us"].get<double>(), 0);
  EXPECT_GT(lines[21]["build_ms"].get<double>(), 0);
}

// --tile-size: Recast's tiled pipeline, stitched; the path crosses tiles and is as long as
// Detour's straight path on the solo mesh (60.32) within the tiles' different polygons.
TEST(Cli, NavmeshTileSizeBuildsStitchedTiles) {
  const std::string obj = data + "/meshes/nav_test.obj";
  CliRun r = run("navmesh --obj " + obj + " --tile-size 32 --queries " + data + "/meshes/nav_mesh_test.txt");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("21 queries: 21 succeeded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("271 polygons"), std::string::npos) << r.out;  // 66 tiles' polygons (solo: 153)
  r = run("navmesh --obj " + obj + " --tile-size 64 --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("success: length 60.32"), std::string::npos) << r.out;
  r = run("navmesh --obj " + obj + " --build triangles --tile-size 32 --from 0,0,0 --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --tile-size must be >= 0, with --build recast\n");
}

TEST(Cli, NavmeshSingleQueryAndBadInput) {
  const std::string obj = data + "/meshes/nav_test.obj";
  CliRun r = run("navmesh --obj " + obj + " --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("success: length 60.32"), std::string::npos) << r.out;  // as Detour's straight path
  r = run("navmesh --obj " + obj + " --build triangles --from 100,0,100 --to 0,0,0");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("not within 2,4,2 of a polygon"), std::string::npos) << r.out;
  const std::string bad = temp_file("bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
  r = run("navmesh --obj " + bad + " --from 0,0,0 --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + bad + ":3: face corner '3' names vertex 3, but 2 vertices are defined before this line\n");
  const std::string wall = temp_file("wall.obj", "v 0 0 0\nv 0 5 0\nv 5 0 5\nf 1 2 3\n");
  r = run("navmesh --obj " + wall + " --from 0,0,0 --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + wall + ": no walkable area: Recast made no polygons: no triangle faces up within agent_max_slope "
                   "(45 degrees; --agent-slope)\n");
  r = run("navmesh --obj " + obj + " --from 0,0,nan --to 1,0,0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --from must be 3 finite numbers x,y,z, got '0,0,nan'\n");
  r = run("navmesh --obj " + obj + " --from 0,0,0 --to 1,0,0 --cell-size -1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + obj + ": Recast parameter cell_size must be > 0 and at most recast::max_cell_size (1000000)\n");
}

TEST(Cli, NavmeshLinksFileIsUsedAndReported) {
  const std::string obj = temp_file("two_storey.obj", test::two_storey_obj);
  // RecastDemo's .gset: the mesh and settings lines are skipped; `c` is the block's drop-down.
  const std::string links = temp_file("two_storey.gset", "f two_storey.obj\nc 14.7 3 5  16 0 5  0.6 0 5 8\n");
  const std::string query = "navmesh --obj " + obj + " --from 6,3,5 --to 2,0,15";
  CliRun r = run(query + " --links " + links + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["status"], "success");
  ASSERT_EQ(lines[0]["links"].size(), 1u);
  EXPECT_EQ(lines[0]["links"][0]["link"], 0);
  EXPECT_EQ(lines[0]["links"][0]["user_id"], 0);
  EXPECT_GE(lines[0]["links"][0]["corner"].get<int>(), 1);
  r = run(query);  // without the link: no way down
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string bad = temp_file("bad.gset", "c 14.7 3 5 16 0 5 0.6 2 5 8\n");
  r = run(query + " --links " + bad);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + bad + ":1: link direction must be 0 (one way) or 1 (both ways), got '2'\n");
}

TEST(Cli, NavmeshPngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_navmesh.png";
  std::filesystem::remove(png);
  const std::string query = "navmesh --obj " + data + "/meshes/nav_test.obj --from -1.564062,-2.369926,-20.452827 --to 19.181122,-2.368134,3.011776 --png ";
  CliRun r = run(query + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  expect_png(png);
  r = run(query + ::testing::TempDir() + "/no/such/dir/x.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("cannot write picture to"), std::string::npos) << r.out;
}

TEST(Cli, NavmeshModesOrderTheirLengths) {
  const std::string query = "navmesh --obj " + data + "/meshes/nav_test.obj --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742 --json --mode ";
  double length[3];
  int i = 0;
  for (const char* mode : {"shortest", "funnel", "centroids"}) {
    const CliRun r = run(query + mode);
    ASSERT_EQ(r.exit_code, 0) << mode << r.out;
    const auto lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["status"], "success");
    length[i++] = lines[0]["length"].get<double>();
  }
  EXPECT_LE(length[0], length[1] + 1e-9);  // shortest ≤ funnel
  EXPECT_GT(length[2], length[1]);         // the centroid chain is the longest
  const CliRun r = run(query + "middle");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --mode must be shortest, funnel or centroids, got 'middle'\n");
}

TEST(Cli, VisibilityJsonHasTheDocumentedShape) {
  const std::string rooms = data + "/polygons/rooms.json";
  const CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --radius 0.5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "success");
  const auto& path = j["path"];
  ASSERT_GE(path.size(), 3u);  // the wall's door lies off the straight line
  EXPECT_EQ(path.front(), nlohmann::json::array({2.0, 2.0}));
  EXPECT_EQ(path.back(), nlohmann::json::array({38.0, 28.0}));
  double length = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    length += std::hypot(path[i][0].get<double>() - path[i - 1][0].get<double>(),
                         path[i][1].get<double>() - path[i - 1][1].get<double>());
  }
  EXPECT_NEAR(j["length"].get<double>(), length, 1e-9);
  EXPECT_GT(length, 45.1706);  // longer than with radius 0 (below)
  EXPECT_GT(j["points"].get<int>(), 30);
  EXPECT_GT(j["edges"].get<int>(), 0);
  EXPECT_GT(j["overlay_arcs"].get<int>(), 0);
  EXPECT_GT(j["expanded"].get<int>(), 0);
  EXPECT_TRUE(j["time_us"].is_number());
  EXPECT_TRUE(j["build_ms"].is_number());
}

TEST(Cli, VisibilityTextAndNoPath) {
  const std::string rooms = data + "/polygons/rooms.json";
  CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // Round the pillar's top, through the door at the wall's end, round the L: 6√2 + 10 + 2√85 + 2√17.
  EXPECT_NE(r.out.find("success: length 45.1706, 5 points\npath: 2,2 8,8 16,14 30,26 38,28\n"), std::string::npos) << r.out;
  // The door is 4 wide: an agent of radius 2.5 cannot pass.
  r = run("visibility --polygons " + rooms + " --from 3,11 --to 37,27 --radius 2.5");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out.substr(0, 17), "failure: no path\n");
  r = run("visibility --polygons " + rooms + " --from 3,11 --to 37,27 --radius 2.5 --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "failure");
  EXPECT_TRUE(j["length"].is_null());
  EXPECT_TRUE(j["path"].empty());
}

TEST(Cli, VisibilityBadInputExitsTwoWithAReason) {
  const std::string rooms = data + "/polygons/rooms.json";
  const auto expect_bad = [](const std::string& args, const std::string& message) {
    const CliRun r = run("visibility " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "waymark: " + message + "\n") << args;
  };
  // A start or goal the agent cannot stand on is bad input, with the obstacle's line.
  expect_bad("--polygons " + rooms + " --from 8,5 --to 38,28 --radius 0.5",
             "--from 8,5 lies inside obstacle 3 (" + rooms + ":7) inflated by radius 0.5");
  expect_bad("--polygons " + rooms + " --from 2,2 --to 15.8,14.5",
             "--to 15.8,14.5 lies inside obstacle 0 (" + rooms + ":4) inflated by radius 0");
  expect_bad("--polygons " + rooms + " --from 1,1 --to 38,28 --radius 2",
             "--from 1,1 lies outside the bounds (" + rooms + ":2) shrunk by radius 2");
  expect_bad("--polygons " + rooms + " --from 3,11 --to 37,27 --radius 3",
             rooms + ":12: point 0 (18, 12) lies inside obstacle 0 inflated by radius 3");
  expect_bad("--polygons " + rooms + " --from 3,nan --to 1,1", "--from must be 2 finite numbers x,y, got '3,nan'");
  expect_bad("--polygons " + rooms + " --from 3,1,2 --to 1,1", "--from must be 2 finite numbers x,y, got '3,1,2'");
  expect_bad("--polygons " + rooms + " --from 3,1 --to 1,1 --radius -1", "--radius must be a finite number from 0 to 1e6, got -1");
  expect_bad("--polygons " + rooms + " --from 3,1 --to 1,1 --arc-step 120", "--arc-step must be from 1 to 90 degrees, got 120");
  const std::string bow = temp_file("bow.json", "{\"polygons\": [\n  [[0,0],[2,2],\n   [2,0],[0,2]]\n]}\n");
  expect_bad("--polygons " + bow + " --from 5,5 --to 6,6", bow + ":3: polygons[0]: edges 0-1 and 2-3 cross or touch (not a simple polygon)");
  const std::string nan = temp_file("nan.json", "{\"polygons\": [[[0,0],[1,0],[0,NaN]]]}");
  expect_bad("--polygons " + nan + " --from 5,5 --to 6,6", nan + ":1: invalid JSON: NaN is not a JSON number (JSON numbers are finite)");
  const std::string missing = temp_file("missing.json", "{\"points\": []}\n");
  expect_bad("--polygons " + missing + " --from 5,5 --to 6,6", missing + ": missing key \"polygons\"");
  expect_bad("--polygons " + data + "/nope.json --from 5,5 --to 6,6", data + "/nope.json: cannot open file");
  // The build's budgets (issue 32): over one, exit 2 naming it.
  const CliRun over = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --max-edges 10");
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_EQ(over.out, "waymark: " + rooms + ": the visibility graph has more than 10 edges (VisibilityParams::max_edges, "
                                             "CLI --max-edges) after 1 of 30 points: raise the limit, or use fewer points\n");
  // With --json, what it finished first (issue 41), then the same line.
  const CliRun stopped = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --max-edges 10 --json");
  EXPECT_EQ(stopped.exit_code, 2);
  EXPECT_EQ(stopped.out.rfind("{\"status\":\"stopped\",\"reason\":\"max-edges\",\"limit\":10,\"points\":30,\"points_done\":1,"
                              "\"edges_found\":10,\"build_ms\":",
                              0),
            0u)
      << stopped.out;
  EXPECT_NE(stopped.out.find("\nwaymark: " + rooms + ": the visibility graph has more than 10 edges"), std::string::npos)
      << stopped.out;
  // The build is bounded by default: --help names the time limit's default.
  EXPECT_NE(run("visibility --help").out.find("--time-limit FLOAT=60 "), std::string::npos);
  expect_bad("--polygons " + rooms + " --from 2,2 --to 38,28 --max-edges 0", "--max-edges must be an integer from 1 to " +
                                                                                  std::to_string(INT64_MAX) + ", got 0");
  expect_bad("--polygons " + rooms + " --from 2,2 --to 38,28 --time-limit -1",
             "--time-limit must be a number of seconds from 0 (none) to 604800, got -1");
  EXPECT_EQ(run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --time-limit 60").exit_code, 0);
}

TEST(Cli, RegionsJsonHasTheDocumentedShapeAndPngIsWritten) {
  const std::string png = ::testing::TempDir() + "/waymark_cli_regions.png";
  std::filesystem::remove(png);
  const std::string arena = data + "/maps/arena.map";
  for (const char* metric : {"", " --geodesic"}) {
    const CliRun r = run("regions --map " + arena + " --seeds '8,8;40,8;24,24;8,40;40,40' --json --png " + png + metric);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["regions"], 5);
    EXPECT_EQ(j["metric"], *metric == '\0' ? "euclidean" : "geodesic");
    ASSERT_EQ(j["cells"].size(), 5u);
    int cells = 0;
    for (const auto& c : j["cells"]) cells += c.get<int>();
    EXPECT_EQ(cells, 2054);  // arena.map's passable cells: every one in a region
    EXPECT_EQ(j["unreached"], 0);
    ASSERT_FALSE(j["adjacency"].empty());
    for (const auto& pair : j["adjacency"]) EXPECT_LT(pair[0].get<int>(), pair[1].get<int>());
    EXPECT_TRUE(j["ms"].is_number());
    expect_png(png);
  }
}

TEST(Cli, RegionsSeedsFileTextScenAndUnreachedCellsExitOne) {
  const std::string seeds = temp_file("arena.seeds", "# two seeds\n8 8\n40,40\n");
  const CliRun text = run("regions --map " + data + "/maps/arena.map --seeds-file " + seeds + " --geodesic");
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("2 geodesic regions"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("region 1 seed (40,40)"), std::string::npos) << text.out;
  // Coarse-then-fine against A* on the scenario: every query solved, never below the optimum.
  const CliRun scen = run("regions --map " + data + "/maps/arena.map --seeds-file " + seeds +
                          " --geodesic --json --scen " + data + "/maps/arena.map.scen");
  ASSERT_EQ(scen.exit_code, 0) << scen.out;
  const auto plan = nlohmann::json::parse(scen.out)["plan"];
  EXPECT_GT(plan["queries"].get<int>(), 100);
  EXPECT_EQ(plan["both_solved"], plan["solved"]);
  EXPECT_EQ(plan["missed"], 0);
  EXPECT_EQ(plan["cheaper_than_astar"], 0);
  EXPECT_GE(plan["cost_ratio_mean"].get<double>(), 1.0);
  // A wall cuts the right half off the only seed: geodesic regions leave it unreached (exit 1).
  const std::string split = temp_file("regions_split.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
  const CliRun cut = run("regions --map " + split + " --seeds 0,0 --geodesic --json");
  EXPECT_EQ(cut.exit_code, 1) << cut.out;
  EXPECT_EQ(nlohmann::json::parse(cut.out)["unreached"], 3);
  EXPECT_EQ(run("regions --map " + split + " --seeds 0,0 --json").exit_code, 0);  // euclidean: no walls
}

TEST(Cli, RegionsBadInputExitsTwoWithAReason) {
  const std::string map = data + "/maps/den520d.map";
  const std::string bad_seeds = temp_file("bad.seeds", "10 10\n\n20 x\n");
  const std::string far_seeds = temp_file("far.seeds", "# far\n49 42\n400 2\n");
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"regions --map " + map + " --seeds '49,42;96,33;400,2'",
            "waymark: --seeds: seed 3: (400,2) is outside the 256x257 map\n"},
           {"regions --map " + map + " --seeds '49,42;0,0'", "waymark: --seeds: seed 2: (0,0) is a blocked cell\n"},
           {"regions --map " + map + " --seeds '49,42;49,42'", "waymark: --seeds: seed 2: (49,42) repeats seed 1\n"},
           {"regions --map " + map + " --seeds '49,42;x'", "waymark: --seeds: seed 2: expected X,Y (integers), got 'x'\n"},
           {"regions --map " + map + " --seeds-file " + bad_seeds,
            "waymark: " + bad_seeds + ":3: expected a seed 'X Y' or 'X,Y' (integers), got '20 x'\n"},
           {"regions --map " + map + " --seeds-file " + far_seeds,
            "waymark: " + far_seeds + ":3: (400,2) is outside the 256x257 map\n"},
           {"regions --map " + map, "waymark: give either --seeds \"X,Y;X,Y;...\" or --seeds-file FILE\n"},
           {"regions --map " + map + " --seeds 49,42 --seeds-file " + far_seeds,
            "waymark: give either --seeds \"X,Y;X,Y;...\" or --seeds-file FILE\n"},
           {"regions --map /nonexistent.map --seeds 1,1", "waymark: /nonexistent.map: cannot open file\n"},
           {"regions --map " + map + " --seeds 49,42 --diagonal sometimes", "waymark: unknown diagonal rule 'sometimes'\n"},
           {"regions --map " + map + " --seeds 49,42 --corridor-margin 99",
            "waymark: --corridor-margin must be an integer from 0 to 16, got 99\n"},
           // Another map's scenario: the message names both maps, the one given last.
           {"regions --map " + map + " --seeds 49,42 --scen " + data + "/maps/arena.map.scen",
            "waymark: " + data + "/maps/arena.map.scen:2: the scenario's map 'arena.map' is 49x49 but '" + map + "' is 256x257\n"},
       }) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out;
    EXPECT_EQ(r.out, c.expect) << c.args;
  }
}

}  // namespace
}  // namespace waymark::apps_cli_worlds_test
