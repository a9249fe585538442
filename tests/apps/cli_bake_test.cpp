// `waymark bake` and `waymark navmesh --navmesh`: a bake answers as the model it was baked
// from; several agent classes; bad bakes and bad query files are exit 2 with file: reason;
// the exit code says whether every query succeeded.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "apps/cli_support.hpp"
#include "support/doorway_level.hpp"
#include "waymark/navmesh/nav_file.hpp"

namespace waymark::apps_cli_bake_test {
namespace {

using test::CliRun;
using test::data;
using test::json_lines;
using test::run;
using test::temp_file;

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Cli, BakedNavmeshAnswersAsTheModel) {
  const std::string queries = data + "/meshes/nav_mesh_test.txt";
  for (const char* level : {"nav_test", "dungeon"}) {
    const std::string obj = data + "/meshes/" + level + ".obj";
    const std::string wmnav = ::testing::TempDir() + "/waymark_cli_" + level + ".wmnav";
    CliRun r = run("bake --obj " + obj + " --out " + wmnav);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("class '0': radius 0.6, height 2, climb 0.9, slope 45: "), std::string::npos) << r.out;
    for (const char* mode : {"shortest", "funnel"}) {
      const CliRun built = run("navmesh --obj " + obj + " --queries " + queries + " --json --mode " + mode);
      const CliRun loaded = run("navmesh --navmesh " + wmnav + " --queries " + queries + " --json --mode " + mode);
      EXPECT_EQ(built.exit_code, loaded.exit_code);
      const auto a = json_lines(built.out), b = json_lines(loaded.out);
      ASSERT_EQ(a.size(), 22u) << built.out;
      ASSERT_EQ(b.size(), 22u) << loaded.out;
      for (std::size_t i = 0; i < 21; ++i) EXPECT_EQ(a[i], b[i]) << level << " " << mode << " query " << i;
      EXPECT_EQ(b[21]["class"], "0");
      EXPECT_GE(b[21]["load_ms"].get<double>(), 0);
      EXPECT_FALSE(b[21].contains("build_ms"));
      EXPECT_EQ(a[21]["succeeded"], b[21]["succeeded"]);
    }
  }
}

TEST(Cli, NavmeshJsonListsThePathAndCountsEveryOutcome) {
  const CliRun r = run("navmesh --obj " + data + "/meshes/nav_test.obj --queries " + data + "/meshes/nav_mesh_test.txt --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;  // every query succeeded
  const auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 22u);
  // The first query's ends (nav_mesh_test.txt's first pf line) start and end the path.
  const auto& path = lines[0]["path"];
  ASSERT_EQ(path.size(), lines[0]["corners"].get<std::size_t>());
  EXPECT_NEAR(path.front()[0].get<double>(), 18.138550, 1e-6);
  EXPECT_NEAR(path.front()[2].get<double>(), -21.319118, 1e-6);
  EXPECT_NEAR(path.back()[0].get<double>(), -19.206181, 1e-6);
  EXPECT_NEAR(path.back()[2].get<double>(), 24.802742, 1e-6);
  double length = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += std::pow(path[i][k].get<double>() - path[i - 1][k].get<double>(), 2);
    length += std::sqrt(d2);
  }
  EXPECT_NEAR(lines[0]["length"].get<double>(), length, 1e-9);
  EXPECT_EQ(lines[21]["queries"], 21);
  EXPECT_EQ(lines[21]["succeeded"], 21);
  EXPECT_EQ(lines[21]["partial"], 0);
  EXPECT_EQ(lines[21]["failed"], 0);
}

