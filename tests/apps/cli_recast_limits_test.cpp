// Issue 32's inputs that reached Recast's narrow fields, through `waymark navmesh` and
// `waymark render --obj` (which builds with Recast's defaults): each now builds, or exits 2 naming the limit before Recast runs.
#include <gtest/gtest.h>

#include <string>

#include "apps/cli_support.hpp"

namespace waymark::apps_cli_recast_limits_test {
namespace {

using test::CliRun;
using test::data;
using test::run;
using test::temp_file;

/// A flat square floor of side `side` from (x, 0, z), as an OBJ file.
std::string square_obj(const std::string& name, double x, double z, double side) {
  const auto v = [](double a, double b) { return "v " + std::to_string(a) + " 0 " + std::to_string(b) + "\n"; };
  return temp_file(name, v(x, z) + v(x + side, z) + v(x + side, z + side) + v(x, z + side) + "f 1 3 2\nf 1 4 3\n");
}

// A 10 x 10 quad at 10^7 aborted with a stack smash inside rasterizeTri; now it builds, as at 8e6.
TEST(Cli, RecastBuildsQuadsFarFromTheOrigin) {
  for (const std::string at : {"8000000", "10000000"}) {
    const std::string obj = square_obj("far_" + at + ".obj", std::stod(at), std::stod(at), 10);
    CliRun r = run("navmesh --obj " + obj + " --from " + std::to_string(std::stod(at) + 1) + ",0," + std::to_string(std::stod(at) + 1) +
            " --to " + std::to_string(std::stod(at) + 9) + ",0," + std::to_string(std::stod(at) + 9));
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("success: length 11.31"), std::string::npos) << r.out;  // sqrt(128)
    // The corners keep their digits far from the origin (the stream's default wrote 1e+07).
    const std::string start = std::to_string(std::stoll(at) + 1);
    EXPECT_NE(r.out.find("corners: " + start + ","), std::string::npos) << r.out;
    const std::string png = ::testing::TempDir() + "/waymark_cli_far_" + at + ".png";
    r = run("render --obj " + obj + " --png " + png);
    EXPECT_EQ(r.exit_code, 0) << r.out;
  }
}

// --detail-sample-dist 0 (documented: no samples) made Recast allocate without bound.
TEST(Cli, RecastDetailSampleDistZeroTakesNoSamples) {
  for (const char* dist : {"0", "0.5"}) {
    const CliRun r = run("navmesh --obj " + data + "/meshes/nav_test.obj --queries " + data + "/meshes/nav_mesh_test.txt --detail-sample-dist " + dist);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("21 queries: 21 succeeded"), std::string::npos) << r.out;
  }
}

// Past Recast's fields: exit 2 with the limit named and what to change, before Recast runs.
TEST(Cli, RecastLimitsExitTwoNamingTheLimit) {
  const std::string obj = data + "/meshes/nav_test.obj";
  const std::string query = " --from 0,0,0 --to 1,0,1";
  const auto expect_limit = [](const CliRun& r, const std::string& limit) {
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find(limit), std::string::npos) << r.out;
  };
  // 38.4 / 0.3 = 128 cells: Recast's 8-bit erosion wrapped to none (the radius-0 path, exit 0).
  expect_limit(run("navmesh --obj " + obj + query + " --agent-radius 38.4"), "recast::max_radius_cells = 127; raise cell_size");
  expect_limit(run("navmesh --obj " + obj + query + " --agent-radius 38.4 --tile-size 32"), "recast::max_radius_cells");
  expect_limit(run("navmesh --obj " + obj + query + " --agent-height 51.2"), "recast::max_agent_height_cells = 255");
  expect_limit(run("navmesh --obj " + obj + query + " --agent-climb 2000"), "recast::max_climb_cells");
  expect_limit(run("navmesh --obj " + obj + query + " --edge-max-len 20000"), "recast::max_edge_len_cells");
  expect_limit(run("navmesh --obj " + obj + query + " --edge-max-error 65"), "recast::max_edge_error_cells");
  // Tiles of one voxel made no polygons, and said "no walkable area".
  expect_limit(run("navmesh --obj " + obj + query + " --tile-size 1"),
               "tile_size must be from 3 to 4096 voxels, got 1 (recast::min_tile_size: Recast's watershed makes no polygon "
               "inside a tile of 1 or 2 voxels; recast::max_tile_size)");
  expect_limit(run("bake --obj " + obj + " --tile-size 2 --out " + ::testing::TempDir() + "/waymark_cli_t2.wmnav"),
               "recast::min_tile_size");
  // A level at 10^300 collapses to a point: out of range, not "narrower than half a cell".
  const std::string lost = square_obj("lost.obj", 1e300, 1e300, 10);
  expect_limit(run("navmesh --obj " + lost + " --from 0,0,0 --to 1,0,1"),
               "the level is out of range: a coordinate of 1e+300 lies more than recast::max_world_cells = 2^48 cells");
  expect_limit(run("render --obj " + lost + " --png " + ::testing::TempDir() + "/waymark_cli_lost.png --tile-size 32"),
               "recast::max_world_cells");
  // No polygons: the step that left nothing, and its option.
  const std::string small = square_obj("small_floor.obj", 0, 0, 4);
  expect_limit(run("navmesh --obj " + small + " --from 1,0,1 --to 3,0,3"),
               "no walkable area: Recast made no polygons: every region has fewer than region_min_size squared cells (8 x 8; "
               "--region-min-size)");
  EXPECT_EQ(run("navmesh --obj " + small + " --from 1,0,1 --to 3,0,3 --region-min-size 1").exit_code, 0);
  // A 1,235-unit floor: 4117 x 4117 cells, over the 24-bit span index (it was "no walkable area"
  // after seconds and a GB); in tiles it builds.
  const std::string floor = square_obj("floor_1235.obj", 0, 0, 1235);
  expect_limit(run("navmesh --obj " + floor + " --from 1,0,1 --to 9,0,9"),
               "4117 x 4117 cells, more than Recast indexes (recast::max_heightfield_cells = 16777216; raise cell_size or build in "
               "tiles, --tile-size)");
  expect_limit(run("render --obj " + floor + " --png " + ::testing::TempDir() + "/waymark_cli_floor.png"),
               "recast::max_heightfield_cells");  // render builds as navmesh does (it has no Recast options)
  const CliRun tiled = run("navmesh --obj " + floor + " --from 1,0,1 --to 9,0,9 --tile-size 512 --cell-size 1");
  EXPECT_EQ(tiled.exit_code, 0) << tiled.out;
}

