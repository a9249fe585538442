// The self-made navmesh: one polygon per walkable triangle of a model.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <unordered_map>
#include <vector>

#include "plan_geometry.hpp"
#include "waymark/navmesh/nav_mesh.hpp"
#include "waymark/core/hash.hpp"
#include "waymark/core/text.hpp"

namespace waymark::navmesh {

namespace {

using Triangle = std::array<std::uint32_t, 3>;

void check(const TriangleBuildParams& p) {
  if (!(p.max_slope_degrees >= 0 && p.max_slope_degrees < 90)) {
    throw BuildError("max slope must be from 0 to below 90 degrees, got " + number_text(p.max_slope_degrees));
  }
  if (!(p.weld_distance >= 0 && std::isfinite(p.weld_distance))) {
    throw BuildError("weld distance must be finite and >= 0, got " + number_text(p.weld_distance));
  }
  if (!(p.min_plan_area >= 0 && std::isfinite(p.min_plan_area))) {
    throw BuildError("minimum plan area must be finite and >= 0, got " + number_text(p.min_plan_area));
  }
  if (p.area >= max_areas) throw BuildError("area type must be below " + number_text(max_areas));
}

/// Merges vertices within a distance of each other into the first one seen, through a hash
/// grid of cells as wide as the distance (a neighbour within it is in one of 27 cells).
class Welder {
 public:
  explicit Welder(double distance) : distance_(distance), cell_(distance > 0 ? distance : 1.0) {}

  /// The welded index of `p`; new points get the next index.
  std::uint32_t add(Vec3 p) {
    const Cell c{cell_of(p.x), cell_of(p.y), cell_of(p.z)};
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      for (std::int64_t dy = -1; dy <= 1; ++dy) {
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = cells_.find(Cell{c.x + dx, c.y + dy, c.z + dz});
          if (it == cells_.end()) continue;
          for (std::uint32_t v : it->second) {
            if (distance(points_[v], p) <= distance_) return v;
          }
        }
      }
    }
    const auto v = static_cast<std::uint32_t>(points_.size());
    points_.push_back(p);
    cells_[c].push_back(v);
    return v;
  }
  [[nodiscard]] std::vector<Vec3> take_points() { return std::move(points_); }

 private:
  // Cells past ±2^60 are clamped together (only slower: distances are compared exactly). They
  // were clamped at ±2^20 once, packed into one 64-bit key: with the default weld distance
  // (1e-4) every vertex beyond 105 units shared a cell, and welding a million-triangle
  // model took 180 s instead of 2.
  static constexpr double max_cell = 1152921504606846976.0;  // 2^60
  [[nodiscard]] std::int64_t cell_of(double v) const {
    return static_cast<std::int64_t>(std::floor(std::clamp(v / cell_, -max_cell, max_cell)));
  }
  struct Cell {
    std::int64_t x, y, z;
    bool operator==(const Cell&) const = default;
  };
  struct CellHash {
    std::size_t operator()(const Cell& c) const {
      Hasher h;
      for (const std::int64_t v : {c.x, c.y, c.z}) h.add(static_cast<std::uint64_t>(v));
      return static_cast<std::size_t>(h.value());
    }
  };

  double distance_;
  double cell_;
  std::vector<Vec3> points_;
  std::unordered_map<Cell, std::vector<std::uint32_t>, CellHash> cells_;
};

/// Twice the triangle's area in plan, as its least corner turn: > 0 when counter-clockwise.
double plan_turn(const std::vector<Vec3>& v, const Triangle& t) {
  double least = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const Vec2 a = plan(v[t[k]]), b = plan(v[t[(k + 1) % 3]]), e = plan(v[t[(k + 2) % 3]]);
    least = std::min(least, cross(b - a, e - b));
  }
  return least;
}

}  // namespace

