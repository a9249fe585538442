#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/error_text.hpp"
#include "waymark/io/nav_links.hpp"

namespace waymark::io_nav_links_test {
using namespace io;
namespace {

std::vector<navmesh::OffMeshLink> parse(const std::string& text, const NavLinksLoadOptions& o = {}) {
  std::istringstream in(text);
  return parse_nav_links(in, "level.gset", o);
}

std::string error_of(const std::string& text, const NavLinksLoadOptions& o = {}) {
  return test::error_text<LoadError>([&] { (void)parse(text, o); });
}

TEST(NavLinksFile, ReadsRecastDemoConnectionsAndSkipsOtherLines) {
  // As RecastDemo's InputGeom::saveGeomSet writes a set: the mesh, settings, a convex volume,
  // then `c` lines (jump area 5, jump flag 8).
  const auto links = parse(
      "f nav_test.obj\r\ns 0.3 0.2 2 0.9 0.6 45 12 8 6 1 8 0.01 1.3 0 0 0 0 0 0 0 0 0\r\n"
      "v 4 1 0 0.1 0 0 1 1 1 1\r\n# a comment\r\n\r\n"
      "c 1.5 2 -3.25  4 0.5 -3  0.6 1 5 8\r\nc 0 0 0 1 1 1 0.25 0 63 0xffff\n");
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].start, (Vec3{1.5, 2, -3.25}));
  EXPECT_EQ(links[0].end, (Vec3{4, 0.5, -3}));
  EXPECT_EQ(links[0].radius, 0.6);
  EXPECT_TRUE(links[0].bidirectional);
  EXPECT_EQ(links[0].area, 5);
  EXPECT_EQ(links[0].flags, 8);
  EXPECT_EQ(links[0].cost, 0);
  EXPECT_EQ(links[0].user_id, 0u);
  EXPECT_FALSE(links[1].bidirectional);
  EXPECT_EQ(links[1].area, 63);
  EXPECT_EQ(links[1].flags, 0xffff);
  EXPECT_EQ(links[1].user_id, 1u);
}

TEST(NavLinksFile, MalformedLinksNameFileLineAndReason) {
  EXPECT_EQ(error_of("f x.obj\nc 1 2 3\n"), "level.gset:2: expected 'c X0 Y0 Z0 X1 Y1 Z1 RADIUS BIDIR AREA FLAGS', got 3 fields");
  EXPECT_EQ(error_of("c 0 0 nan 1 1 1 1 0 0 1\n"), "level.gset:1: link coordinate must be a finite number, got 'nan'");
  EXPECT_EQ(error_of("c 0 0 0 1 1 1 inf 0 0 1\n"), "level.gset:1: link radius must be a finite number, got 'inf'");
  EXPECT_EQ(error_of("c 0 0 0 1 1 1 0 0 0 1\n"), "level.gset:1: link radius must be > 0, got '0'");
  EXPECT_EQ(error_of("c 0 0 0 1 1 1 1 2 0 1\n"), "level.gset:1: link direction must be 0 (one way) or 1 (both ways), got '2'");
  EXPECT_EQ(error_of("c 0 0 0 1 1 1 1 0 64 1\n"), "level.gset:1: link area must be a number from 0 to 63, got '64'");
  EXPECT_EQ(error_of("c 0 0 0 1 1 1 1 0 0 0x10000\n"), "level.gset:1: link flags must be a number from 0 to 0xffff, got '0x10000'");
}

TEST(NavLinksFile, TheLimitIsCheckedBeforeTheListGrows) {
  const std::string two = "c 0 0 0 1 1 1 1 0 0 1\nc 0 0 0 1 1 1 1 0 0 1\n";
  EXPECT_EQ(parse(two, {.max_links = 2}).size(), 2u);
  EXPECT_EQ(error_of(two, {.max_links = 1}),
            "level.gset:2: more than 1 links (the limit NavLinksLoadOptions::max_links; a navmesh holds at most "
            "navmesh::max_links)");
  EXPECT_EQ(error_of(two, {.max_links = 0}).substr(0, 13), "level.gset:1:");
}

TEST(NavLinksFile, AMissingFileIsALoadError) {
  EXPECT_NE(test::error_text<LoadError>([] { (void)load_nav_links("/nonexistent/level.gset"); }), "");
}

}  // namespace
}  // namespace waymark::io_nav_links_test
