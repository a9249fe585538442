#include "waymark/recast/tiled_build.hpp"

#include <atomic>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "recast_steps.hpp"
#include "waymark/core/text.hpp"
#include "waymark/core/parallel.hpp"

namespace waymark::recast {

using navmesh::NavTile;
using navmesh::TileCoord;

struct TiledInput::Level {
  detail::RecastInput in;
};

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw BuildError("tiled build: " + what);
}

/// Whether the triangle `c` (in plan) meets the closed box [lo, hi]: no axis separates them,
/// neither the box's two nor the normals of the triangle's three edges.
bool triangle_meets_box(const std::array<Vec2, 3>& c, Vec2 lo, Vec2 hi) {
  if (std::max({c[0].x, c[1].x, c[2].x}) < lo.x || std::min({c[0].x, c[1].x, c[2].x}) > hi.x ||
      std::max({c[0].y, c[1].y, c[2].y}) < lo.y || std::min({c[0].y, c[1].y, c[2].y}) > hi.y)
    return false;
  const Vec2 centre = (lo + hi) * 0.5, half = (hi - lo) * 0.5;
  for (std::size_t k = 0; k < 3; ++k) {
    const Vec2 e = c[(k + 1) % 3] - c[k];
    const Vec2 n{-e.y, e.x};
    const double a = dot(n, c[k]), b = dot(n, c[(k + 2) % 3]);  // the edge's two ends project to a
    const double box_c = dot(n, centre), box_r = std::abs(n.x) * half.x + std::abs(n.y) * half.y;
    if (std::max(a, b) < box_c - box_r || std::min(a, b) > box_c + box_r) return false;
  }
  return true;
}

}  // namespace

TiledInput::TiledInput(const TriangleMesh& mesh, const TiledParams& params) : params_(params) {
  detail::check(params.recast);
  require(params.tile_size >= min_tile_size && params.tile_size <= max_tile_size,
          "tile_size must be from " + number_text(min_tile_size) + " to " + number_text(max_tile_size) + " voxels, got " +
              number_text(params.tile_size) + " (recast::min_tile_size: Recast's watershed makes no polygon inside a tile of " +
              "1 or 2 voxels; recast::max_tile_size)");
  const int border = detail::voxels(params.recast).walkable_radius + 3;  // as RecastDemo's Sample_TileMesh
  const auto side = static_cast<std::size_t>(params.tile_size) + 2 * static_cast<std::size_t>(border);
  require(side * side <= max_tile_cells, "a tile of " + number_text(params.tile_size) + " voxels and its border of " +
                                             number_text(border) + " has more than " + number_text(max_tile_cells) +
                                             " cells (recast::max_tile_cells; lower tile_size)");
  level_ = std::make_unique<Level>(Level{detail::recast_input(mesh, params.recast)});
  const detail::RecastInput& in = level_->in;
  const double cs = params.recast.cell_size;
  const double gw = std::floor((static_cast<double>(in.bmax[0]) - in.bmin[0]) / cs + 0.5);
  const double gh = std::floor((static_cast<double>(in.bmax[2]) - in.bmin[2]) / cs + 0.5);
  const double tw = std::ceil(gw / params.tile_size), th = std::ceil(gh / params.tile_size);
  require(tw >= 1 && th >= 1, "no walkable area: the geometry is narrower than half a cell in plan");
  require(tw * th <= static_cast<double>(max_tiles), "the level needs " + number_text(tw) + " x " + number_text(th) + " tiles, more than " +
                                                         number_text(max_tiles) + " (recast::max_tiles; raise tile_size)");
  layout_.origin = in.origin + Vec3{in.bmin[0], in.bmin[1], in.bmin[2]};
  layout_.top = in.origin + Vec3{in.bmax[0], in.bmax[1], in.bmax[2]};
  layout_.cell_size = cs;
  layout_.cell_height = params.recast.cell_height;
  layout_.tile_size = params.tile_size;
  layout_.border_size = border;
  layout_.tiles_x = static_cast<int>(tw);
  layout_.tiles_z = static_cast<int>(th);

  // The broad phase: each triangle listed under the tiles whose rectangle, grown by the border,
  // it meets (its plan box picks the candidates, an exact test keeps those it reaches): a long
  // thin triangle across the level lists a few tiles along it, not all those under its box.
  const double pad = cs * border;
  const UniformGrid grid = layout_.grid();
  const auto corners_of = [&](std::size_t i) {
    std::array<Vec2, 3> c;
    for (std::size_t k = 0; k < 3; ++k) {
      const float* v = &in.verts[static_cast<std::size_t>(in.tris[i * 3 + k]) * 3];  // relative to in.origin
      c[k] = {in.origin.x + v[0], in.origin.z + v[2]};
    }
    return c;
  };
  // A tile's grown rectangle, and a quarter cell more: the exact test never drops a triangle
  // that the tile's heightfield (its bounds rounded to floats) would rasterise.
  const double reach = pad + cs / 4;
  const auto for_tiles_of = [&](std::size_t i, auto&& visit) {
    const std::array<Vec2, 3> c = corners_of(i);
    const Vec2 lo{std::min({c[0].x, c[1].x, c[2].x}), std::min({c[0].y, c[1].y, c[2].y})};
    const Vec2 hi{std::max({c[0].x, c[1].x, c[2].x}), std::max({c[0].y, c[1].y, c[2].y})};
    const UniformGrid::Range r = grid.cells_of(lo - Vec2{pad, pad}, hi + Vec2{pad, pad});
    const bool one = r.x0 == r.x1 && r.y0 == r.y1;
    for (int z = r.y0; z <= r.y1; ++z) {
      for (int x = r.x0; x <= r.x1; ++x) {
        const Vec2 tile_lo = grid.cell_min(x, z) - Vec2{reach, reach};
        const Vec2 tile_hi = grid.cell_min(x, z) + Vec2{grid.side + reach, grid.side + reach};
        if (one || triangle_meets_box(c, tile_lo, tile_hi)) visit(grid.index(x, z));
      }
    }
  };
  const auto triangles = static_cast<std::size_t>(in.triangle_count);
  std::size_t listings = 0;
  for (std::size_t i = 0; i < triangles; ++i) for_tiles_of(i, [&](std::size_t) { ++listings; });
  require(listings < std::numeric_limits<std::uint32_t>::max(),
          "the triangles overlap tiles " + number_text(listings) + " times, more than 2^32 - 1 (raise tile_size)");
  tile_triangles_.build(grid.cell_count(), triangles, [&](std::size_t i, auto&& add) { for_tiles_of(i, add); });
}