// `navmesh` and `render --obj` take bake's --time-limit, with its words: a tiled build (carved
// too) begins no tile after it, a solo build no step of Recast's (a 1,228-unit floor builds
// solo for 50 s, in tiles of 64 for 15 s: neither had a budget).
TEST(Cli, NavmeshAndRenderBuildWithinBakesTimeLimit) {
  const std::string obj = data + "/meshes/nav_test.obj";
  const std::string query = " --from 0,0,0 --to 1,0,1";
  const std::string tiles = obj + ": the tiled build passed its deadline (a time limit) with 0 of 90 tiles begun: give it more "
                                  "time, a larger cell or tile size, or a smaller level\n";
  const std::string solo = "the solo build passed its deadline (a time limit) before Recast could create its heightfield: give it "
                           "more time, a larger cell size, or build in tiles (--tile-size)\n";
  const auto refused = [](const std::string& args, const std::string& message) {
    const CliRun r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "waymark: " + message) << args;
  };
  refused("navmesh --obj " + obj + query + " --tile-size 32 --time-limit 1e-9", tiles);
  refused("navmesh --obj " + obj + query + " --time-limit 1e-9", obj + ": " + solo);
  refused("render --obj " + obj + " --png " + ::testing::TempDir() + "/waymark_cli_late.png --tile-size 32 --time-limit 1e-9", tiles);
  refused("render --obj " + obj + " --png " + ::testing::TempDir() + "/waymark_cli_late.png --time-limit 1e-9", obj + ": " + solo);
  refused("bake --obj " + obj + " --out " + ::testing::TempDir() + "/waymark_cli_late.wmnav --time-limit 1e-9",
          obj + ": agent class '0': " + solo);
  // Carving builds its tiles first: the same budget.
  const std::string crates = temp_file("late_crates.txt", "cylinder 0 0 0 1 2\n");
  refused("navmesh --obj " + obj + query + " --obstacles " + crates + " --time-limit 1e-9", tiles);
  refused("navmesh --obj " + obj + query + " --time-limit -2",
          "--time-limit must be a number of seconds from 0 (none) to 604800, got -2\n");
  refused("render --obj " + obj + " --png x.png --time-limit 1e300",
          "--time-limit must be a number of seconds from 0 (none) to 604800, got 1e+300\n");
  // Given time, the same builds answer.
  const CliRun r = run("navmesh --obj " + obj + " --queries " + data + "/meshes/nav_mesh_test.txt --tile-size 32 --time-limit 600");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("21 queries: 21 succeeded"), std::string::npos) << r.out;
  const CliRun drawn = run("render --obj " + obj + " --png " + ::testing::TempDir() + "/waymark_cli_timed.png --time-limit 600");
  EXPECT_EQ(drawn.exit_code, 0) << drawn.out;
}

}  // namespace
}  // namespace waymark::apps_cli_recast_limits_test
