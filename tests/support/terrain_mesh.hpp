#pragma once
// A procedural hilly terrain with obstacles, from a seed: the mesh nobody tuned the navmesh
// searches for (issue 31). The navmesh tests and bench/navmesh_bench.cpp build it with Recast.
//
// A square height field (a sum of random sine waves, 1-unit grid) with random box pillars
// standing on it; steep hillsides become unwalkable in Recast, so the walkable surface has
// holes of both kinds.

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "waymark/core/triangle_mesh.hpp"
#include "waymark/navmesh/nav_mesh.hpp"

namespace waymark::test {

/// The terrain: `size` × `size` world units, `pillars` boxes on it, all from `seed`.
inline TriangleMesh hilly_terrain(std::uint64_t seed, int size = 60, int pillars = 25) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  struct Wave {
    double kx, kz, phase, amplitude;
  };
  std::vector<Wave> waves;
  for (int i = 0; i < 6; ++i) {
    const double wavelength = 10 + 20 * unit(rng), angle = 6.283185307179586 * unit(rng);
    const double k = 6.283185307179586 / wavelength;
    waves.push_back({k * std::cos(angle), k * std::sin(angle), 6.283185307179586 * unit(rng), 0.4 + 1.2 * unit(rng)});
  }
  const auto height = [&](double x, double z) {
    double y = 0;
    for (const Wave& w : waves) y += w.amplitude * std::sin(w.kx * x + w.kz * z + w.phase);
    return y;
  };
  TriangleMesh m;
  const auto vertex = [&](double x, double y, double z) {
    m.vertices.push_back({x, y, z});
    return static_cast<std::uint32_t>(m.vertices.size() - 1);
  };
  const int n = size + 1;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) vertex(i, height(i, j), j);
  }
  for (int i = 0; i < size; ++i) {
    for (int j = 0; j < size; ++j) {
      const auto v = [&](int a, int b) { return static_cast<std::uint32_t>(a * n + b); };
      // Wound so that the normal points up (+y): (x, z) counter-clockwise seen from below.
      m.triangles.push_back({v(i, j), v(i, j + 1), v(i + 1, j + 1)});
      m.triangles.push_back({v(i, j), v(i + 1, j + 1), v(i + 1, j)});
    }
  }
  for (int p = 0; p < pillars; ++p) {  // a closed box from below the ground to 4 units above it
    const double cx = 3 + (size - 6) * unit(rng), cz = 3 + (size - 6) * unit(rng);
    const double hx = 0.5 + 2.5 * unit(rng), hz = 0.5 + 2.5 * unit(rng);
    const double y0 = height(cx, cz) - 4, y1 = height(cx, cz) + 4;
    std::uint32_t c[8];
    for (int k = 0; k < 8; ++k) {
      c[k] = vertex(cx + ((k & 1) ? hx : -hx), (k & 4) ? y1 : y0, cz + ((k & 2) ? hz : -hz));
    }
    const std::uint32_t faces[6][4] = {{4, 6, 7, 5}, {0, 1, 3, 2}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
    for (const auto& f : faces) {
      m.triangles.push_back({c[f[0]], c[f[1]], c[f[2]]});
      m.triangles.push_back({c[f[0]], c[f[2]], c[f[3]]});
    }
  }
  return m;
}

/// `count` seeded pairs of random points on the mesh (uniform by plan area).
inline std::vector<std::pair<Vec3, Vec3>> random_point_pairs(const navmesh::NavMesh& nav, int count,
                                                             std::uint64_t seed = 31) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Vec3, Vec3>> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    const auto a = nav.random_point(rng), b = nav.random_point(rng);
    if (a && b) pairs.emplace_back(a->point, b->point);
  }
  return pairs;
}

}  // namespace waymark::test