// Tiles and links baked: `bake --tile-size --links` then `navmesh --navmesh` answers every
// RecastDemo query exactly as `navmesh --obj --tile-size --links` (the same tiles, stitched
// the same way, with the link), solo and tiled; and a path takes the link.
TEST(Cli, BakedTilesAndLinksAnswerAsTheModel) {
  const std::string obj = data + "/meshes/nav_test.obj", queries = data + "/meshes/nav_mesh_test.txt";
  // A two-way jump between two of the queries' ends.
  const std::string links = temp_file("jump.gset", "c 6.054083 -2.365402 3.330421 19.041592 -2.368713 -7.404587 1 1 0 1\n");
  for (const char* tiles : {"0", "32"}) {
    SCOPED_TRACE(tiles);
    const std::string wmnav = ::testing::TempDir() + "/waymark_cli_links_" + tiles + ".wmnav";
    const std::string shape = std::string(" --tile-size ") + tiles + " --links " + links;
    ASSERT_EQ(run("bake --obj " + obj + shape + " --out " + wmnav).exit_code, 0);
    const CliRun built = run("navmesh --obj " + obj + shape + " --queries " + queries + " --json");
    const CliRun loaded = run("navmesh --navmesh " + wmnav + " --queries " + queries + " --json");
    const auto a = json_lines(built.out), b = json_lines(loaded.out);
    ASSERT_EQ(a.size(), 22u) << built.out;
    ASSERT_EQ(b.size(), 22u) << loaded.out;
    std::size_t took = 0;
    for (std::size_t i = 0; i < 21; ++i) {
      EXPECT_EQ(a[i], b[i]) << "query " << i;
      took += !b[i]["links"].empty();
    }
    EXPECT_GT(took, 0u);  // the jump is the way for some queries
  }
}

// Obstacles carved before the queries: a box across the middle of the first query's path
// lengthens it; a bad obstacles file is exit 2 naming its line; a bake cannot be carved.
TEST(Cli, NavmeshCarvesTheObstaclesOfAFile) {
  const std::string obj = data + "/meshes/nav_test.obj";
  const std::string ends = " --from 18.138550,-2.370003,-21.319118 --to -19.206181,-2.369133,24.802742 --json";
  const CliRun open = run("navmesh --obj " + obj + " --tile-size 32" + ends);
  ASSERT_EQ(open.exit_code, 0) << open.out;
  const auto path = json_lines(open.out)[0]["path"];
  const std::size_t mid = path.size() / 2;
  const double x = 0.5 * (path[mid - 1][0].get<double>() + path[mid][0].get<double>());
  const double y = 0.5 * (path[mid - 1][1].get<double>() + path[mid][1].get<double>());
  const double z = 0.5 * (path[mid - 1][2].get<double>() + path[mid][2].get<double>());
  const std::string crate = temp_file("crate.txt", "# a crate\ncylinder " + std::to_string(x) + " " + std::to_string(y - 0.5) +
                                                       " " + std::to_string(z) + " 1.5 2\n");
  const CliRun carved = run("navmesh --obj " + obj + " --tile-size 32 --obstacles " + crate + ends);
  ASSERT_NE(carved.exit_code, 2) << carved.out;
  const auto after = json_lines(carved.out);
  if (after[0]["status"] == "success") {
    EXPECT_GT(after[0]["length"].get<double>(), json_lines(open.out)[0]["length"].get<double>());
  }
  const std::string bad = temp_file("bad.txt", "box 0 0 0 1 1 1\ncylinder 0 0 0 -1 2\n");
  const CliRun refused = run("navmesh --obj " + obj + " --obstacles " + bad + ends);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.out.find(bad + ":2: the cylinder: its radius must be finite and > 0"), std::string::npos) << refused.out;
  EXPECT_EQ(run("navmesh --navmesh x.wmnav --obstacles " + crate + ends).exit_code, 2);
  // An obstacle reaching far past the level carves what it covers: all of it, so neither end
  // is on the mesh (exit 1); it carved nothing and the open path came back, exit 0.
  for (const std::string shape : {"box -1e9 -100 -1e9 1e9 100 1e9", "cylinder 0 -100 0 1e9 200",
                                   "prism -100 100 -1e9 -1e9 1e9 -1e9 1e9 1e9 -1e9 1e9"}) {
    const CliRun everything = run("navmesh --obj " + obj + " --obstacles " + temp_file("everything.txt", shape + "\n") + ends);
    EXPECT_EQ(everything.exit_code, 1) << shape << everything.out;
    EXPECT_EQ(json_lines(everything.out)[0]["status"], "failure") << shape;
  }
  // Past any level: out of range, naming the limit (1e200 was taken and carved nothing).
  const std::string far = temp_file("far.txt", "cylinder 1e200 0 0 1 2\n");
  const CliRun beyond = run("navmesh --obj " + obj + " --obstacles " + far + ends);
  EXPECT_EQ(beyond.exit_code, 2);
  EXPECT_EQ(beyond.out, "waymark: " + far + ":1: the cylinder: its foot is out of range (past navmesh::max_obstacle_coordinate = "
                        "1e+15 either way)\n");
}