NavMesh build_from_triangles(const TriangleMesh& mesh, const TriangleBuildParams& params) {
  check(params);
  const double min_up = std::cos(params.max_slope_degrees * std::numbers::pi / 180);
  Welder welder(params.weld_distance);
  std::vector<std::uint32_t> welded(mesh.vertices.size(), PolyId::invalid_value);
  const auto weld = [&](std::uint32_t v) {
    if (welded[v] == PolyId::invalid_value) welded[v] = welder.add(mesh.vertices[v]);
    return welded[v];
  };
  std::vector<Triangle> kept;
  for (const Triangle& t : mesh.triangles) {
    if (t[0] >= mesh.vertices.size() || t[1] >= mesh.vertices.size() || t[2] >= mesh.vertices.size()) {
      throw BuildError("a triangle names a vertex the mesh does not have");
    }
    const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
    const Vec3 normal = cross(b - a, c - a);
    const double n = length(normal);
    if (!(n > 0 && std::isfinite(n)) || normal.y / n < min_up) continue;  // too steep, or facing down
    kept.push_back({weld(t[0]), weld(t[1]), weld(t[2])});
  }
  std::vector<Vec3> vertices = welder.take_points();

  // Orient counter-clockwise in plan; drop slivers, triangles welded flat, and repeats.
  std::vector<Triangle> triangles;
  std::vector<std::array<std::uint32_t, 4>> seen;  // sorted corners, then the triangle
  for (Triangle t : kept) {
    if (plan_turn(vertices, t) < 0) std::swap(t[1], t[2]);
    if (!(plan_turn(vertices, t) > 2 * params.min_plan_area)) continue;
    Triangle s = t;
    std::sort(s.begin(), s.end());
    seen.push_back({s[0], s[1], s[2], static_cast<std::uint32_t>(triangles.size())});
    triangles.push_back(t);
  }
  std::sort(seen.begin(), seen.end());
  std::vector<bool> repeat(triangles.size(), false);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    if (std::equal(seen[i].begin(), seen[i].begin() + 3, seen[i - 1].begin())) repeat[seen[i][3]] = true;
  }
  std::size_t unique = 0;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    if (!repeat[i]) triangles[unique++] = triangles[i];
  }
  triangles.resize(unique);
  if (triangles.empty()) {
    throw BuildError("no walkable triangles: none of the " + number_text(mesh.triangles.size()) +
                     " triangles faces up at a slope of at most " + number_text(params.max_slope_degrees) +
                     " degrees with a plan area above " + number_text(params.min_plan_area));
  }
  if (triangles.size() >= PolyId::invalid_value) throw BuildError("too many walkable triangles for 32-bit polygon ids");

  NavMeshData data;
  const auto polys = static_cast<std::uint32_t>(triangles.size());
  data.vertices = std::move(vertices);
  data.corners.reserve(3 * std::size_t{polys});
  for (std::uint32_t p = 0; p < polys; ++p) {
    data.corners.insert(data.corners.end(), triangles[p].begin(), triangles[p].end());
    data.poly_begin.push_back(3 * (p + 1));
  }
  data.neighbors.assign(data.corners.size(), PolyId{});
  data.areas.assign(polys, params.area);
  data.flags.assign(polys, params.flags);

  // Edges by their two vertices: a pair of triangles crossing one edge in opposite directions
  // are neighbours; an edge with one triangle, or three or more, is a wall.
  struct Edge {
    std::uint32_t low, high, corner;
    bool forward;  // runs low -> high
    auto operator<=>(const Edge&) const = default;
  };
  std::vector<Edge> edges;
  edges.reserve(data.corners.size());
  for (std::uint32_t k = 0; k < data.corners.size(); ++k) {
    const std::uint32_t a = data.corners[k], b = data.corners[k % 3 == 2 ? k - 2 : k + 1];
    edges.push_back({std::min(a, b), std::max(a, b), k, a < b});
  }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j].low == edges[i].low && edges[j].high == edges[i].high) ++j;
    if (j - i == 2 && edges[i].forward != edges[i + 1].forward) {
      data.neighbors[edges[i].corner] = PolyId{edges[i + 1].corner / 3};
      data.neighbors[edges[i + 1].corner] = PolyId{edges[i].corner / 3};
    }
    i = j;
  }
  return NavMesh(std::move(data));
}

}  // namespace waymark::navmesh
