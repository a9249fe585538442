// Fuzz target: Recast's build itself (issue 32), solo and tiled, on a few triangles and
// parameters decoded from the bytes, some far past Recast's own limits or far from the origin.
// Each build either gives a navmesh whose vertices lie within the level's plan bounds (to a
// couple of cells) or throws BuildError with a message; it never crashes, hangs or runs out of
// memory. Sizes are bounded by construction: at most 8 triangles of corners within ±32 units of
// the offset, cells of at least 0.1 units (at most 640 x 640 cells), tiles of 1 to 64 cells
// (cells of at least 0.5 units under 8).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "fuzz_input.hpp"
#include "waymark/core/errors.hpp"
#include "waymark/recast/recast_build.hpp"
#include "waymark/recast/tiled_build.hpp"
#include "waymark/navmesh/tiled_nav_mesh.hpp"

namespace {

/// The fuzzer's bytes, read front to back; 0 once they run out.
struct Bytes {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  std::uint8_t next() { return at < size ? data[at++] : 0; }
  double unit() { return next() / 255.0; }
};

/// A parameter: usually within [lo, hi], sometimes a value past any limit.
double param(Bytes& b, double lo, double hi) {
  const std::uint8_t mode = b.next();
  if (mode < 232) return lo + (hi - lo) * b.unit();
  constexpr std::array<double, 8> wild = {0, -1, 1e9, 1e-9, std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::infinity(), 127.5, 256};
  return wild[mode % wild.size()];
}

constexpr std::array<double, 8> offsets = {0, 0, 8e6, 1e7, -3e9, 65536.0 * 153, 1e15, -2.5e5};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace waymark;
  Bytes b{data, size};
  const std::uint8_t flags = b.next();
  const int tile_size = 1 + (flags >> 1) % 64;
  // Cells of at least 0.1 units, 0.5 with tiles under 8 cells: at most 128 x 128 such tiles
  // (a 12 s run in this build on 640 x 640 tiles of one cell, 1.4 s in release).
  const double cell = (tile_size < 8 ? 0.5 : 0.1) + b.unit();
  recast::RecastParams p{.cell_size = cell, .cell_height = 0.05 + 0.5 * b.unit()};
  p.agent_height = param(b, 0, 4);
  p.agent_radius = param(b, 0, 2);
  p.agent_max_climb = param(b, 0, 2);
  p.agent_max_slope = param(b, 0, 89);
  p.region_min_size = param(b, 0, 20);
  p.region_merge_size = param(b, 0, 40);
  p.edge_max_len = param(b, 0, 40);
  p.edge_max_error = param(b, 0, 4);
  p.verts_per_poly = 2 + b.next() % 6;  // 2 to 7: the ends are refused
  p.detail_sample_dist = param(b, 0, 12);
  p.detail_sample_max_error = param(b, 0, 4);
  const Vec3 offset{offsets[b.next() % offsets.size()], offsets[b.next() % offsets.size()] / 4, offsets[b.next() % offsets.size()]};
  TriangleMesh mesh;
  const std::size_t triangles = b.next() % 9;
  for (std::size_t t = 0; t < triangles; ++t) {
    for (int c = 0; c < 3; ++c) {
      const auto coord = [&] { return static_cast<std::int8_t>(b.next()) * 0.25; };
      const double x = coord(), y = coord(), z = coord();
      mesh.vertices.push_back(offset + Vec3{x, y, z});
    }
    const auto v = static_cast<std::uint32_t>(3 * t);
    mesh.triangles.push_back({v, v + 1, v + 2});
  }
  // The plan bounds any vertex built may lie in: the level's, grown by two cells and the
  // rounding of the offset.
  const double margin = 2 * cell + 1e-6 * (std::abs(offset.x) + std::abs(offset.z));
  Vec3 lo = offset, hi = offset;
  for (const Vec3 m : mesh.vertices) {
    lo = {std::min(lo.x, m.x), 0, std::min(lo.z, m.z)};
    hi = {std::max(hi.x, m.x), 0, std::max(hi.z, m.z)};
  }
  const auto outside = [&](const navmesh::NavMeshData& d) {
    for (const Vec3 v : d.vertices) {
      if (!std::isfinite(v.y) || !(v.x >= lo.x - margin && v.x <= hi.x + margin && v.z >= lo.z - margin && v.z <= hi.z + margin)) {
        return true;
      }
    }
    return false;
  };
  try {
    if ((flags & 1) == 0) {
      const navmesh::NavMesh nav = recast::build_nav_mesh(mesh, p);
      if (nav.poly_count() == 0 || outside(nav.data())) fuzz::finding();
    } else {
      for (const navmesh::NavTile& t : recast::build_tiles(mesh, {.recast = p, .tile_size = tile_size, .threads = 1})) {
        if (outside(t.data)) fuzz::finding();
      }
    }
  } catch (const BuildError& e) {
    if (std::string(e.what()).empty()) fuzz::finding();
  }
  return 0;
}