// The doorway level (1.2 wide) baked for a small and a large agent: the small one crosses, the
// large one gets a partial path (to its side of the wall), and a query off the mesh fails.
// Partial is reported as partial, never as success, and the exit code is 1 unless every query
// succeeded.
TEST(Cli, AgentClassesPartialPathsAndTheExitCode) {
  const std::string obj = temp_file("doorway.obj", test::doorway_level_obj(1.2));
  const std::string wmnav = ::testing::TempDir() + "/waymark_cli_doorway.wmnav";
  CliRun r = run("bake --obj " + obj + " --cell-size 0.2 --agent-class small=0.3,2,0.9,45 --agent-class large=1,2,0.9,45 --out " + wmnav);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("class 'small': radius 0.3, height 2, climb 0.9, slope 45"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("class 'large': radius 1, height 2, climb 0.9, slope 45"), std::string::npos) << r.out;
  const std::string across = " --from 5,0,5 --to 15,0,5";
  r = run("navmesh --navmesh " + wmnav + " --class small" + across);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("success: ", 0), 0u) << r.out;
  r = run("navmesh --navmesh " + wmnav + " --class large" + across + " --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["status"], "partial");
  EXPECT_LT(lines[0]["path"].back()[0].get<double>(), 9.0 + 1e-6);  // stopped before the wall
  EXPECT_EQ(lines[1]["partial"], 1);
  EXPECT_EQ(lines[1]["succeeded"], 0);
  EXPECT_EQ(lines[1]["class"], "large");
  // A queries file: one success, one partial, one failure (off the mesh) for the large agent.
  const std::string queries = temp_file("doorway_queries.txt",
                                        "pf 2 0 2  8 0 8  0xffff 0\npf 5 0 5  15 0 5  0xffff 0\npf 5 0 5  50 0 50  0xffff 0\n");
  r = run("navmesh --navmesh " + wmnav + " --class large --queries " + queries + " --json");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0]["status"], "success");
  EXPECT_EQ(lines[1]["status"], "partial");
  EXPECT_EQ(lines[2]["status"], "failure");
  EXPECT_EQ(lines[2]["path"], nlohmann::json::array());
  EXPECT_EQ(lines[3]["succeeded"], 1);
  EXPECT_EQ(lines[3]["partial"], 1);
  EXPECT_EQ(lines[3]["failed"], 1);
  r = run("navmesh --navmesh " + wmnav + " --class large --queries " + queries);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("3 queries: 1 succeeded, 1 partial, 1 failed;"), std::string::npos) << r.out;
  r = run("navmesh --navmesh " + wmnav + " --class small --queries " + queries);
  EXPECT_NE(r.out.find("3 queries: 2 succeeded, 0 partial, 1 failed;"), std::string::npos) << r.out;
  // Which class: needed with two, and must exist.
  r = run("navmesh --navmesh " + wmnav + across);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: " + wmnav + " has several agent classes: give --class (one of small, large)\n");
  r = run("navmesh --navmesh " + wmnav + " --class huge" + across);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: --class 'huge' is not in " + wmnav + " (its classes: small, large)\n");
}

