// Writes a level too large for Recast's solo build (recast::max_heightfield_cells, 2^26 cells at
// the default cell size 0.3): a square of rolling procedural terrain with walls scattered on it,
// as a Wavefront OBJ (Y up). The file is generated, never committed (docs/levels.md, "Tiles and
// large worlds", measures its tiled build).
//
//   waymark_large_world --out FILE [--size UNITS (3000)] [--step UNITS (4)] [--seed N (31)]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace {

double height(double x, double z) {  // slopes below 20 degrees everywhere
  return 6 * std::sin(x / 60) * std::cos(z / 45) + 3 * std::sin((x + z) / 23);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  double size = 3000, step = 4;
  unsigned seed = 31;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--out")) out = argv[i + 1];
    else if (!std::strcmp(argv[i], "--size")) size = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--step")) step = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
  }
  if (out.empty() || !(size > 0) || !(step > 0) || size / step > 20000) {
    std::fprintf(stderr, "usage: waymark_large_world --out FILE [--size UNITS] [--step UNITS] [--seed N]\n");
    return 2;
  }
  std::FILE* f = std::fopen(out.c_str(), "w");
  if (!f) {
    std::perror(out.c_str());
    return 1;
  }
  const long n = static_cast<long>(std::ceil(size / step));
  std::fprintf(f, "# waymark_large_world --size %g --step %g --seed %u\n", size, step, seed);
  for (long k = 0; k <= n; ++k) {
    for (long i = 0; i <= n; ++i) {
      const double x = static_cast<double>(i) * step, z = static_cast<double>(k) * step;
      std::fprintf(f, "v %.4f %.4f %.4f\n", x, height(x, z), z);
    }
  }
  const auto at = [n](long i, long k) { return k * (n + 1) + i + 1; };
  for (long k = 0; k < n; ++k) {
    for (long i = 0; i < n; ++i) {  // counter-clockwise seen from above (+y)
      std::fprintf(f, "f %ld %ld %ld\nf %ld %ld %ld\n", at(i, k), at(i, k + 1), at(i + 1, k + 1), at(i, k), at(i + 1, k + 1),
                   at(i + 1, k));
    }
  }
  // Walls: one every 40 x 40 units, 8 to 30 long, 1.5 thick, 4 high, along x or z.
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  long next = (n + 1) * (n + 1) + 1;
  for (double cz = 20; cz < size - 20; cz += 40) {
    for (double cx = 20; cx < size - 20; cx += 40) {
      const double len = 8 + 22 * unit(rng);
      const bool along_x = unit(rng) < 0.5;
      const double hx = along_x ? len / 2 : 0.75, hz = along_x ? 0.75 : len / 2;
      const double x0 = cx - hx, x1 = cx + hx, z0 = cz - hz, z1 = cz + hz;
      const double y0 = std::min({height(x0, z0), height(x1, z0), height(x0, z1), height(x1, z1)}) - 1;
      const double y1 = std::max({height(x0, z0), height(x1, z0), height(x0, z1), height(x1, z1)}) + 4;
      const double c[8][3] = {{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1},
                              {x0, y1, z0}, {x1, y1, z0}, {x1, y1, z1}, {x0, y1, z1}};
      for (const auto& v : c) std::fprintf(f, "v %.4f %.4f %.4f\n", v[0], v[1], v[2]);
      const int faces[10][3] = {{4, 7, 6}, {4, 6, 5}, {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
      for (const auto& t : faces) std::fprintf(f, "f %ld %ld %ld\n", next + t[0], next + t[1], next + t[2]);
      next += 8;
    }
  }
  return std::fclose(f) == 0 ? 0 : 1;
}