Vec3 TiledInput::recast_origin() const { return level_->in.origin; }

bool TiledInput::walkable(std::uint32_t triangle) const {
  return triangle < level_->in.areas.size() && level_->in.areas[triangle] != RC_NULL_AREA;
}

TiledInput::TiledInput(TiledInput&&) noexcept = default;
TiledInput& TiledInput::operator=(TiledInput&&) noexcept = default;
TiledInput::~TiledInput() = default;

std::span<const std::uint32_t> TiledInput::triangles_of(TileCoord t) const {
  if (t.x < 0 || t.z < 0 || t.x >= layout_.tiles_x || t.z >= layout_.tiles_z) return {};
  return tile_triangles_.in(static_cast<std::size_t>(t.z) * static_cast<std::size_t>(layout_.tiles_x) + static_cast<std::size_t>(t.x));
}

CompactTile::CompactTile(CompactTile&&) noexcept = default;
CompactTile& CompactTile::operator=(CompactTile&&) noexcept = default;
CompactTile::~CompactTile() = default;
void CompactTile::Free::operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }

std::optional<CompactTile> CompactTile::rasterize(const TiledInput& input, TileCoord t) {
  const TileLayout& l = input.layout();
  if (t.x < 0 || t.z < 0 || t.x >= l.tiles_x || t.z >= l.tiles_z) {
    throw BuildError("tiled build: tile (" + number_text(t.x) + ", " + number_text(t.z) + ") is outside the level's " +
                     number_text(l.tiles_x) + " x " + number_text(l.tiles_z) + " tiles");
  }
  const std::span<const std::uint32_t> triangles = input.triangles_of(t);
  if (triangles.empty()) return std::nullopt;
  const detail::RecastInput& in = input.level_->in;
  std::vector<int> tris;
  std::vector<unsigned char> areas;
  tris.reserve(triangles.size() * 3);
  areas.reserve(triangles.size());
  for (const std::uint32_t i : triangles) {
    tris.insert(tris.end(), &in.tris[std::size_t{i} * 3], &in.tris[std::size_t{i} * 3] + 3);
    areas.push_back(in.areas[i]);
  }
  const std::int64_t ts = l.tile_size, b = l.border_size;
  // Relative to the level's Recast origin, as its vertices are.
  const float bmin[3] = {static_cast<float>(l.cell_x(t.x * ts - b) - in.origin.x), in.bmin[1],
                         static_cast<float>(l.cell_z(t.z * ts - b) - in.origin.z)};
  const float bmax[3] = {static_cast<float>(l.cell_x((t.x + 1) * ts + b) - in.origin.x), in.bmax[1],
                         static_cast<float>(l.cell_z((t.z + 1) * ts + b) - in.origin.z)};
  const int width = static_cast<int>(ts + 2 * b);
  const RecastParams& p = input.params().recast;
  detail::Context ctx;
  const detail::Owned<rcHeightfield> solid(rcAllocHeightfield());
  if (!solid) throw std::bad_alloc();
  ctx.step(rcCreateHeightfield(&ctx, *solid, width, width, bmin, bmax, static_cast<float>(p.cell_size),
                               static_cast<float>(p.cell_height)),
           "create a tile's heightfield");
  ctx.step(rcRasterizeTriangles(&ctx, in.verts.data(), in.vertex_count, tris.data(), areas.data(),
                                static_cast<int>(areas.size()), *solid, detail::voxels(p).walkable_climb),
           "rasterise a tile's triangles");
  const auto spans = static_cast<std::size_t>(rcGetHeightFieldSpanCount(&ctx, *solid));
  if (spans > max_tile_spans) {
    throw BuildError("tiled build: tile (" + number_text(t.x) + ", " + number_text(t.z) + ") has " + number_text(spans) +
                     " walkable spans, more than " + number_text(max_tile_spans) + " (recast::max_tile_spans; lower tile_size)");
  }
  // No walkable span: the filters only take walkability away (but for a ledge within a climb
  // above a walkable span), so the tile has no polygons; its triangles only passed by it.
  if (spans == 0) return std::nullopt;
  return CompactTile(t, detail::compact_walkable(ctx, *solid, p).release());
}