TEST(Cli, BadBakesAreRefusedWithTheFileAndTheReason) {
  const std::string wmnav = ::testing::TempDir() + "/waymark_cli_good.wmnav";
  ASSERT_EQ(run("bake --obj " + data + "/meshes/nav_test.obj --out " + wmnav).exit_code, 0);
  const std::string bytes = file_bytes(wmnav);
  const std::string query = " --from 18.13855,-2.37,-21.319118 --to -19.206181,-2.369133,24.802742";
  const auto refused = [&](const std::string& file, const std::string& reason) {
    const CliRun r = run("navmesh --navmesh " + file + query);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, "waymark: " + file + ": " + reason + "\n");
  };
  refused(temp_file("cut.wmnav", bytes.substr(0, 1000)), "truncated file (in the vertices)");
  std::string flipped = bytes;
  flipped[bytes.size() / 3] = static_cast<char>(flipped[bytes.size() / 3] ^ 0x10);
  refused(temp_file("flipped.wmnav", flipped), "corrupt file: checksum mismatch");
  refused(temp_file("noise.wmnav", std::string(1000, '\x7f')), "not a waymark navmesh bake (wrong magic)");
  refused(data + "/meshes/nav_test.obj", "not a waymark navmesh bake (wrong magic)");
  refused(temp_file("empty.wmnav", ""), "truncated file (in the header)");
  refused(::testing::TempDir() + "/waymark_cli_none.wmnav", "cannot open file");
  // Options that belong to building, not to a bake.
  CliRun r = run("navmesh --navmesh " + wmnav + " --agent-radius 1" + query);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--navmesh excludes --agent-radius"), std::string::npos) << r.out;
  r = run("navmesh --navmesh " + wmnav + " --obj " + data + "/meshes/nav_test.obj" + query);
  EXPECT_EQ(r.exit_code, 2);
  r = run("navmesh" + query);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "waymark: give either --obj FILE or --navmesh FILE.wmnav\n");
}

// A class of several tiles loads (each tile checked) but has no mesh until tiles are stitched:
// the CLI says so rather than querying one tile.
TEST(Cli, QueryFilesWithoutQueriesAreRefused) {
  const std::string obj = data + "/meshes/nav_test.obj";
  for (const std::string& file : {temp_file("no_queries.txt", ""), temp_file("random_queries.txt", std::string("\x01\xfe\x7fpq\n\x80", 7)),
                                  obj, temp_file("comments.txt", "s Solo Mesh\nf nav_test.obj\n# nothing\n")}) {
    const CliRun r = run("navmesh --obj " + obj + " --queries " + file);
    EXPECT_EQ(r.exit_code, 2) << file << r.out;
    EXPECT_EQ(r.out, "waymark: " + file + ": no queries: a RecastDemo TestCases file has 'pf' lines\n");
  }
}

TEST(Cli, BakeRefusesBadClassesAndModels) {
  const std::string obj = data + "/meshes/nav_test.obj";
  const std::string out = " --out " + ::testing::TempDir() + "/waymark_cli_bad.wmnav";
  const auto refused = [&](const std::string& args, const std::string& message) {
    const CliRun r = run("bake --obj " + obj + " " + args + out);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, "waymark: " + message + "\n");
  };
  refused("--agent-class 1,2,3", "--agent-class must be 4 finite numbers [NAME=]radius,height,climb,slope, got '1,2,3'");
  refused("--agent-class a=1,2,3,nan", "--agent-class must be 4 finite numbers [NAME=]radius,height,climb,slope, got '1,2,3,nan'");
  refused("--agent-class 'a b=1,2,3,4'",
          "--agent-class: a class name must be printable ASCII without space, ',' or '=', got 'a b'");
  refused("--agent-class a=1,2,0.9,45 --agent-class a=2,2,0.9,45", obj + ": two agent classes are called 'a'");
  refused("--agent-class a=1,2,0.9,90", obj + ": agent class 'a': Recast parameter agent_max_slope must be from 0 to below 90 degrees");
  refused("--threads -1", "--threads must be an integer from 0 to 256, got -1");
  refused("--time-limit -2", "--time-limit must be a number of seconds from 0 (none) to 604800, got -2");
  // A tiled bake that runs out of time says so (no tile is begun after its deadline).
  refused("--tile-size 32 --time-limit 1e-9", obj + ": agent class '0': the tiled build passed its deadline (a time limit) with 0 of 90 "
          "tiles begun: give it more time, a larger cell or tile size, or a smaller level");
  const CliRun r = run("bake --obj " + obj + " --agent-class a=1,2,0.9,45 --agent-radius 2" + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--agent-class excludes --agent-radius"), std::string::npos) << r.out;
  EXPECT_EQ(run("bake --obj " + obj).exit_code, 2);  // --out is required
  const CliRun unwritable = run("bake --obj " + obj + " --out " + ::testing::TempDir() + "/no/such/dir/x.wmnav");
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_NE(unwritable.out.find("cannot open for writing"), std::string::npos) << unwritable.out;
}

}  // namespace
}  // namespace waymark::apps_cli_bake_test
