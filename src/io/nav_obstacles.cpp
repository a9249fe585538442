#include "waymark/io/nav_obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "text_lines.hpp"

#include "waymark/core/text.hpp"

namespace waymark::io {

using detail::LineReader;
using detail::parse_number;
using detail::split_fields;

namespace {

/// The numbers after the keyword, each finite, or a LoadError naming the first that is not.
std::vector<double> numbers_of(const LineReader& r, const std::vector<std::string_view>& fields) {
  std::vector<double> out;
  out.reserve(fields.size() - 1);
  for (std::size_t i = 1; i < fields.size(); ++i) {
    double v = 0;
    if (!parse_number(fields[i], v) || !std::isfinite(v)) r.fail("expected a finite number, got " + quoted(fields[i]));
    out.push_back(v);
  }
  return out;
}

navmesh::NavObstacle parse_line(const LineReader& r, const std::vector<std::string_view>& fields) {
  const std::string_view shape = fields[0];
  const std::size_t given = fields.size() - 1;
  const auto want = [&](bool ok, const char* form) {
    if (!ok) r.fail(std::string("expected '") + form + "', got " + number_text(given) + " numbers");
  };
  if (shape == "cylinder") {
    want(given == 5, "cylinder X Y Z RADIUS HEIGHT");
    const auto n = numbers_of(r, fields);
    return navmesh::CylinderObstacle{{n[0], n[1], n[2]}, n[3], n[4]};
  }
  if (shape == "box") {
    want(given == 6, "box X0 Y0 Z0 X1 Y1 Z1");
    const auto n = numbers_of(r, fields);
    // Two opposite corners in any order.
    return navmesh::BoxObstacle{{std::min(n[0], n[3]), std::min(n[1], n[4]), std::min(n[2], n[5])},
                                {std::max(n[0], n[3]), std::max(n[1], n[4]), std::max(n[2], n[5])}};
  }
  if (shape == "prism") {
    want(given >= 8 && given % 2 == 0 && given <= 2 + 2 * navmesh::max_prism_corners,
         "prism Y0 Y1 X Z X Z X Z ... (3 to 64 corners)");
    const auto n = numbers_of(r, fields);
    navmesh::PrismObstacle p{{}, n[0], n[1]};
    for (std::size_t i = 2; i < n.size(); i += 2) p.corners.push_back({n[i], n[i + 1]});
    return p;
  }
  r.fail("expected 'cylinder', 'box' or 'prism', got " + quoted(shape));
}

}  // namespace

std::vector<NavObstacleLine> parse_nav_obstacles(std::istream& in, const std::string& name,
                                                 const NavObstacleOptions& options) {
  std::vector<NavObstacleLine> out;
  LineReader r(in, name);
  std::string line;
  while (r.next(line)) {
    const auto fields = split_fields(std::string_view(line).substr(0, line.find('#')));
    if (fields.empty()) continue;
    if (out.size() >= options.max_obstacles) {
      r.fail("more than " + number_text(options.max_obstacles) + " obstacles (NavObstacleOptions::max_obstacles)");
    }
    navmesh::NavObstacle obstacle = parse_line(r, fields);
    if (const auto problem = navmesh::find_obstacle_problem(obstacle)) {
      r.fail(std::string("the ") + navmesh::shape_name(obstacle) + ": " + *problem);
    }
    out.push_back({std::move(obstacle), r.number()});
  }
  return out;
}

std::vector<NavObstacleLine> load_nav_obstacles(const std::string& path, const NavObstacleOptions& options) {
  std::ifstream in = open_input_file(path);
  return parse_nav_obstacles(in, path, options);
}

}  // namespace waymark::io
