// Pictures (issue 15): PNG and SVG from every command that draws, read back without golden
// images: pixel colours at known cells, SVG elements.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "apps/cli_support.hpp"
#include "support/picture_check.hpp"
#include "waymark/io/movingai.hpp"

namespace waymark::apps_cli_pictures_test {
namespace {

using test::CliRun;
using test::data;
using test::read_trace;
using test::run;
using test::temp_file;

using render::palette::goal;
using render::palette::passable;
using render::palette::start;
using render::palette::wall;
using test::PngPixels;
using test::pixel_is;

std::string picture_file(const std::string& name) {
  const std::string file = ::testing::TempDir() + "/waymark_cli_picture_" + name;
  std::filesystem::remove(file);
  return file;
}

/// Pixels per cell of a grid picture of `map` (the default style: the longer side near 1024).
int grid_cell_px(const grid::GridMap& map) { return std::max(1, 1024 / std::max(map.width(), map.height())); }

/// The centre pixel of cell (x, y).
int centre(int c, int px) { return c * px + px / 2; }

/// Whether some pixel of the picture is `color` (within 2/255).
bool has_color(const PngPixels& png, render::Rgb color) {
  for (int y = 0; y < png.height(); ++y)
    for (int x = 0; x < png.width(); ++x)
      if (test::near_color(png.at(x, y), test::rgb_of(color))) return true;
  return false;
}

TEST(CliPictures, RenderMapDrawsEveryCellAsWallOrFreeWithALegendBelow) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("render_map.png"), svg = picture_file("render_map.svg");
  const CliRun r = run("render --map " + arena + " --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const grid::GridMap map = io::load_movingai_map(arena);
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_EQ(pixels.width(), map.width() * px);
  EXPECT_GT(pixels.height(), map.height() * px);  // the legend strip
  int walls = 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      const bool open = map.passable(x, y);
      walls += open ? 0 : 1;
      ASSERT_TRUE(pixel_is(pixels, centre(x, px), centre(y, px), open ? passable : wall)) << x << "," << y;
    }
  }
  EXPECT_GT(walls, 0);
  EXPECT_TRUE(pixel_is(pixels, 2, map.height() * px + 2, render::palette::legend_background));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RenderMapWithTerrainShadesSwampAndWater) {
  const std::string map_file = temp_file("terrain.map", "type octile\nheight 2\nwidth 4\nmap\n.SW@\n....\n");
  const std::string png = picture_file("terrain.png");
  const CliRun r = run("render --map " + map_file + " --terrain --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  const int px = 1024 / 4;
  EXPECT_TRUE(pixel_is(pixels, centre(0, px), centre(0, px), passable));
  EXPECT_TRUE(pixel_is(pixels, centre(3, px), centre(0, px), wall));
  const auto blue = [&](int x) { return static_cast<int>(pixels.at(centre(x, px), centre(0, px)) & 0xffu); };
  EXPECT_GT(blue(0), blue(1));  // swamp (cost 3) darker than free ground
  EXPECT_GT(blue(1), blue(2));  // water (cost 5) darker still
}

TEST(CliPictures, PathPngShowsStartGoalWallsAndExpandedCells) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("path.png"), svg = picture_file("path.svg");
  const CliRun r = run("path --map " + arena + " --from 3,1 --to 35,7 --json --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const grid::GridMap map = io::load_movingai_map(arena);
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(pixel_is(pixels, centre(3, px), centre(1, px), start));
  EXPECT_TRUE(pixel_is(pixels, centre(35, px), centre(7, px), goal));
  // Walls three cells or more from every path cell keep the wall colour.
  int checked = 0;
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (map.passable(x, y)) continue;
      const bool near = std::any_of(j["path"].begin(), j["path"].end(), [&](const nlohmann::json& c) {
        return std::abs(c[0].get<int>() - x) < 3 && std::abs(c[1].get<int>() - y) < 3;
      });
      if (near) continue;
      ++checked;
      ASSERT_TRUE(pixel_is(pixels, centre(x, px), centre(y, px), wall)) << x << "," << y;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_TRUE(has_color(pixels, render::palette::expanded_early));
  EXPECT_TRUE(has_color(pixels, render::palette::expanded_late));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, PathSmoothDrawsTheRawPathGreyAndTheSmoothedOneOrange) {
  const std::string png = picture_file("smooth.png");
  const CliRun r = run("path --map " + data + "/maps/arena.map --from 3,1 --to 35,7 --smooth --png " + png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, render::palette::raw_path));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
}

