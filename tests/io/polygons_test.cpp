// Polygon obstacle files: the bundled example, and a table of malformed inputs with the
// error each gets (file:line: reason).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/error_text.hpp"
#include "waymark/io/polygons.hpp"

namespace waymark::io::polygons_test {
namespace {

std::string parse_error(const std::string& text, const PolygonLoadOptions& options = {}) {
  return test::error_text<LoadError>([&] {
    std::istringstream in(text);
    (void)parse_polygons(in, "f.json", options);
  });
}

TEST(Polygons, BundledRoomsFile) {
  const PolygonFile f = load_polygons(WAYMARK_DATA_DIR "/polygons/rooms.json");
  ASSERT_EQ(f.obstacles.polygons.size(), 7u);
  EXPECT_EQ(f.obstacles.polygons[3], (std::vector<Vec2>{{6, 4}, {10, 4}, {8, 8}}));
  EXPECT_EQ(f.polygon_lines, (std::vector<std::size_t>{4, 5, 6, 7, 8, 9, 10}));
  ASSERT_EQ(f.obstacles.points.size(), 1u);
  EXPECT_EQ(f.point_lines, std::vector<std::size_t>{12});
  ASSERT_TRUE(f.obstacles.bounds);
  EXPECT_EQ(f.obstacles.bounds->max, (Vec2{40, 30}));
  EXPECT_EQ(f.bounds_line, 2u);
}

TEST(Polygons, MinimalFormsAndWhitespace) {
  std::istringstream in("\xef\xbb\xbf{\"polygons\":[]}\r\n");
  const PolygonFile f = parse_polygons(in, "f.json");
  EXPECT_TRUE(f.obstacles.polygons.empty());
  EXPECT_FALSE(f.obstacles.bounds);
  std::istringstream one("{ \"points\" : [ [ -1.5e1 , 0 ] ] ,\n\t\"polygons\": [[[0,0],[1,0],[0,1]]] }");
  const PolygonFile g = parse_polygons(one, "f.json");
  EXPECT_EQ(g.obstacles.points[0], (Vec2{-15, 0}));
  EXPECT_EQ(g.polygon_lines[0], 2u);
}

TEST(Polygons, MalformedInputGetsFileLineAndReason) {
  const std::string tri = "[[0,0],[1,0],[0,1]]";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "f.json:1: invalid JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"},
      {"[]", "f.json: expected a JSON object, got a list"},
      {"{}", "f.json: missing key \"polygons\""},
      {"{\"polygons\": [" + tri + "]} x", "f.json:1: invalid JSON: syntax error while parsing value - invalid literal; last read: '1]]]} x'; expected end of input"},
      {"{\"polygons\": [" + tri + "]", "f.json:1: invalid JSON: syntax error while parsing object - unexpected end of input; expected '}'"},
      {"{\"polygons\": [],\n\"polygons\": []}", "f.json:2: polygons: key 'polygons' appears twice"},
      {"{\"polys\": []}", "f.json:1: unknown key 'polys' (expected polygons, points or bounds)"},
      {"{polygons: []}", "f.json:1: invalid JSON: syntax error while parsing object key - invalid literal; last read: '{p'; expected string literal"},
      {"{\"polygons\": [[[0,0],[1,0],[0,NaN]]]}", "f.json:1: invalid JSON: NaN is not a JSON number (JSON numbers are finite)"},
      {"{\"polygons\": [[[0,0],[1,0],[0,Infinity]]]}", "f.json:1: invalid JSON: Infinity is not a JSON number (JSON numbers are finite)"},
      {"{\"polygons\": [[[0,0],[1,0],[0,\"1\"]]]}", "f.json:1: polygons[0][2][1]: expected a number, got the string '1'"},
      {"{\"polygons\": [[[0,0],[1,0],[0,1e999]]]}", "f.json:1: polygons[0][2][1]: must be a finite number, got 1e999 (beyond the range of a double)"},
      {"{\"polygons\": [[[0,0],[1,0],[0,01]]]}", "f.json:1: invalid JSON: syntax error while parsing array - unexpected number literal; expected ']'"},
      {"{\"polygons\": [[[0,0],[1,0],[0,2e6]]]}", "f.json:1: polygons[0][2][1]: must lie within ±1000000, got 2e6"},
      {"{\"polygons\": [[[0,0],[1,0],[0]]]}", "f.json:1: polygons[0][2]: expected a vertex [x, y], got a list of 1 values"},
      {"{\"polygons\": [[[0,0],[1,0],[0,1,2]]]}", "f.json:1: polygons[0][2]: expected a vertex [x, y], got a list of 3 values"},
      {"{\"polygons\": [[0,0]]}", "f.json:1: polygons[0][0]: expected a vertex [x, y], got 0"},
      {"{\"polygons\": [\n[[0,0],\n[1,0]]\n]}", "f.json:2: polygons[0]: 2 vertices; at least 3 are needed"},
      {"{\"polygons\": [\n[[0,0],\n[1,0],\n[1,0],\n[0,1]]]}", "f.json:4: polygons[0]: vertex 2 repeats vertex 1"},
      {"{\"polygons\": [" + tri + ",\n[[0,0],\n[2,2],\n[2,0],\n[0,2]]]}",
       "f.json:4: polygons[1]: edges 0-1 and 2-3 cross or touch (not a simple polygon)"},
      {"{\"polygons\": [[[0,0],[1,0],[2,0]]]}", "f.json:1: polygons[0]: the edges at vertex 0 fold back over each other"},
      {"{\"polygons\": [[[0,0],[1,0],[0,1],[0,0]]]}",
       "f.json:1: polygons[0]: the last vertex repeats the first (polygons close by themselves: leave it out)"},
      {"{\"polygons\": [], \"bounds\": [0, 0, 1]}", "f.json:1: bounds: expected bounds [minx, miny, maxx, maxy], got a list of 3 values"},
      {"{\"polygons\": [],\n\"bounds\": [5, 0, 1, 1]}", "f.json:2: bounds: must be [minx, miny, maxx, maxy] with min < max"},
      {"{\"polygons\": [], \"points\": [[0,0],]}", "f.json:1: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"},
      {"{\"polygons\": [], \"points\": {}}", "f.json:1: points: expected a list of points, got an object"},
      {"{\"polygons\": [], \"po\\\"ints\": []}", "f.json:1: unknown key 'po\"ints' (expected polygons, points or bounds)"},
      {"{\"polygons\": [], \"p\nx\": []}", "f.json:1: invalid JSON: syntax error while parsing object key - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"p<U+000A>'; expected string literal"},
      {"{\"polygons\": [], \"" + std::string(70, 'k') + "\": []}", "f.json:1: unknown key '" + std::string(30, 'k') + "..." + std::string(30, 'k') + "' (expected polygons, points or bounds)"},
      {"{\"polygons\": [[[0,0],[1,0],[0," + std::string(70, '1') + "]]]}", "f.json:1: polygons[0][2][1]: must lie within ±1000000, got " + std::string(40, '1') + "..."},
      {"{\"polygons\": [[[0,0],[1,0],[0,\x01]]]}", "f.json:1: invalid JSON: syntax error while parsing value - invalid literal; last read: '0,<U+0001>'"},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(parse_error(text), expected) << text;
}

TEST(Polygons, LimitsAreCheckedWhileReading) {
  const std::string two = "{\"polygons\": [[[0,0],[1,0],[0,1]], [[5,0],[6,0],[5,1]]], \"points\": [[9,9],[8,8]]}";
  EXPECT_EQ(parse_error(two, {.max_polygons = 1}), "f.json:1: polygons: more than 1 polygons (limit max_polygons)");
  EXPECT_EQ(parse_error(two, {.max_vertices = 5}), "f.json:1: polygons[1]: more than 5 vertices (limit max_vertices)");
  EXPECT_EQ(parse_error(two, {.max_polygon_vertices = 2}),
            "f.json:1: polygons[0]: more than 2 vertices in one polygon (limit max_polygon_vertices)");
  EXPECT_EQ(parse_error(two, {.max_points = 1}), "f.json:1: points: more than 1 points (limit max_points)");
  EXPECT_EQ(parse_error(two), "");
  EXPECT_EQ(test::error_text<LoadError>([] { (void)load_polygons("/nonexistent/polygons.json"); }).substr(0, 28),
            "/nonexistent/polygons.json: ");
}

TEST(Polygons, BuildRefusalsPointAtTheLine) {
  std::istringstream in("{\"polygons\": [[[0,0],[2,0],[2,2],[0,2]]],\n\"points\": [[5,5],\n[2.2,1]],\n\"bounds\": [-1,-1,6,6]}");
  const PolygonFile f = parse_polygons(in, "f.json");
  const auto message = [&](double radius) {
    try {
      const visibility::VisibilityGraph g(f.obstacles, {.radius = radius});
    } catch (const visibility::InputError& e) {
      return std::string(f.error(e).what());
    }
    return std::string();
  };
  EXPECT_EQ(message(0), "");
  EXPECT_EQ(message(0.5), "f.json:3: point 1 (2.2, 1) lies inside obstacle 0 inflated by radius 0.5");
  EXPECT_EQ(message(1.5), "f.json:2: point 0 (5, 5) lies outside the bounds shrunk by radius 1.5");
  EXPECT_EQ(message(4), "f.json:4: bounds leave no room for an agent of radius 4");
}

}  // namespace
}  // namespace waymark::io::polygons_test
