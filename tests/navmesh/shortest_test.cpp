// The shortest mode (Polyanya) against a brute-force visibility graph over the mesh vertices:
// on a single-level mesh, the shortest path bends only at vertices, so Dijkstra over every
// pair of points that see each other across the mesh gives the true shortest length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support/navmesh_support.hpp"
#include "waymark/navmesh/nav_query.hpp"

namespace waymark::navmesh::shortest_test {
namespace {

/// Whether the plan segment p-q lies on the mesh: cut at every mesh edge it crosses, each
/// piece's midpoint is inside some polygon.
bool sees(const NavMesh& nav, Vec2 p, Vec2 q) {
  std::vector<double> cuts = {0, 1};
  const Vec2 d = q - p;
  for (std::uint32_t k = 0; k < nav.data().corners.size(); ++k) {
    const Segment3 e = nav.edge(k);
    const Vec2 a = plan(e.a), b = plan(e.b);
    const double den = cross(d, b - a);
    if (den == 0) continue;
    const double t = cross(a - p, b - a) / den, u = cross(a - p, d) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) cuts.push_back(t);
  }
  std::sort(cuts.begin(), cuts.end());
  const auto on_mesh = [&](Vec2 m) {
    for (std::uint32_t i = 0; i < nav.poly_count(); ++i) {
      if (nav.contains_in_plan(PolyId{i}, m)) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    if (!on_mesh(lerp(p, q, cuts[i]))) return false;
    if (i + 1 < cuts.size() && !on_mesh(lerp(p, q, (cuts[i] + cuts[i + 1]) / 2))) return false;
  }
  return true;
}

/// The shortest plan distance from `from` to `to` on the mesh, by Dijkstra over the visibility
/// graph of the two points and every vertex; infinity when unreachable.
double visibility_graph_distance(const NavMesh& nav, Vec2 from, Vec2 to) {
  std::vector<Vec2> points = {from, to};
  for (const Vec3& v : nav.vertices()) points.push_back(plan(v));
  const std::size_t n = points.size();
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<bool> done(n, false);
  dist[0] = 0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!done[i] && (u == n || dist[i] < dist[u])) u = i;
    }
    if (u == n || std::isinf(dist[u])) break;
    done[u] = true;
    if (u == 1) break;
    for (std::size_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const double w = distance(points[u], points[v]);
      if (dist[u] + w < dist[v] && sees(nav, points[u], points[v])) dist[v] = dist[u] + w;
    }
  }
  return dist[1];
}

double plan_length(const std::vector<Vec3>& corners) {
  double sum = 0;
  for (std::size_t i = 1; i < corners.size(); ++i) sum += distance(plan(corners[i - 1]), plan(corners[i]));
  return sum;
}

/// A width × height floor of unit squares with about `hole_share` of them missing, each square
/// two triangles split along a random diagonal. Two squares that would touch only at a corner
/// get one of the squares between them back: a navmesh connects through edges, and the
/// visibility graph would pass through such a point.
NavMesh random_floor(std::mt19937_64& rng, int width, int height, double hole_share) {
  TriangleMesh m;
  std::bernoulli_distribution hole(hole_share), flip(0.5);
  std::vector<std::vector<bool>> open(static_cast<std::size_t>(height), std::vector<bool>(static_cast<std::size_t>(width)));
  for (auto& row : open) {
    for (std::size_t x = 0; x < row.size(); ++x) row[x] = !hole(rng);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t z = 0; z + 1 < open.size(); ++z) {
      for (std::size_t x = 0; x + 1 < open[z].size(); ++x) {
        const bool a = open[z][x], b = open[z][x + 1], c = open[z + 1][x], d = open[z + 1][x + 1];
        if ((a && d && !b && !c) || (b && c && !a && !d)) {
          open[z][a ? x + 1 : x] = true;
          changed = true;
        }
      }
    }
  }
  for (int z = 0; z < height; ++z) {
    for (int x = 0; x < width; ++x) {
      if (!open[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)]) continue;
      const auto base = static_cast<std::uint32_t>(m.vertices.size());
      const double X = x, Z = z;
      m.vertices.insert(m.vertices.end(), {{X, 0, Z}, {X, 0, Z + 1}, {X + 1, 0, Z + 1}, {X + 1, 0, Z}});
      if (flip(rng)) {
        m.triangles.push_back({base, base + 1, base + 2});
        m.triangles.push_back({base, base + 2, base + 3});
      } else {
        m.triangles.push_back({base, base + 1, base + 3});
        m.triangles.push_back({base + 1, base + 2, base + 3});
      }
    }
  }
  return build_from_triangles(m);
}

TEST(NavMeshShortest, EqualsTheVisibilityGraphOnRandomFloors) {
  std::mt19937_64 rng(42);
  int compared = 0, unreachable = 0;
  for (int mesh = 0; mesh < 30; ++mesh) {
    const NavMesh nav = random_floor(rng, 8, 6, 0.25);
    NavMeshQuery shortest(nav), funnel(nav, {.mode = NavMode::funnel});
    for (int i = 0; i < 10; ++i) {
      const Vec3 from = nav.random_point(rng)->point, to = nav.random_point(rng)->point;
      const double truth = visibility_graph_distance(nav, plan(from), plan(to));
      const Status s = shortest.find_path(from, to);
      if (std::isinf(truth)) {
        EXPECT_FALSE(s.succeeded());
        ++unreachable;
        continue;
      }
      ASSERT_TRUE(s.succeeded()) << "mesh " << mesh << " query " << i;
      EXPECT_NEAR(plan_length(shortest.path().corners), truth, 1e-9 * (1 + truth)) << "mesh " << mesh << " query " << i;
      ASSERT_TRUE(funnel.find_path(from, to).succeeded());
      EXPECT_LE(shortest.path().length, funnel.path().length + 1e-9);
      ++compared;
    }
  }
  EXPECT_GT(compared, 150);
  EXPECT_GT(unreachable, 0);
}

}  // namespace
}  // namespace waymark::navmesh::shortest_test
