#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/error_text.hpp"
#include "waymark/io/obj.hpp"

namespace waymark::io_obj_test {
using namespace io;
namespace {

TriangleMesh parse(const std::string& text, const ObjLoadOptions& o = {}) {
  std::istringstream in(text);
  return parse_obj(in, "test.obj", o);
}

/// The LoadError's message for `text`, or "" when it loads.
std::string error_of(const std::string& text, const ObjLoadOptions& o = {}) {
  return test::error_text<LoadError>([&] { (void)parse(text, o); });
}

TEST(ObjFile, FanTriangulatesFacesOfAnySizeAndIgnoresOtherRecords) {
  const TriangleMesh m = parse(
      "mtllib level.mtl\r\no level\r\n# a comment\r\nv 0 0 0\r\nv 1 0 0\r\nv 1 0 1 1.0\r\n"
      "v 0 0 1 0.5 0.5 0.5\r\nvt 0 0\r\nvn 0 1 0\r\ng floor\r\nusemtl stone\r\ns off\r\n"
      "f 1/1/1 2/1/1 3/1/1 4/1/1  # a quad\r\nf 1//1 3//1 -1//1\r\nl 1 2\r\n");
  ASSERT_EQ(m.vertices.size(), 4u);
  EXPECT_EQ(m.vertices[2], (Vec3{1, 0, 1}));
  ASSERT_EQ(m.triangles.size(), 3u);
  EXPECT_EQ(m.triangles[0], (std::array<std::uint32_t, 3>{0, 1, 2}));
  EXPECT_EQ(m.triangles[1], (std::array<std::uint32_t, 3>{0, 2, 3}));
  EXPECT_EQ(m.triangles[2], (std::array<std::uint32_t, 3>{0, 2, 3}));  // -1: the last vertex so far
}

TEST(ObjFile, NegativeIndicesCountBackFromTheVerticesReadSoFar) {
  const TriangleMesh m = parse("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -2 -1\nv 5 5 5\nf -4 -3 -1\n");
  ASSERT_EQ(m.triangles.size(), 2u);
  EXPECT_EQ(m.triangles[0], (std::array<std::uint32_t, 3>{0, 1, 2}));
  EXPECT_EQ(m.triangles[1], (std::array<std::uint32_t, 3>{0, 1, 3}));
}

TEST(ObjFile, RefusesBadInputWithFileLineAndReason) {
  EXPECT_EQ(error_of(""), "test.obj: no faces in the file");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nv 0 0 1\n"), "test.obj: no faces in the file");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 0 1 2\n"),
            "test.obj:4: a face corner must start with a vertex number (1 is the first, -1 the last), got '0'");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n"),
            "test.obj:4: face corner '4' names vertex 4, but 3 vertices are defined before this line");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 -4\n"),
            "test.obj:4: face corner '-4' names vertex -4, but 3 vertices are defined before this line");
  EXPECT_EQ(error_of("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 0 1\n"),
            "test.obj:1: face corner '1' names vertex 1, but 0 vertices are defined before this line");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nf 1 2\n"), "test.obj:3: a face needs at least 3 corners, got 2");
  EXPECT_EQ(error_of("v 0 nan 0\n"), "test.obj:1: vertex coordinate must be a finite number, got 'nan'");
  EXPECT_EQ(error_of("v 0 1e999 0\n"), "test.obj:1: vertex coordinate must be a finite number, got '1e999'");
  EXPECT_EQ(error_of("v 0 0\n"), "test.obj:1: expected 'v X Y Z' (optionally W, or R G B), got 'v 0 0'");
  EXPECT_EQ(error_of("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x/1\n"),
            "test.obj:4: a face corner must start with a vertex number (1 is the first, -1 the last), got 'x/1'");
  EXPECT_EQ(error_of("v 0 0 0\nF 1 1 1\n"),
            "test.obj:2: unknown record 'F' (expected v or f; vt, vn, vp, o, g, s, usemtl, mtllib, l and p are ignored)");
  EXPECT_EQ(error_of("v 0 0 0\x1b[31m\n"), "test.obj:1: vertex coordinate must be a finite number, got '0\\x1b[31m'");
}