std::optional<RecastMeshes> CompactTile::build_meshes(const TiledInput& input) {
  detail::Context ctx;
  std::unique_ptr<rcPolyMesh, detail::MeshesMaker::Free> poly(rcAllocPolyMesh());
  std::unique_ptr<rcPolyMeshDetail, detail::MeshesMaker::Free> detail_mesh(rcAllocPolyMeshDetail());
  if (!poly || !detail_mesh) throw std::bad_alloc();
  detail::build_polygons(ctx, *chf_, input.params().recast, input.layout().border_size, *poly, *detail_mesh);
  if (poly->npolys == 0) return std::nullopt;
  if (static_cast<std::size_t>(poly->npolys) > max_tile_polys || static_cast<std::size_t>(poly->nverts) > max_tile_polys) {
    throw BuildError("tiled build: a tile has more than " + number_text(max_tile_polys) +
                     " polygons or vertices (recast::max_tile_polys; lower tile_size)");
  }
  return detail::MeshesMaker::make(poly.release(), detail_mesh.release(), input.params().recast, input.recast_origin());
}

NavTile to_nav_tile(const RecastMeshes& meshes, const TiledInput& input, TileCoord t) {
  const TileLayout& l = input.layout();
  const std::int64_t x0 = std::int64_t{t.x} * l.tile_size, z0 = std::int64_t{t.z} * l.tile_size;
  NavTile tile{t, l.tile_min(t), l.tile_max(t), {}};
  tile.data = detail::poly_mesh_data(meshes.poly_mesh(), meshes.detail_mesh(), meshes.params().agent_max_climb, meshes.origin(),
                                     [&](const unsigned short* v) {
                                       return Vec3{l.cell_x(x0 + v[0]), l.origin.y + v[1] * l.cell_height, l.cell_z(z0 + v[2])};
                                     });
  return tile;
}

namespace detail {

Reached reached_by_triangles(const TiledInput& input, TileCoord t) {
  const std::span<const std::uint32_t> listed = input.triangles_of(t);
  return std::any_of(listed.begin(), listed.end(), [&](std::uint32_t i) { return input.walkable(i); }) ? Reached::walkable_triangle
                                                                                                       : Reached::nothing;
}

}  // namespace detail

namespace {

/// build_tile, saying how far the tile got in `reached`.
std::optional<NavTile> build_tile_reaching(const TiledInput& input, TileCoord t, detail::Reached& reached) {
  std::optional<CompactTile> chf = CompactTile::rasterize(input, t);
  if (!chf) {
    reached = detail::reached_by_triangles(input, t);
    return std::nullopt;
  }
  const std::optional<RecastMeshes> meshes = chf->build_meshes(input);
  reached = meshes ? detail::Reached::polygon : detail::reached_by(chf->heightfield());
  if (!meshes) return std::nullopt;
  return to_nav_tile(*meshes, input, t);
}

}  // namespace

std::optional<NavTile> build_tile(const TiledInput& input, TileCoord t) {
  detail::Reached reached{};
  return build_tile_reaching(input, t, reached);
}

std::vector<NavTile> build_tiles(const TiledInput& input) {
  const TileLayout& l = input.layout();
  std::vector<NavTile> tiles;
  std::mutex lock;
  const auto deadline = input.params().deadline;
  std::atomic<std::size_t> skipped{0};
  std::atomic<int> furthest{0};  // how far the tile that got furthest got
  detail::each_index_on_threads(l.tile_count(), input.params().threads, [&](std::size_t i) {
    if (detail::passed(deadline)) {
      ++skipped;
      return;
    }
    detail::Reached reached{};
    std::optional<NavTile> t = build_tile_reaching(input, l.coord(i), reached);
    detail::reach(furthest, reached);
    if (!t) return;
    const std::lock_guard<std::mutex> hold(lock);
    tiles.push_back(std::move(*t));
  });
  if (skipped > 0) throw detail::deadline_error(l.tile_count() - skipped, l.tile_count());
  if (tiles.empty()) throw detail::no_polygons(static_cast<detail::Reached>(furthest.load()), input.params().recast, true);
  std::sort(tiles.begin(), tiles.end(), [](const NavTile& a, const NavTile& b) {
    return a.coord.z != b.coord.z ? a.coord.z < b.coord.z : a.coord.x < b.coord.x;
  });
  return tiles;
}

std::vector<NavTile> build_tiles(const TriangleMesh& mesh, const TiledParams& params) {
  return build_tiles(TiledInput(mesh, params));
}

}  // namespace waymark::recast
