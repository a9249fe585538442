// Fuzz target: polygon obstacle files (JSON). Every polygon a parse returns is simple by
// visibility::polygon_problem and every count is within the limits passed; small worlds are
// then built (radius 0 and 0.5) and searched between their hand-placed points, whose paths
// must be seen segment by segment and be no shorter than the straight line.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/io/polygons.hpp"
#include "waymark/visibility/visibility_query.hpp"

namespace {

/// Worlds up to this many vertices are built and searched (the build is quadratic in them).
constexpr std::size_t max_built_vertices = 48;

void search_world(const waymark::io::PolygonFile& file, double radius) {
  using namespace waymark;
  try {
    const visibility::VisibilityGraph g(file.obstacles, {.radius = radius, .arc_step_degrees = 45});
    visibility::VisibilityQuery q(g);
    visibility::ProbeScratch scratch = g.make_scratch();
    const auto& points = file.obstacles.points;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      const Status st = q.find_path(points[i], points[i + 1]);
      if (!st.succeeded()) continue;
      const auto& path = q.path().points;
      if (path.front() != points[i] || path.back() != points[i + 1]) fuzz::finding();
      for (std::size_t k = 1; k < path.size(); ++k) {
        // Either direction: arcs are tested once, from the lower point index.
        if (!g.visible(path[k - 1], path[k], scratch) && !g.visible(path[k], path[k - 1], scratch)) fuzz::finding();
      }
      if (q.path().length < distance(points[i], points[i + 1]) * (1 - 1e-12)) fuzz::finding();
    }
  } catch (const visibility::InputError&) {  // a point inside an inflated obstacle, bounds too small
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  std::istringstream in(std::string(fuzz::text_of(data, size)));
  const io::PolygonLoadOptions limits{.max_polygons = 64, .max_vertices = 1024, .max_polygon_vertices = 256, .max_points = 64};
  try {
    const io::PolygonFile file = io::parse_polygons(in, "fuzz.json", limits);
    const auto& o = file.obstacles;
    if (o.polygons.size() > limits.max_polygons || o.points.size() > limits.max_points) fuzz::finding();
    if (file.polygon_lines.size() != o.polygons.size() || file.point_lines.size() != o.points.size()) fuzz::finding();
    std::size_t vertices = 0;
    for (const auto& poly : o.polygons) {
      vertices += poly.size();
      if (poly.size() > limits.max_polygon_vertices || visibility::polygon_problem(poly)) fuzz::finding();
    }
    for (const Vec2 p : o.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) fuzz::finding();
    }
    if (o.bounds && !(o.bounds->min.x < o.bounds->max.x && o.bounds->min.y < o.bounds->max.y)) fuzz::finding();
    if (vertices > limits.max_vertices) fuzz::finding();
    if (vertices <= max_built_vertices) {
      search_world(file, 0);
      search_world(file, 0.5);
    }
  } catch (const LoadError&) {
  }
  return 0;
}
