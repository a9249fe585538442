// The navmesh picture's overlays (tile borders, off-mesh links, obstacles), checked without
// golden images: pixels read back from the PNG where the geometry puts them.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "support/picture_check.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/render/navmesh_png.hpp"

namespace waymark::render_navmesh_overlay_test {
namespace {

using test::PngPixels;
using test::pixel_is;
namespace palette = render::palette;

/// One 10 × 10 square polygon at height 0: with target_size_px 124 and the 12 px margin, world
/// (x, z) is pixel (12 + 10 x, 12 + 10 z).
navmesh::NavMesh square(std::vector<navmesh::OffMeshLink> links) {
  navmesh::NavMeshData d;
  d.vertices = {{0, 0, 0}, {10, 0, 0}, {10, 0, 10}, {0, 0, 10}};  // counter-clockwise in plan (x, z)
  d.poly_begin = {0, 4};
  d.corners = {0, 1, 2, 3};
  d.neighbors.assign(4, PolyId{});
  d.areas = {0};
  d.flags = {navmesh::walk_flag};
  d.links = std::move(links);
  return navmesh::NavMesh(std::move(d));
}

render::NavMeshPictureStyle small() {
  render::NavMeshPictureStyle style;
  style.target_size_px = 124;
  return style;
}

TEST(RenderNavMeshOverlays, TilesObstaclesAndLinksHaveTheirColours) {
  const navmesh::NavMesh mesh = square({navmesh::OffMeshLink{.start = {1, 0, 8}, .end = {9, 0, 8}}});
  // Tile borders half a unit off the grid lines land on pixel centres (12.5 …).
  const std::vector<Aabb2> tiles{Aabb2::around({0.05, 0.05}, {5.05, 5.05})};
  const std::vector<navmesh::NavObstacle> obstacles{navmesh::CylinderObstacle{{5, 0, 5}, 2, 2},
                                                    navmesh::BoxObstacle{{7, 0, 1}, {9, 2, 3}}};
  const std::string png = ::testing::TempDir() + "/waymark_render_overlays.png";
  std::filesystem::remove(png);
  ASSERT_TRUE(render::write_navmesh_picture(mesh, {}, {.tiles = tiles, .obstacles = obstacles}, png, small()));
  const PngPixels pixels(png);
  ASSERT_TRUE(pixels.ok());
  EXPECT_TRUE(pixel_is(pixels, 14, 12, palette::tile_border));  // the top edge's first dash
  EXPECT_FALSE(pixel_is(pixels, 19, 12, palette::tile_border));  // its first gap (5 on, 4 off)
  EXPECT_TRUE(pixel_is(pixels, 62, 62, palette::obstacle));      // the cylinder's centre
  EXPECT_TRUE(pixel_is(pixels, 62 + 17, 62, palette::obstacle)); // inside its 2-unit radius
  EXPECT_TRUE(pixel_is(pixels, 92, 32, palette::obstacle));      // the box's middle
  EXPECT_FALSE(pixel_is(pixels, 62, 32, palette::obstacle));
  EXPECT_TRUE(pixel_is(pixels, 102, 92, palette::link));  // the link's end (its dot)
  EXPECT_TRUE(pixel_is(pixels, 22, 92, palette::link));   // and its start
}

/// A two-way link has an arrowhead at its start too: more of the link's colour around its start
/// than a one-way link has there (its line and its end dot only).
TEST(RenderNavMeshOverlays, TwoWayLinksHaveAnArrowheadAtEachEnd) {
  std::array<int, 2> around_start{};
  for (const bool two_way : {false, true}) {
    const navmesh::NavMesh mesh = square({navmesh::OffMeshLink{.start = {1, 0, 1}, .end = {9, 0, 1}, .bidirectional = two_way}});
    const std::string png = ::testing::TempDir() + "/waymark_render_link.png";
    std::filesystem::remove(png);
    ASSERT_TRUE(render::write_navmesh_picture(mesh, {}, png, small()));
    const PngPixels pixels(png);
    ASSERT_TRUE(pixels.ok());
    for (int y = 12; y < 34; ++y)  // the start is pixel (22, 22)
      for (int x = 12; x < 34; ++x) around_start[two_way] += pixel_is(pixels, x, y, palette::link) ? 1 : 0;
  }
  // An arrowhead 9 px long, 0.45 rad to each side, covers some 15 px beyond the line and the dot.
  EXPECT_GT(around_start[1], around_start[0] + 8) << around_start[0] << " " << around_start[1];
  EXPECT_GT(around_start[0], 10);  // the dot and the line
}

}  // namespace
}  // namespace waymark::render_navmesh_overlay_test