TEST(CliPictures, ScenSvgDrawsTheLongestQuery) {
  const std::string svg = picture_file("scen.svg");
  const CliRun r = run("scen " + data + "/maps/arena.map.scen --sample-every 10 --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("picture of the longest query"), std::string::npos) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RegionsAndNavmeshWriteSvg) {
  const std::string regions = picture_file("regions.svg");
  CliRun r = run("regions --map " + data + "/maps/arena.map --seeds '8,8;40,40' --svg " + regions);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(regions));
  const std::string nav = picture_file("navmesh.svg");
  r = run("navmesh --obj " + data + "/meshes/nav_test.obj --from -1.564062,-2.369926,-20.452827 --to "
          "19.181122,-2.368134,3.011776 --svg " + nav);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(nav));
}

TEST(CliPictures, RenderObjAndPolygons) {
  const std::string nav_png = picture_file("render_obj.png"), nav_svg = picture_file("render_obj.svg");
  CliRun r = run("render --obj " + data + "/meshes/nav_test.obj --png " + nav_png + " --svg " + nav_svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(PngPixels(nav_png).ok());
  EXPECT_TRUE(test::is_svg_with_shapes(nav_svg));
  r = run("render --obj " + data + "/meshes/nav_test.obj --build triangles --svg " + nav_svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(test::is_svg_with_shapes(nav_svg));
  const std::string poly_png = picture_file("render_polygons.png");
  r = run("render --polygons " + data + "/polygons/rooms.json --radius 0.5 --png " + poly_png);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(poly_png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, wall));  // the obstacles
}

TEST(CliPictures, VisibilityDrawsObstaclesEdgesAndThePath) {
  const std::string png = picture_file("visibility.png"), svg = picture_file("visibility.svg");
  const std::string rooms = data + "/polygons/rooms.json";
  CliRun r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --radius 0.5 --png " + png + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(has_color(pixels, wall));
  EXPECT_TRUE(has_color(pixels, start));
  EXPECT_TRUE(has_color(pixels, goal));
  EXPECT_TRUE(has_color(pixels, render::palette::path));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
  r = run("visibility --polygons " + rooms + " --from 2,2 --to 38,28 --png " + ::testing::TempDir() + "/no/dir/x.png");
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

TEST(CliPictures, SimulateDrawsEveryAgentsTrailToWhereItEnded) {
  const std::string scenes = data + "/../scenes";
  const std::string png = picture_file("simulate.png"), svg = picture_file("simulate.svg");
  const std::string trace = picture_file("simulate.jsonl");
  const CliRun r = run("simulate --scene " + scenes + "/circle_swap.json --trace " + trace + " --png " + png +
                       " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::vector<nlohmann::json> lines = read_trace(trace);
  ASSERT_GE(lines.size(), 2u);
  const grid::GridMap map = io::load_movingai_map(lines.front()["map"].get<std::string>());  // beside the scene
  const int px = grid_cell_px(map);
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  for (const auto& p : lines.back()["p"]) {  // each agent's last position: covered by its dot
    const int x = static_cast<int>(p[0].get<double>() * px), y = static_cast<int>(p[1].get<double>() * px);
    const std::uint32_t c = pixels.at(x, y);
    EXPECT_FALSE(test::near_color(c, test::rgb_of(passable))) << p;
    EXPECT_FALSE(test::near_color(c, test::rgb_of(wall))) << p;
  }
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

TEST(CliPictures, RenderBadInputExitsTwoWithOneLine) {
  const std::string arena = data + "/maps/arena.map";
  const std::string png = picture_file("bad.png");
  const std::pair<std::string, std::string> cases[] = {
      {"render --png " + png, "give one of --map FILE, --obj FILE or --polygons FILE"},
      {"render --map " + arena + " --obj x.obj --png " + png, "give one of --map FILE, --obj FILE or --polygons FILE"},
      {"render --map " + arena, "give --png FILE and/or --svg FILE"},
      {"render --map /no/such.map --png " + png, "/no/such.map"},
      {"render --map " + arena + " --max-cells 10 --png " + png, "10"},
      {"render --obj " + data + "/meshes/nav_test.obj --terrain --png " + png, "--terrain goes with --map"},
      {"render --obj " + data + "/meshes/nav_test.obj --build voxels --png " + png, "--build must be recast or triangles"},
      {"render --polygons " + data + "/polygons/rooms.json --radius -1 --png " + png, "--radius"},
      {"render --map " + arena + " --png " + ::testing::TempDir() + "/no/such/dir/x.png", "cannot write picture to"},
      {"render --map " + arena + " --svg " + ::testing::TempDir() + "/no/such/dir/x.svg", "cannot write picture to"},
  };
  for (const auto& [args, reason] : cases) {
    const CliRun r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("waymark: ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find(reason), std::string::npos) << args << "\n" << r.out;
  }
  // A path's picture that cannot be written is bad input too, after the answer.
  const CliRun r = run("path --map " + arena + " --from 3,1 --to 35,7 --svg " + ::testing::TempDir() + "/no/dir/x.svg");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot write picture to"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace waymark::apps_cli_pictures_test
