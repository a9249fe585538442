// Pictures written by the render module, checked without golden images: pixels read back from
// the PNG at known cells, and the elements of the SVG.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/picture_check.hpp"
#include "waymark/grid/grid_map.hpp"
#include "waymark/render/grid_png.hpp"
#include "waymark/render/navmesh_png.hpp"
#include "waymark/render/picture.hpp"
#include "waymark/render/visibility_png.hpp"

namespace waymark::render_picture_test {
namespace {

using render::GridLayers;
using render::GridPictureStyle;
using render::PictureFormat;
using test::PngPixels;
using test::pixel_is;
namespace palette = render::palette;

std::string temp(const std::string& name) { return ::testing::TempDir() + "/waymark_render_" + name; }

/// A 10x6 map: a wall column at x = 4 (rows 0-3), terrain 5 at (8,5), the rest free.
grid::GridMap small_map() {
  std::vector<std::uint8_t> passable(60, 1);
  std::vector<double> terrain(60, 1.0);
  for (int y = 0; y < 4; ++y) passable[y * 10 + 4] = 0;
  terrain[5 * 10 + 8] = 5.0;
  return grid::GridMap(10, 6, std::move(passable), std::move(terrain));
}

constexpr int cell = 10;  // pixels per cell with target_size_px 100 on a 10-wide map
int mid(int c) { return c * cell + cell / 2; }

TEST(RenderPicture, FormatIsChosenByTheFileName) {
  EXPECT_EQ(render::picture_format_of("a.svg"), PictureFormat::svg);
  EXPECT_EQ(render::picture_format_of("dir/A.SVG"), PictureFormat::svg);
  EXPECT_EQ(render::picture_format_of("a.png"), PictureFormat::png);
  EXPECT_EQ(render::picture_format_of("svg"), PictureFormat::png);
  EXPECT_EQ(render::picture_format_of(""), PictureFormat::png);
}

TEST(RenderPicture, GridCellsMarkersAndPathHaveTheirColours) {
  const grid::GridMap map = small_map();
  const std::vector<CellId> path{map.cell(1, 1), map.cell(2, 2), map.cell(3, 4), map.cell(4, 5), map.cell(5, 4),
                                 map.cell(6, 3), map.cell(7, 2)};
  const std::string png = temp("grid.png");
  std::filesystem::remove(png);
  GridPictureStyle style;
  style.target_size_px = 100;
  ASSERT_TRUE(render::write_grid_picture(map, {.path = path}, png, style));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  // A legend below, and the picture widened to the legend's minimum with the map at its left.
  EXPECT_EQ(pixels.width(), 360);
  EXPECT_GT(pixels.height(), 6 * cell);
  EXPECT_TRUE(pixel_is(pixels, mid(4), mid(0), palette::wall));
  EXPECT_TRUE(pixel_is(pixels, mid(9), mid(0), palette::passable));
  EXPECT_TRUE(pixel_is(pixels, mid(1), mid(1), palette::start));
  EXPECT_TRUE(pixel_is(pixels, mid(7), mid(2), palette::goal));
  EXPECT_TRUE(pixel_is(pixels, mid(4), mid(5), palette::path));
  // Terrain is darker than free ground, and of the free colour's hue.
  const std::uint32_t swamp = pixels.at(mid(8), mid(5));
  EXPECT_LT(swamp & 0xffu, test::rgb_of(palette::passable) & 0xffu);
  EXPECT_FALSE(test::near_color(swamp, test::rgb_of(palette::passable)));
  // Beside the map, the legend's background.
  EXPECT_TRUE(pixel_is(pixels, 200, mid(2), palette::legend_background));
}

TEST(RenderPicture, ExpandedCellsAreShadedByOrderAndTheOpenSetOutlined) {
  const grid::GridMap map = small_map();
  std::vector<CellId> expanded;
  for (int x = 5; x < 10; ++x) expanded.push_back(map.cell(x, 0));  // (5,0) first, (9,0) last
  const std::vector<CellId> open{map.cell(0, 5)};
  const std::string png = temp("expanded.png");
  GridPictureStyle style;
  style.target_size_px = 100;
  ASSERT_TRUE(render::write_grid_picture(map, {.expanded = expanded, .open = open}, png, style));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(pixel_is(pixels, mid(5), mid(0), palette::expanded_early));
  EXPECT_TRUE(pixel_is(pixels, mid(9), mid(0), palette::expanded_late));
  // In between: strictly between the two in the red component (early is lighter).
  const auto red = [&](int x) { return static_cast<int>(pixels.at(mid(x), mid(0)) >> 16); };
  EXPECT_GT(red(5), red(7));
  EXPECT_GT(red(7), red(9));
  // The open cell: its edge outlined, its middle free.
  EXPECT_TRUE(pixel_is(pixels, 0, mid(5), palette::open_set));
  EXPECT_TRUE(pixel_is(pixels, mid(0), mid(5), palette::passable));
}

TEST(RenderPicture, SmoothedPathIsDrawnOverTheRawOne) {
  const grid::GridMap map = small_map();
  const std::vector<CellId> raw{map.cell(0, 5), map.cell(1, 5), map.cell(2, 5), map.cell(3, 5), map.cell(3, 4),
                                map.cell(3, 3)};
  const std::vector<CellId> smooth{map.cell(0, 5), map.cell(3, 3)};
  const std::string png = temp("smooth.png");
  GridPictureStyle style;
  style.target_size_px = 100;
  ASSERT_TRUE(render::write_grid_picture(map, {.path = raw, .smoothed = smooth}, png, style));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(pixel_is(pixels, mid(2), mid(5), palette::raw_path));  // only the raw path passes here
  EXPECT_TRUE(pixel_is(pixels, mid(0), mid(5), palette::start));
  EXPECT_TRUE(pixel_is(pixels, mid(3), mid(3), palette::goal));
  // The smoothed segment's middle (1.5, 4) in cells: orange.
  EXPECT_TRUE(pixel_is(pixels, static_cast<int>(2.0 * cell), static_cast<int>(4.5 * cell) - 1, palette::path));
}

TEST(RenderPicture, LargeMapsKeepCellsOfAtLeastOnePixel) {
  std::vector<std::uint8_t> passable(3000 * 2, 1);
  passable[1] = 0;
  const grid::GridMap map(3000, 2, std::move(passable), {});
  const std::string png = temp("wide.png");
  ASSERT_TRUE(render::write_grid_picture(map, {}, png));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_EQ(pixels.width(), 3000);
  EXPECT_TRUE(pixel_is(pixels, 1, 0, palette::wall));
  EXPECT_TRUE(pixel_is(pixels, 2, 0, palette::passable));
}

TEST(RenderPicture, ZonesAndTrailsInWorldUnits) {
  // Cells of 2 world units from (10, 20): a cheaper zone over cell (1,1), a trail from the
  // centre of cell (0,0) to the centre of cell (9,0).
  grid::GridMapParams params;
  params.cell_size = 2;
  params.origin = {10, 20};
  grid::GridMap map(10, 6, std::vector<std::uint8_t>(60, 1), {}, params);
  map.add_zone(grid::CostZone::rect({12, 22}, {14, 24}, -0.5));
  const std::vector<std::vector<Vec2>> trails{{{11, 21}, {29, 21}}};
  const std::string png = temp("trails.png");
  GridPictureStyle style;
  style.target_size_px = 100;
  ASSERT_TRUE(render::write_grid_picture(map, {.trails = trails}, png, style));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  const std::uint32_t zone = pixels.at(mid(1), mid(1));
  EXPECT_FALSE(test::near_color(zone, test::rgb_of(palette::passable)));
  EXPECT_GT((zone >> 8) & 0xffu, zone & 0xffu);  // greener than blue: a cheaper cell
  EXPECT_TRUE(pixel_is(pixels, mid(2), mid(2), palette::passable));
  // The trail crosses row 0 and ends in a dot: neither free nor wall at (5,0) and (9,0).
  for (const int x : {5, 9}) {
    EXPECT_FALSE(test::near_color(pixels.at(mid(x), mid(0)), test::rgb_of(palette::passable))) << x;
  }
  EXPECT_TRUE(pixel_is(pixels, mid(5), mid(3), palette::passable));
}

TEST(RenderPicture, SvgHasTheSameDrawingAsElements) {
  const grid::GridMap map = small_map();
  const std::vector<CellId> path{map.cell(0, 0), map.cell(3, 3)};
  const std::string svg = temp("grid.svg");
  std::filesystem::remove(svg);
  ASSERT_TRUE(render::write_grid_picture(map, {.path = path}, svg));  // by name
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
  // Forced PNG despite the name.
  const std::string png_named_svg = temp("really_png.svg");
  ASSERT_TRUE(render::write_grid_picture(map, {.path = path}, png_named_svg, {}, PictureFormat::png));
  EXPECT_TRUE(PngPixels(png_named_svg).ok());
  // Region maps too.
  std::vector<std::uint32_t> labels(map.cell_count(), 0);
  const std::string regions = temp("regions.svg");
  ASSERT_TRUE(render::write_region_picture(map, labels, {}, regions));
  EXPECT_TRUE(test::is_svg_with_shapes(regions));
}

TEST(RenderPicture, BadInputIsRefused) {
  const grid::GridMap map = small_map();
  const std::vector<CellId> outside{CellId{60}};
  EXPECT_FALSE(render::write_grid_picture(map, {.path = outside}, temp("bad.png")));
  EXPECT_FALSE(render::write_grid_picture(map, {}, ::testing::TempDir() + "/no/such/dir/x.png"));
  EXPECT_FALSE(render::write_grid_picture(map, {}, ::testing::TempDir() + "/no/such/dir/x.svg"));
  const std::vector<std::uint32_t> short_labels(3, 0);
  EXPECT_FALSE(render::write_region_picture(map, short_labels, {}, temp("bad_regions.png")));
}

TEST(RenderPicture, VisibilityObstaclesEdgesAndPath) {
  visibility::Obstacles obstacles;
  obstacles.polygons.push_back({{4, 4}, {6, 4}, {6, 6}, {4, 6}});
  obstacles.bounds = Aabb2{{0, 0}, {10, 10}};
  const visibility::VisibilityGraph graph(obstacles);
  const std::vector<Vec2> path{{1, 1}, {6, 4}, {9, 9}};
  const std::string png = temp("visibility.png");
  render::PlanePictureStyle style;
  style.target_size_px = 124;  // margin 12: 10 px per world unit
  ASSERT_TRUE(render::write_visibility_picture(graph, path, png, style));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  const auto at = [](double w) { return static_cast<int>(12 + w * 10); };
  EXPECT_TRUE(pixel_is(pixels, at(5), at(5.5), palette::wall));  // inside the obstacle
  EXPECT_TRUE(pixel_is(pixels, at(1), at(1), palette::start));
  EXPECT_TRUE(pixel_is(pixels, at(9), at(9), palette::goal));
  EXPECT_TRUE(pixel_is(pixels, at(8), at(1), palette::passable));  // free, away from every edge
  const std::string svg = temp("visibility.svg");
  ASSERT_TRUE(render::write_visibility_picture(graph, path, svg, style));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

// An SVG keeps every shape in memory until it is written (a million navmesh triangles took
// 4.9 GB): past max_svg_shapes the writers refuse it, and write no file.
TEST(RenderPicture, SvgsOfTooManyShapesAreRefused) {
  visibility::Obstacles many;
  for (int i = 0; i < 720; ++i) many.points.push_back({std::cos(i * 0.0087) * 100, std::sin(i * 0.0087) * 100});  // in view of each other
  const visibility::VisibilityGraph graph(many);
  ASSERT_EQ(graph.edge_count(), 720u * 719u / 2);
  EXPECT_EQ(render::picture_shapes(graph), 720u * 719u / 2 + 720u);
  ASSERT_GT(render::picture_shapes(graph), render::max_svg_shapes);
  const std::string svg = temp("too_many.svg");
  std::filesystem::remove(svg);
  EXPECT_FALSE(render::write_visibility_picture(graph, {}, svg));
  EXPECT_FALSE(std::filesystem::exists(svg));
  visibility::Obstacles few;
  few.points.assign(many.points.begin(), many.points.begin() + 100);
  EXPECT_TRUE(render::write_visibility_picture(visibility::VisibilityGraph(few), {}, svg));
  EXPECT_TRUE(test::is_svg_with_shapes(svg));
}

}  // namespace
}  // namespace waymark::render_picture_test