TEST(ObjFile, LimitsAreCheckedAsTheFileIsRead) {
  const std::string text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3 4\n";
  EXPECT_EQ(error_of(text, {.max_vertices = 3}),
            "test.obj:4: more than 3 vertices (the limit ObjLoadOptions::max_vertices; raise it for larger models)");
  EXPECT_EQ(error_of(text, {.max_triangles = 1}),
            "test.obj:5: more than 1 triangles (the limit ObjLoadOptions::max_triangles; raise it for larger models)");
  EXPECT_EQ(parse(text, {.max_vertices = 4, .max_triangles = 2}).triangles.size(), 2u);
}

// Counts from ../shared/data/meshes/SOURCES.txt (RecastDemo's meshes): dungeon.obj has 5101
// vertices and 10133 triangles; nav_test.obj 884 vertices and 792 faces of 3, 4, 6, 8 or 12
// corners, which fan into 1612 triangles.
TEST(ObjFile, LoadsRecastDemoMeshes) {
  const TriangleMesh dungeon = load_obj(WAYMARK_DATA_DIR "/meshes/dungeon.obj");
  EXPECT_EQ(dungeon.vertices.size(), 5101u);
  EXPECT_EQ(dungeon.triangles.size(), 10133u);
  const TriangleMesh nav = load_obj(WAYMARK_DATA_DIR "/meshes/nav_test.obj");
  EXPECT_EQ(nav.vertices.size(), 884u);
  EXPECT_EQ(nav.triangles.size(), 1612u);
}

}  // namespace
}  // namespace waymark::io_obj_test

namespace waymark::io_obj_test {
namespace {

std::string query_error_of(const std::string& text) {
  std::istringstream in(text);
  return test::error_text<LoadError>([&] { (void)io::parse_nav_queries(in, "q.txt"); });
}

TEST(NavQueryFile, ReadsPathQueriesAndSkipsTheRest) {
  std::istringstream in("s Solo Mesh\r\nf nav_test.obj\r\n# comment\r\n\r\nrc 1 2 3 4 5 6 0xffef 0x0\r\n"
                        "pf  18.1 -2.3 -21.3  -19.2 -2.3 24.8  0x3 0x0\r\npf 0 0 0 1 1 1 65535 12\r\n");
  const auto q = io::parse_nav_queries(in, "q.txt");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].from, (Vec3{18.1, -2.3, -21.3}));
  EXPECT_EQ(q[0].to, (Vec3{-19.2, -2.3, 24.8}));
  EXPECT_EQ(q[0].include, 3);
  EXPECT_EQ(q[0].exclude, 0);
  EXPECT_EQ(q[0].line, 6u);
  EXPECT_EQ(q[1].include, 0xffff);
  EXPECT_EQ(q[1].exclude, 12);
  EXPECT_EQ(io::load_nav_queries(WAYMARK_DATA_DIR "/meshes/nav_mesh_test.txt").size(), 21u);
}

TEST(NavQueryFile, RefusesMalformedQueries) {
  EXPECT_EQ(query_error_of("pf 1 2 3 4 5 6 0x3\n"),
            "q.txt:1: expected 'pf SX SY SZ EX EY EZ INCLUDE EXCLUDE', got 'pf 1 2 3 4 5 6 0x3'");
  EXPECT_EQ(query_error_of("s x\npf 1 2 nan 4 5 6 0x3 0\n"), "q.txt:2: query coordinate must be a finite number, got 'nan'");
  EXPECT_EQ(query_error_of("pf 1 2 3 4 5 6 0x10000 0\n"),
            "q.txt:1: query flags must be a number from 0 to 0xffff, got '0x10000'");
  EXPECT_EQ(query_error_of("pf 1 2 3 4 5 6 3 -1\n"), "q.txt:1: query flags must be a number from 0 to 0xffff, got '-1'");
  EXPECT_EQ(query_error_of("pf 1 2 3 4 5 6 0x 0\n"), "q.txt:1: query flags must be a number from 0 to 0xffff, got '0x'");
}

}  // namespace
}  // namespace waymark::io_obj_test
